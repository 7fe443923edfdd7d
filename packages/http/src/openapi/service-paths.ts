/** Health and the reference itself: at the listener's root, no authentication, on both listeners. */
import { ref } from './operations';
import { operation, type Contract } from './operations';
import type { Schema } from './schemas';

/** No authenticated code is answered here: the contract's words for them are not needed. */
const PUBLIC: Contract = { examples: [] };

export function servicePaths(rootServers: Schema[]): Record<string, Schema> {
  const tags = ['Service'];
  const json = (schema: Schema) => ({ 'application/json': { schema } });
  return {
    '/healthz': {
      servers: rootServers,
      get: operation(
        {
          operationId: 'healthz',
          summary: 'The process is alive',
          description: 'Answers 200 while the process runs, whatever its database does. No key.',
          tags,
          authenticated: false,
          success: { status: 200, description: 'Alive.', data: ref('Health'), examples: { default: { status: 'ok' } } },
        },
        PUBLIC,
      ),
    },
    '/readyz': {
      servers: rootServers,
      get: operation(
        {
          operationId: 'readyz',
          summary: 'The process can reach its database',
          description: 'Answers 200 when the database answers, 503 otherwise: for a load balancer. No key.',
          tags,
          authenticated: false,
          success: {
            status: 200,
            description: 'Ready.',
            data: ref('Health'),
            examples: { default: { status: 'ready' } },
          },
          errors: ['SERVICE_UNAVAILABLE'],
          examples: [{ code: 'SERVICE_UNAVAILABLE', message: 'The database is not reachable' }],
        },
        PUBLIC,
      ),
    },
    '/openapi.json': {
      servers: rootServers,
      get: operation(
        {
          operationId: 'openApiDocument',
          summary: 'This OpenAPI 3.1 document',
          description:
            "Built at start from the validation schemas, with this listener's public address as its server. No key.",
          tags,
          authenticated: false,
          success: { status: 200, description: 'The document.', content: json({ type: 'object' }) },
        },
        PUBLIC,
      ),
    },
    '/docs': {
      servers: rootServers,
      get: operation(
        {
          operationId: 'referenceDocs',
          summary: 'This reference, as a web page',
          description: 'Swagger UI, served by this listener with every asset it needs. No key.',
          tags,
          authenticated: false,
          success: {
            status: 200,
            description: 'An HTML page that reads `/openapi.json`.',
            content: { 'text/html': { schema: { type: 'string' } } },
          },
        },
        PUBLIC,
      ),
    },
  };
}
