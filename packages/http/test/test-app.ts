import type { Router } from 'express';
import { silentLogger } from '../../../tests/support';
import { createServiceApp } from '../src/service-app';

/** A service app as a front-end builds one, serving the test's `router` under `/v1`, with a database that answers. */
export function appServing(router: Router) {
  return createServiceApp({
    contract: 'test',
    logger: silentLogger,
    ping: async () => true,
    routes: [{ path: '/v1', router }],
  });
}
