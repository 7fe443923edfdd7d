/**
 * What the two documents share: the document's frame (version, servers, tags, components) and the
 * credit check's answer, which is the same on both contracts once the caller is verified.
 */
import { EXAMPLE_IDS, headerRef, ref } from './operations';
import { HEADERS, PARAMETERS } from './parameters';
import { lifecycleWebhookEvents } from './lifecycle';
import { schemaComponents, type Schema } from './schemas';
import type { ServerOptions, Servers } from './servers';
import { webhookEvents } from './webhook-paths';

/** Where a document's listener is reached. */
export type DocumentOptions = ServerOptions;

/** The credit check's success, as `operation()` takes it. */
export const CREDIT_CHECK_SUCCESS = {
  status: 200,
  description: 'The check ran.',
  data: ref('CreditCheckResult'),
  headers: { 'Idempotency-Replayed': headerRef('IdempotencyReplayed') },
  examples: {
    default: {
      applicationId: EXAMPLE_IDS.applicationId,
      creditCheckComplete: true,
      degraded_mode: false,
      sandbox_mode: true,
    },
  },
};

/** Why a credit check is refused after the caller and the application were verified (either contract). */
export const CREDIT_CHECK_CONFLICTS = [
  'STEPS_INCOMPLETE',
  'CREDIT_CHECK_ALREADY_COMPLETED',
  'CREDIT_CHECK_IN_PROGRESS',
  'PERSONAL_DATA_ERASED',
  'IDEMPOTENCY_IN_PROGRESS',
  'IDEMPOTENCY_KEY_UNRESOLVED',
  'IDEMPOTENCY_KEY_REUSED',
] as const;

export const WEBHOOKS_TAG = {
  name: 'Webhooks',
  description: 'Status-change notifications: registration, and (section `webhooks`) what your endpoint receives.',
};
export const SERVICE_TAG = { name: 'Service', description: 'Health checks and this reference.' };

/**
 * Path groups in one `paths` object. Each module adds its own paths; the same path from two modules is
 * a mistake that would silently drop one, so it fails the build instead.
 */
export function mergePaths(...groups: Array<Record<string, Schema>>): Record<string, Schema> {
  const paths: Record<string, Schema> = {};
  for (const group of groups) {
    for (const [path, item] of Object.entries(group)) {
      if (Object.hasOwn(paths, path)) throw new TypeError(`the path ${path} is documented twice`);
      paths[path] = item;
    }
  }
  return paths;
}

/**
 * A whole document of one contract: its own title, description, servers, tags, security schemes (the
 * first is the default) and paths; the webhook events and the components of both.
 */
export function contractDocument(options: {
  title: string;
  description: string;
  servers: Servers;
  security: Record<string, Schema>;
  tags: Schema[];
  paths: Record<string, Schema>;
}): Schema {
  const [scheme] = Object.keys(options.security);
  return {
    openapi: '3.1.1',
    info: {
      title: options.title,
      version: '1.0.0',
      description:
        `${options.description}\n\n` +
        'Any operation may also answer 431 `HEADERS_TOO_LARGE` (headers over 16 KB in all) or 400 `VALIDATION_ERROR` for a request that is not valid HTTP/1.1 (a control character in a header value); the connection then closes.',
    },
    servers: options.servers.api,
    security: [{ [scheme]: [] }],
    tags: options.tags,
    paths: options.paths,
    webhooks: { ...webhookEvents(), ...lifecycleWebhookEvents() },
    components: {
      securitySchemes: options.security,
      schemas: schemaComponents(),
      parameters: PARAMETERS,
      headers: HEADERS,
    },
  };
}
