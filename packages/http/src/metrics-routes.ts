import { Router, type Express } from 'express';
import { secretsEqual } from '@loanmatch/domain';
import { bearer } from './auth';
import { sendError } from './errors';
import type { Logger } from './logger';
import type { MetricsSource } from './metrics';
import { createServiceApp } from './service-app';

/**
 * `GET /metrics`. With a token, scrapers must send `Authorization: Bearer <token>` (METRICS_TOKEN);
 * without one the endpoint is open, on a listener bound to loopback by default. It is not the admin
 * token: a scraper gets read access to counts, not the operators' API.
 */
export function metricsRoutes(source: MetricsSource, token?: string): Router {
  const router = Router();
  router.get('/metrics', async (req, res) => {
    if (token !== undefined) {
      const given = bearer(req.get('Authorization'));
      if (given === undefined || !secretsEqual(given, token)) {
        res.setHeader('WWW-Authenticate', 'Bearer');
        return sendError(
          res,
          'UNAUTHORIZED',
          'A valid metrics token is required: send Authorization: Bearer <METRICS_TOKEN>',
        );
      }
    }
    res.setHeader('Content-Type', source.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(await source.render());
  });
  return router;
}

/**
 * A listener for `GET /metrics` alone (METRICS_PORT): how a process without the admin listener
 * (`pnpm start:a`, `start:b`) is scraped. It also answers `/healthz` and `/readyz`.
 */
export function createMetricsApp(options: {
  source: MetricsSource;
  token?: string;
  logger: Logger;
  ping: () => Promise<boolean>;
}): Express {
  return createServiceApp({
    contract: 'metrics',
    logger: options.logger,
    ping: options.ping,
    routes: [{ router: metricsRoutes(options.source, options.token) }],
  });
}
