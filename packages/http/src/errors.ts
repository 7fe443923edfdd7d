import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { DomainError, ERROR_CODES, type FieldViolation, type Result, type ServiceErrorCode } from '@loanmatch/domain';
import type { Logger } from './logger';

export type HttpErrorCode = ServiceErrorCode;

export const STATUS_OF = Object.fromEntries(
  Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status]),
) as Readonly<Record<HttpErrorCode, number>>;

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

export function sendData(res: Response, status: number, data: unknown): void {
  res.status(status).json({ success: true, data });
}

/** A domain result in the envelope; an idempotent `{ replayed, value }` answers its value, marked when replayed. */
export function sendResult(res: Response, result: Result<unknown>, status = 200) {
  if (!result.ok) return sendError(res, result.error.code, result.error.message, result.error.details);
  const value = result.value as { replayed?: boolean; value?: unknown };
  if (typeof value !== 'object' || value === null || !('replayed' in value && 'value' in value))
    return sendData(res, status, value);
  if (value.replayed) res.setHeader('Idempotency-Replayed', 'true');
  sendData(res, status, value.value);
}

export const notFound: RequestHandler = (_req, res) => sendError(res, 'NOT_FOUND', 'No such route');

/**
 * The database unreachable (socket codes), shutting down (57P01, 57P03), or not answering in time: pg's
 * statement timeout, pg-pool's wait for a connection (which a transaction starts with), a connection cut.
 */
const DATABASE_DOWN_CODES = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'ECONNRESET', '57P01', '57P03']);
const DATABASE_DOWN_TEXT =
  /connection (terminated|timeout)|timeout exceeded when trying to connect|Query read timeout/i;

/** Registered last: known errors in the envelope; anything else a 500 quoting the request id, its stack logged. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) return;
    const e = err as { type?: string; limit?: number; code?: string; status?: unknown; expose?: unknown };
    if (e?.type === 'entity.parse.failed') return sendError(res, 'INVALID_JSON', 'The request body is not valid JSON');
    if (e?.type === 'entity.too.large')
      return sendError(res, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${formatBytes(e.limit)}`);
    if (e?.type === 'encoding.unsupported')
      return sendError(res, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Encoding must be gzip, deflate, br or identity');
    if (e?.type === 'charset.unsupported') return sendError(res, 'INVALID_JSON', 'The request body must be UTF-8 JSON');
    if (err instanceof HttpError || err instanceof DomainError)
      return sendError(res, err.code, err.message, err.details);
    // The router could not percent-decode a path segment.
    if (err instanceof URIError)
      return sendError(res, 'NOT_FOUND', 'No such route: the path is not valid percent-encoded UTF-8');
    // body-parser's other client errors (bad Content-Encoding, short body, aborted upload): not our text to show.
    if (e?.expose === true && typeof e.status === 'number' && e.status >= 400 && e.status < 500)
      return sendError(res, 'INVALID_JSON', 'The request body could not be read');
    const { requestId } = res.locals;
    const message = String((err as Error)?.message);
    if (DATABASE_DOWN_CODES.has(String(e?.code)) || DATABASE_DOWN_TEXT.test(message)) {
      logger.error('database unavailable', { requestId, method: req.method, error: message });
      res.setHeader('Retry-After', '5');
      return sendError(res, 'SERVICE_UNAVAILABLE', 'The service is temporarily unavailable; retry shortly');
    }
    logger.error('unhandled error', { requestId, method: req.method, stack: (err as Error)?.stack ?? String(err) });
    sendError(res, 'INTERNAL_ERROR', `An internal error occurred; quote request id ${requestId} to support`);
  };
}

/** A system error's code (`ECONNREFUSED`), from the error or its causes; only a code-shaped string is kept. */
export function systemCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,39}$/.test(code)) return code;
  }
}

function formatBytes(limit: number | undefined): string {
  if (limit && limit >= 1024 * 1024) return `${Math.round(limit / (1024 * 1024))} MB`;
  return limit && limit >= 1024 ? `${Math.round(limit / 1024)} KB` : 'the limit';
}
