/**
 * A TCP proxy for fault tests: it stands between the service and PostgreSQL or Redis so that a test
 * can take the server away from the service without touching the real server, which other tests use.
 *
 *   refuse     open connections are closed and new ones refused (ECONNREFUSED): the server is down.
 *   blackhole  open connections stall and new ones are accepted but never answered: a network
 *              partition, or a server that hangs. Only the service's own timeouts end the wait.
 *
 * `restore` lets traffic through again; connections held by a black hole are closed then, as TCP
 * would eventually give up on them, and the service must open new ones.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export type Cut = 'refuse' | 'blackhole';

export interface TcpProxy {
  /** The proxy's own port on 127.0.0.1. */
  readonly port: number;
  /** Open connections, client side. */
  connections(): number;
  cut(how: Cut): Promise<void>;
  /**
   * Lets traffic through again. After a black hole, `heal: true` delivers what waited, as a partition
   * that heals does, instead of closing the held connections.
   */
  restore(options?: { heal?: boolean }): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let state: 'open' | Cut = 'open';
  const pairs = new Set<{ client: Socket; upstream?: Socket }>();

  const forward = (pair: { client: Socket; upstream?: Socket }) => {
    const { client } = pair;
    const upstream = pair.upstream ?? connect(target.port, target.host);
    if (!pair.upstream) {
      pair.upstream = upstream;
      upstream.on('error', () => client.destroy());
      upstream.on('close', () => client.destroy());
    }
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const onConnection = (client: Socket) => {
    const pair: { client: Socket; upstream?: Socket } = { client };
    pairs.add(pair);
    client.on('error', () => undefined);
    client.on('close', () => {
      pair.upstream?.destroy();
      pairs.delete(pair);
    });
    if (state !== 'blackhole') forward(pair); // in a black hole: accepted, never answered
  };

  let server: Server = createServer(onConnection);
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const closeAll = () => {
    for (const { client, upstream } of pairs) {
      client.destroy();
      upstream?.destroy();
    }
  };

  await listen(0);
  const port = (server.address() as { port: number }).port;

  return {
    port,
    connections: () => pairs.size,
    async cut(how) {
      if (state !== 'open') throw new Error(`the proxy is already cut (${state})`);
      state = how;
      if (how === 'refuse') {
        closeAll();
        await stopListening();
        return;
      }
      // Stop forwarding both ways; what either side sends waits in the sockets' buffers.
      for (const { client, upstream } of pairs) {
        if (!upstream) continue;
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    async restore(options = {}) {
      const was = state;
      state = 'open';
      if (was === 'refuse') {
        server = createServer(onConnection);
        await listen(port);
      } else if (was === 'blackhole' && options.heal) {
        for (const pair of pairs) forward(pair);
      } else if (was === 'blackhole') {
        closeAll();
      }
    },
    async close() {
      state = 'open';
      closeAll();
      if (server.listening) await stopListening();
    },
  };
}
