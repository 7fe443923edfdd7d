/** Health and the reference itself: at the listener's root, no authentication, on both listeners. */
import { operation, ref, type OperationSpec, type Schema } from './operations';

export function servicePaths(rootServers: Schema[]): Record<string, Schema> {
  /** A public GET: no authenticated code is answered, so no contract's words for them are needed. */
  const get = (spec: Omit<OperationSpec, 'tags' | 'authenticated'>) => ({
    servers: rootServers,
    get: operation({ ...spec, tags: ['Service'], authenticated: false }, { examples: [] }),
  });
  return {
    '/healthz': get({
      operationId: 'healthz',
      summary: 'The process is alive',
      description: 'Answers 200 while the process runs, whatever its database does. No key.',
      success: { status: 200, description: 'Alive.', data: ref('Health'), examples: { default: { status: 'ok' } } },
    }),
    '/readyz': get({
      operationId: 'readyz',
      summary: 'The process can reach its database',
      description: 'Answers 200 when the database answers, 503 otherwise: for a load balancer. No key.',
      success: { status: 200, description: 'Ready.', data: ref('Health'), examples: { default: { status: 'ready' } } },
      errors: ['SERVICE_UNAVAILABLE'],
      examples: [{ code: 'SERVICE_UNAVAILABLE', message: 'The database is not reachable' }],
    }),
    '/openapi.json': get({
      operationId: 'openApiDocument',
      summary: 'This OpenAPI 3.1 document',
      description:
        "Built at start from the validation schemas, with this listener's public address as its server. No key.",
      success: {
        status: 200,
        description: 'The document.',
        content: { 'application/json': { schema: { type: 'object' } } },
      },
    }),
    '/docs': get({
      operationId: 'referenceDocs',
      summary: 'This reference, as a web page',
      description: 'Swagger UI, served by this listener with every asset it needs. No key.',
      success: {
        status: 200,
        description: 'An HTML page that reads `/openapi.json`.',
        content: { 'text/html': { schema: { type: 'string' } } },
      },
    }),
  };
}
