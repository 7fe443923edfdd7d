/**
 * A yardstick of `pnpm bench`: a plain Express hello-world answering `GET /` with JSON in the service's
 * envelope, started as its own process on the same Node as the service; prints its port.
 */
import express from 'express';

const app = express();
app.get('/', (_req, res) => {
  res.json({ success: true, data: { ok: true } });
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`hello-world listening on ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
