import type { Express } from 'express';
import { sendData, sendError } from './errors';

/**
 * Longest wait for the database's answer before `/readyz` says not ready. A probe that hangs is as bad
 * as no probe: load balancers give up after a second or two and learn nothing.
 */
const READY_TIMEOUT_MS = 1500;

/**
 * `GET /healthz`: the process is alive. `GET /readyz`: it can reach its database, within READY_TIMEOUT_MS.
 * Two routes of the app itself, not a router of their own: every request would walk through that.
 */
export function addHealthRoutes(app: Express, ping: () => Promise<boolean>): void {
  app.get('/healthz', (_req, res) => sendData(res, 200, { status: 'ok' }));
  app.get('/readyz', async (_req, res) => {
    if (await within(ping(), READY_TIMEOUT_MS)) return sendData(res, 200, { status: 'ready' });
    sendError(res, 'SERVICE_UNAVAILABLE', 'The database is not reachable');
  });
}

/** The ping's answer, or false when it fails or has not answered in time. */
async function within(answer: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([answer.catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}
