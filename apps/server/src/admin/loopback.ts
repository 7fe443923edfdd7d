import { isIPv4 } from 'node:net';
import type { RequestHandler } from 'express';
import { sendError } from '@loanmatch/http';

/**
 * 127.0.0.0/8, ::1, and 127.x written as an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, how a
 * dual-stack socket reports an IPv4 caller). Undefined (a socket already closed) is not loopback.
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const lower = address.toLowerCase();
  const v4 = lower.startsWith('::ffff:') ? lower.slice('::ffff:'.length) : lower;
  if (isIPv4(v4)) return v4.startsWith('127.');
  return lower === '::1' || lower === '0:0:0:0:0:0:0:1';
}

/**
 * Refuses callers outside loopback with 403 FORBIDDEN, unless `allowRemote` (ADMIN_ALLOW_REMOTE=on): the
 * admin listener is for operators on the machine, even when ADMIN_HOST binds a public interface. It
 * judges the socket's own peer address, never X-Forwarded-For, which any caller can write; a reverse
 * proxy on the same machine is a loopback caller, so it must do its own access control.
 */
export function loopbackOnly(allowRemote: boolean): RequestHandler {
  return (req, res, next) => {
    if (allowRemote || isLoopbackAddress(req.socket.remoteAddress)) return next();
    sendError(
      res,
      'FORBIDDEN',
      'The admin API answers callers on this machine only (loopback); set ADMIN_ALLOW_REMOTE=on to allow others',
    );
  };
}
