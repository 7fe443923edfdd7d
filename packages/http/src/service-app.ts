import express, { type Express, type Router } from 'express';
import { errorHandler, notFound } from './errors';
import { addHealthRoutes } from './health';
import type { Logger } from './logger';
import type { HttpMetrics } from './metrics';
import { frontDoor } from './middleware';
import { securityHeaders } from './security-headers';

/**
 * The shell every listener shares: security headers, request id and access log first, requests no route answers refused,
 * health checks, the listener's own routers (each at its path, or at the root), then the 404 and the
 * error middleware last.
 */
export function createServiceApp(options: {
  contract: string;
  logger: Logger;
  ping: () => Promise<boolean>;
  routes: Array<{ path?: string; router: Router }>;
  /** Request durations by route and status, for `GET /metrics`; none when absent. */
  metrics?: HttpMetrics;
}): Express {
  const app = express();
  app.disable('x-powered-by');
  // No ETag: Express would answer a matching If-None-Match with a bodyless 304, outside the envelope;
  // the contract has no conditional requests.
  app.set('etag', false);
  app.use(securityHeaders());
  app.use(frontDoor(options.logger, options.contract, options.metrics?.requests(options.contract)));
  addHealthRoutes(app, options.ping);
  for (const { path, router } of options.routes) {
    if (path) app.use(path, router);
    else app.use(router);
  }
  app.use(notFound);
  app.use(errorHandler(options.logger));
  return app;
}
