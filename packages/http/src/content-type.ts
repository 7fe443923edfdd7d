/**
 * The media type of request bodies. Every body the contracts take is JSON: a body sent as anything else
 * (a form, text, `application/merge-patch+json`, or no Content-Type at all) is refused with 415
 * `UNSUPPORTED_MEDIA_TYPE` before it is read, so nothing is parsed, stored or half-done.
 */
import type { Request } from 'express';
import { HttpError } from './errors';

/** The one media type of request bodies, as the OpenAPI documents declare it. */
export const JSON_MEDIA_TYPE = 'application/json';

/** Whether the request carries a body: a chunked one, or a Content-Length other than 0. */
export function hasBody(req: Request): boolean {
  const length = req.get('content-length');
  return req.get('transfer-encoding') !== undefined || (length !== undefined && length !== '0');
}

/** The 415 for a request whose body is not declared JSON; undefined for a JSON body or none. */
export function unsupportedMediaType(req: Request): HttpError | undefined {
  if (!hasBody(req) || req.is(JSON_MEDIA_TYPE)) return undefined;
  return new HttpError(
    'UNSUPPORTED_MEDIA_TYPE',
    `The request body must be JSON, sent with Content-Type: ${JSON_MEDIA_TYPE}`,
  );
}
