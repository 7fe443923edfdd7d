/** A listener that cannot start says which one and where, so the operator knows the setting to change. */
import express from 'express';
import { listen, type Listener } from '../src';

it('when the port is taken, then starting fails naming the listener, its address and the reason', async () => {
  const first: Listener = await listen('Variant A', express(), 0, '127.0.0.1');
  const port = Number(new URL(first.url).port);
  try {
    await expect(listen('Variant B', express(), port, '127.0.0.1')).rejects.toThrow(
      `Variant B cannot listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}`,
    );
  } finally {
    await new Promise((resolve) => first.server.close(resolve));
  }
});

it('when the host does not resolve, then starting fails naming the listener and the host', async () => {
  await expect(listen('Admin API', express(), 0, 'no-such-host.invalid')).rejects.toThrow(
    /^Admin API cannot listen on no-such-host\.invalid:0: getaddrinfo (ENOTFOUND|EAI_AGAIN) no-such-host\.invalid$/,
  );
});
