import type { RequestHandler } from 'express';
import { classifyAddress, sendError } from '@loanmatch/http';

/** 127.0.0.0/8 and ::1, also written as IPv4-mapped IPv6 (how a dual-stack socket reports an IPv4 caller). */
export const isLoopbackAddress = (address: string | undefined): boolean =>
  address !== undefined && classifyAddress(address).class === 'loopback';

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
