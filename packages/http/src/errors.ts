import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { DomainError, ERROR_CODES, type FieldViolation, type Result, type ServiceErrorCode } from '@loanmatch/domain';
import type { Logger } from './logger';

/** Every code the HTTP layer answers: the domain's and its own, as the contract lists them. */
export type HttpErrorCode = ServiceErrorCode;

/** The one table from error code to HTTP status, read from the contract's list. */
export const STATUS_OF: Readonly<Record<HttpErrorCode, number>> = Object.freeze(
  Object.fromEntries(Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status])) as Record<
    HttpErrorCode,
    number
  >,
);

/** An error raised by the HTTP layer itself (bad JSON, a missing key), rendered like a domain error. */
export class HttpError extends Error {
  constructor(
    readonly code: HttpErrorCode,
    message: string,
    readonly details?: FieldViolation[],
  ) {
    super(message);
  }
}

export function sendError(res: Response, code: HttpErrorCode, message: string, details?: FieldViolation[]): void {
  res.status(STATUS_OF[code]).json({ success: false, error: code, message, ...(details ? { details } : {}) });
}

/** The success envelope. */
export function sendData(res: Response, status: number, data: unknown): void {
  res.status(status).json({ success: true, data });
}

/** Renders a domain result: the value in the success envelope, an expected failure in the error body. */
export function sendResult<T>(
  res: Response,
  result: Result<T>,
  status = 200,
  view: (value: T) => unknown = (v) => v,
): void {
  if (!result.ok) {
    sendError(res, result.error.code, result.error.message, result.error.details);
    return;
  }
  const value = result.value as unknown as { replayed?: boolean; value?: unknown };
  if (typeof value === 'object' && value !== null && 'replayed' in value && 'value' in value) {
    if (value.replayed) res.setHeader('Idempotency-Replayed', 'true');
    sendData(res, status, view(value.value as T));
    return;
  }
  sendData(res, status, view(result.value));
}

export const notFound: RequestHandler = (_req, res) => {
  sendError(res, 'NOT_FOUND', 'No such route');
};

/**
 * The database is down, unreachable or not answering: refused or lost connections, no connection within
 * DB_CONNECT_TIMEOUT_MS (`timeout exceeded when trying to connect`, or P2028 when a transaction could
 * not start in time), a statement unanswered within DB_QUERY_TIMEOUT_MS (`Query read timeout`), or the
 * server shutting down (57P01, 57P03).
 */
const isDatabaseUnavailable = (err: unknown): boolean => {
  const e = err as { code?: string; name?: string; message?: string };
  return (
    [
      'P1001',
      'P1002',
      'P1008',
      'P1017',
      'P2024',
      'P2028',
      'ECONNREFUSED',
      'ETIMEDOUT',
      'ECONNRESET',
      '57P01',
      '57P03',
    ].includes(String(e?.code)) ||
    /connection (terminated|timeout)|timeout exceeded when trying to connect|Can't reach database|Query read timeout/i.test(
      String(e?.message),
    )
  );
};

/**
 * Registered last. Known errors answer in the contract's envelope; anything else is a generic 500
 * with the request id, the stack going to the log only.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    const type = (err as { type?: string }).type;
    if (type === 'entity.parse.failed') return sendError(res, 'INVALID_JSON', 'The request body is not valid JSON');
    if (type === 'entity.too.large')
      return sendError(
        res,
        'PAYLOAD_TOO_LARGE',
        `The request body is larger than ${formatBytes((err as { limit?: number }).limit)}`,
      );
    if (type === 'encoding.unsupported' || type === 'charset.unsupported')
      return sendError(res, 'INVALID_JSON', 'The request body must be UTF-8 JSON');
    if (err instanceof HttpError || err instanceof DomainError)
      return sendError(res, err.code, err.message, err.details);
    // A path segment that is not percent-encoded UTF-8 (the router's decodeURIComponent failed) names nothing.
    if (err instanceof URIError)
      return sendError(res, 'NOT_FOUND', 'No such route: the path is not valid percent-encoded UTF-8');
    if (isUnreadableBody(err)) return sendError(res, 'INVALID_JSON', 'The request body could not be read');
    if (isDatabaseUnavailable(err)) {
      logger.error('database unavailable', {
        requestId: res.locals.requestId,
        method: req.method,
        error: String((err as Error)?.message),
      });
      res.setHeader('Retry-After', '5');
      return sendError(res, 'SERVICE_UNAVAILABLE', 'The service is temporarily unavailable; retry shortly');
    }
    logger.error('unhandled error', {
      requestId: res.locals.requestId,
      method: req.method,
      stack: (err as Error)?.stack ?? String(err),
    });
    sendError(res, 'INTERNAL_ERROR', `An internal error occurred; quote request id ${res.locals.requestId} to support`);
  };
}

/**
 * The body reader's other refusals: a body that does not inflate under its Content-Encoding, a length
 * that does not match Content-Length, an aborted upload. body-parser raises them through http-errors,
 * which marks a client error `expose` with its 4xx status; their messages are not ours to show.
 */
function isUnreadableBody(err: unknown): boolean {
  const e = err as { status?: unknown; expose?: unknown } | undefined;
  return e?.expose === true && typeof e.status === 'number' && e.status >= 400 && e.status < 500;
}

function formatBytes(limit: number | undefined): string {
  if (limit && limit >= 1024 * 1024) return `${Math.round(limit / (1024 * 1024))} MB`;
  return limit && limit >= 1024 ? `${Math.round(limit / 1024)} KB` : 'the limit';
}
