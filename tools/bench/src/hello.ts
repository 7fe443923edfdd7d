/**
 * The yardstick of `pnpm bench`: an Express hello-world answering `GET /` with the service's envelope,
 * `{success: true, data: {ok: true}}`. Started as its own process, like the service; prints its port.
 */
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.get('/', (_req, res) => {
  res.json({ success: true, data: { ok: true } });
});
const listening = app.listen(0, '127.0.0.1');
listening.once('listening', () => {
  const address = listening.address();
  listening.keepAliveTimeout = 65_000;
  process.stdout.write(`hello-world listening on ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => listening.close(() => process.exit(0)));
