import { randomUUID } from 'node:crypto';
import { STATUS_CODES, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { STATUS_OF, type HttpErrorCode } from './errors';

export interface Listener {
  name: string;
  server: Server;
  url: string;
}

export function listen(name: string, app: Express, port: number, host: string, path = ''): Promise<Listener> {
  return new Promise((resolve, reject) => {
    const server = createServer(app).listen(port, host);
    server.on('clientError', refuseMalformed);
    server.once('error', reject);
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
    listeners.map(
      ({ server }) =>
        new Promise<void>((resolve) => {
          const force = setTimeout(() => server.closeAllConnections(), graceMs);
          force.unref();
          // A keep-alive connection turns idle once its last request is answered: close it then.
          const sweep = setInterval(() => server.closeIdleConnections(), 50);
          server.close(() => {
            clearTimeout(force);
            clearInterval(sweep);
            resolve();
          });
        }),
    ),
  );
}
