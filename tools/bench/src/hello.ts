/**
 * The yardstick of `pnpm bench`: an Express hello-world answering `GET /` with the service's envelope,
 * `{success: true, data: {ok: true}}`. Started as its own process, like the service; prints its port.
 *
 * `--app-server MODULE`: the same app, its server made by `appServer` from MODULE (the service's
 * packages/http/src/server, compiled or as source), which makes each request and response with Express's
 * prototypes, as the service's listeners do. On Node 20 that alone changes a hello-world's cost a lot
 * (docs/decisions.md, "Issue 7, ninth session"); the bench shows the service's ratios to both.
 */
import type { Server } from 'node:http';
import express, { type Express } from 'express';

const app = express();
app.disable('x-powered-by');
app.get('/', (_req, res) => {
  res.json({ success: true, data: { ok: true } });
});
const at = process.argv.indexOf('--app-server');
const appServer = at >= 0 ? (require(process.argv[at + 1]) as { appServer: (app: Express) => Server }).appServer : undefined;
const listening = appServer ? appServer(app).listen(0, '127.0.0.1') : app.listen(0, '127.0.0.1');
listening.once('listening', () => {
  const address = listening.address();
  listening.keepAliveTimeout = 65_000;
  process.stdout.write(`hello-world listening on ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => listening.close(() => process.exit(0)));
