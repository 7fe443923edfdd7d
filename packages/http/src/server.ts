import type { Server } from 'node:http';
import type { Express } from 'express';

export interface Listener {
  name: string;
  server: Server;
  url: string;
}

export function listen(name: string, app: Express, port: number, host: string, path = ''): Promise<Listener> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('error', reject);
    server.once('listening', () => {
      const address = server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      server.keepAliveTimeout = 65_000;
      resolve({ name, server, url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}${path}` });
    });
  });
}

/**
 * Stops accepting connections, lets requests in flight finish (up to `graceMs`), then closes what is
 * left. Idle keep-alive connections are closed at once so they cannot hold the process open.
 */
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
          server.closeIdleConnections();
        }),
    ),
  );
}
