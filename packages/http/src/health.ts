import { Router } from 'express';
import { sendData, sendError } from './errors';

/** `GET /healthz`: the process is alive. `GET /readyz`: it can reach its database. */
export function healthRoutes(ping: () => Promise<boolean>): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => sendData(res, 200, { status: 'ok' }));
  router.get('/readyz', async (_req, res) => {
    if (await ping()) return sendData(res, 200, { status: 'ready' });
    sendError(res, 'SERVICE_UNAVAILABLE', 'The database is not reachable');
  });
  return router;
}
