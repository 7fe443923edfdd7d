import { randomUUID } from 'node:crypto';
import { STATUS_CODES, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import express, { Router, type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { HEADER_SCHEMAS, secretsEqual, stringCheck } from '@loanmatch/domain';
import { bearer } from './auth';
import { STATUS_OF, errorHandler, notFound, sendData, sendError, type HttpErrorCode } from './errors';
import type { Logger } from './logger';
import type { HttpMetrics, MetricsSource, RequestObserver } from './metrics';

/** Longest wait for the database's answer before `/readyz` says not ready: probes give up after a second or two. */
const READY_TIMEOUT_MS = 1500;

/**
 * The shell every listener shares: security headers, the front door, `/healthz` and `/readyz`, the
 * listener's routers, then the 404 and the error middleware.
 */
export function createServiceApp(options: {
  contract: string;
  logger: Logger;
  ping: () => Promise<boolean>;
  routes: Array<{ path?: string; router: Router }>;
  metrics?: HttpMetrics;
}): Express {
  const app = express();
  // No conditional requests: Express would answer a matching If-None-Match with a bodyless 304.
  app.set('etag', false);
  app.use(securityHeaders());
  app.use(frontDoor(options.logger, options.contract, options.metrics?.requests(options.contract)));
  app.get('/healthz', (_req, res) => sendData(res, 200, { status: 'ok' }));
  app.get('/readyz', async (_req, res) => {
    const timeout = sleep(READY_TIMEOUT_MS, false, { ref: false });
    if (await Promise.race([options.ping().catch(() => false), timeout]))
      return sendData(res, 200, { status: 'ready' });
    res.setHeader('Retry-After', '5');
    sendError(res, 'SERVICE_UNAVAILABLE', 'The database is not reachable');
  });
  for (const { path = '/', router } of options.routes) app.use(path, router);
  app.use(notFound);
  app.use(errorHandler(options.logger));
  return app;
}

/**
 * helmet for a JSON API, and `Cache-Control: no-store`: answers are data for one caller. The pages and
 * files that may be kept (the console, `/docs`) set their own Cache-Control and CSP (docs/adr/0154).
 */
function securityHeaders(): RequestHandler {
  const headers = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Subdomains are the operator's to decide.
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
  });
  return (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    headers(req, res, next);
  };
}

const isRequestId = stringCheck(HEADER_SCHEMAS.requestId);

/**
 * What every listener runs first, as one middleware: `X-Request-Id` (the caller's when it is a sane token,
 * or a new one), the access log and request-duration metric, and a 404 for requests no route answers.
 */
export function frontDoor(logger: Logger, contract: string, requests?: RequestObserver): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const requestId = isRequestId(given) ? given : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    // Left in, `If-None-Match: *` would make Express answer a GET with a bodyless 304.
    delete req.headers['if-none-match'];
    delete req.headers['if-modified-since'];

    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      // Refused before a route matched (401, 429), or no route at all (404).
      const route = req.route ? `${req.baseUrl}${req.route.path}` : 'unmatched';
      requests?.observe(route, res.statusCode, durationMs / 1000);
      // Never a body, a key or a raw URL (it holds ids).
      logger.info('request', {
        requestId,
        contract,
        method: req.method,
        route,
        status: res.statusCode,
        durationMs,
        partnerId: res.locals.partner?.partnerId,
      });
    });

    // OPTIONS: there is no CORS, and Express would answer it itself in text/plain. An encoded NUL: no id
    // or name of ours holds one, and PostgreSQL refuses it in text.
    if (req.method === 'OPTIONS' || req.path.includes('%00')) return notFound(req, res, next);
    next();
  };
}

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

export interface Listener {
  name: string;
  server: Server;
  url: string;
}

export function listen(name: string, app: Express, port: number, host: string, path = ''): Promise<Listener> {
  return new Promise((resolve, reject) => {
    const server = createServer(app).listen(port, host);
    server.on('clientError', refuseMalformed);
    // The listener's name and address say which setting to change (docs/configuration.md).
    server.once('error', (err) => reject(new Error(`${name} cannot listen on ${host}:${port}: ${err.message}`)));
    server.once('listening', () => {
      const bound = (server.address() as AddressInfo).port;
      server.keepAliveTimeout = 65_000;
      resolve({ name, server, url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}${path}` });
    });
  });
}

/**
 * Requests Node's HTTP parser refuses (a control character in a header, headers over 16 KB, broken framing,
 * a `headersTimeout`) answered in the envelope with a request id; then the connection closes.
 */
function refuseMalformed(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [code, message]: [HttpErrorCode, string] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? ['HEADERS_TOO_LARGE', 'The request headers are too large: keep them under 16 KB in all']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['REQUEST_TIMEOUT', 'The request headers did not all arrive within 60 s; send the request again']
        : ['VALIDATION_ERROR', 'The request is not valid HTTP/1.1 (a header value may hold a control character)'];
  const body = JSON.stringify({ success: false, error: code, message });
  const status = STATUS_OF[code];
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      'Cache-Control: no-store\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${randomUUID()}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** Stops accepting connections, lets requests in flight finish (up to `graceMs`), then closes what is left. */
export async function drain(listeners: Listener[], graceMs: number): Promise<void> {
  await Promise.all(
    listeners.map(async ({ server }) => {
      const force = setTimeout(() => server.closeAllConnections(), graceMs).unref();
      // A keep-alive connection turns idle once its last request is answered: close it then.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      await new Promise((closed) => server.close(closed));
      clearTimeout(force);
      clearInterval(sweep);
    }),
  );
}
