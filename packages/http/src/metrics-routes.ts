import { Router, type Express } from 'express';
import { secretsEqual } from '@loanmatch/domain';
import { bearer } from './auth';
import { sendError } from './errors';
import type { Logger } from './logger';
import type { MetricsSource } from './metrics';
import { createServiceApp } from './service-app';

/** `GET /metrics`: behind `Authorization: Bearer <METRICS_TOKEN>` when there is a token, open otherwise. */
export function metricsRoutes(source: MetricsSource, token?: string): Router {
  return Router().get('/metrics', async (req, res) => {
    const given = bearer(req.get('Authorization'));
    if (token !== undefined && (given === undefined || !secretsEqual(given, token))) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      const message = 'A valid metrics token is required: send Authorization: Bearer <METRICS_TOKEN>';
      return sendError(res, 'UNAUTHORIZED', message);
    }
    res.setHeader('Content-Type', source.contentType);
    res.send(await source.render());
  });
}

/** The listener of METRICS_PORT, for a process without the admin listener: `/metrics`, `/healthz`, `/readyz`. */
export function createMetricsApp(options: {
  source: MetricsSource;
  token?: string;
  logger: Logger;
  ping: () => Promise<boolean>;
}): Express {
  const { source, token, ...rest } = options;
  return createServiceApp({ ...rest, contract: 'metrics', routes: [{ router: metricsRoutes(source, token) }] });
}
