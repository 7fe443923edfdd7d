/**
 * A contract's whole document from its groups of paths: servers absolute and built from configuration
 * (the listener's public address and the contract's base path, so that a validating proxy or a code
 * generator needs nothing but the document), tags, every operation through `operation()`, the webhook
 * events, and the components its paths and webhooks reach.
 */
import { HEADERS, PARAMETERS } from './parameters';
import { EXAMPLE_IDS, operation, type ErrorExample, type OperationSpec } from './operations';
import { PARTNER_EVENTS } from './partner-paths';
import { ref, schemaComponents, type Schema } from './schemas';

/** Where a document's listener is reached. */
export interface DocumentOptions {
  /** The listener's public address, without the base path (`https://partners.example.com`). */
  publicUrl: string;
  /** The contract's base path on that listener (`/api/partner/v1`). */
  basePath: string;
  environment: 'sandbox' | 'live';
}

/** `POST /applications`: an operation's method and path, the key of its spec. */
type Route = `${'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE'} /${string}`;

/** Operations under one tag, in the order of the document's paths. */
export interface PathGroup {
  tag: { name: string; description?: string };
  /** Served at this path of the listener's root (`''`: the root itself), not under the contract's base path. */
  root?: string;
  /** The security of each of its operations, when not the document's default. */
  security?: Schema[];
  operations: Record<Route, OperationSpec>;
}

/** Event types, each with the operation of its delivery, its payload's schema component and an example payload. */
export type Events = Record<string, { operationId: string; summary: string; schema: string; data: unknown }>;

export interface Contract {
  /** `Variant A`. */
  name: string;
  description: string;
  /** Its security schemes, the first the default. */
  security: Record<string, Schema>;
  /** Its own words for the codes every authenticated operation may answer. */
  examples: readonly ErrorExample[];
  groups: PathGroup[];
  /** Webhook events of this contract alone, beside those of both. */
  events?: Events;
}

const ENVIRONMENT_WORDS = { sandbox: 'sandbox: credit checks are simulated', live: 'live (production)' } as const;

/** The path groups in one `paths` object; the same path twice is a mistake that would drop one, so it throws. */
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

/** The document as JSON holds it: plain data, without the TypeBox markers (symbol keys) of the domain's schemas. */
export function contractDocument(options: DocumentOptions, contract: Contract): Schema {
  const { protocol } = new URL(options.publicUrl);
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new TypeError(`the public address of ${contract.name} must be http or https`);
  const root = options.publicUrl.replace(/\/+$/, '');
  const words = ENVIRONMENT_WORDS[options.environment];
  const server = (path: string, description: string) => [{ url: `${root}${path}`, description, 'x-internal': false }];
  const build = ({ tag, root: at, security, operations }: PathGroup) => {
    const where = `${contract.name}'s listener at ${at || 'its root'}, outside the base path (${words}).`;
    const paths: Record<string, Schema> = {};
    for (const [route, spec] of Object.entries(operations)) {
      const [method, path] = route.split(' ');
      paths[path] ??= at === undefined ? {} : { servers: server(at, where) };
      paths[path][method.toLowerCase()] = operation({ security, ...spec }, tag.name, contract.examples);
    }
    return paths;
  };
  const [scheme] = Object.keys(contract.security);
  const document = {
    openapi: '3.1.1',
    info: {
      title: `LoanMatch partner API, ${contract.name}`,
      version: '1.0.0',
      description:
        `${contract.description}\n\n` +
        'Every answer is `{success: true, data}` or `{success: false, error, message, details?}` and carries `X-Request-Id`. ' +
        'Numbers may be sent as JSON numbers or plain decimal strings; fields not listed are ignored. ' +
        'Any operation may also answer 431 `HEADERS_TOO_LARGE` (headers over 16 KB in all) or 400 `VALIDATION_ERROR` for a request that is not valid HTTP/1.1 (a control character in a header value); the connection then closes.',
    },
    servers: server(options.basePath, `${contract.name}, ${words}.`),
    security: [{ [scheme]: [] }],
    tags: [...new Set(contract.groups.map((group) => group.tag))],
    paths: mergePaths(...contract.groups.map(build)),
    webhooks: deliveries({ ...PARTNER_EVENTS, ...contract.events }),
    components: {
      securitySchemes: contract.security,
      schemas: schemaComponents(),
      parameters: PARAMETERS,
      headers: HEADERS,
    },
  };
  return JSON.parse(JSON.stringify(withUsedComponents(document)));
}

/**
 * Both documents are built from one set of components; each keeps only those its paths and webhooks
 * reach, so Variant B's reference does not list Variant A's request bodies and the reverse.
 */
function withUsedComponents(document: Schema & { components: Record<string, Record<string, unknown>> }): Schema {
  const { components } = document;
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/') && !used.has(child)) {
        used.add(child);
        const [, , kind, name] = child.split('/');
        visit(components[kind]?.[name]);
      } else {
        visit(child);
      }
    }
  };
  visit(document.paths);
  visit(document.webhooks);
  const kept = Object.fromEntries(
    Object.entries(components).map(([kind, entries]) => [
      kind,
      kind === 'securitySchemes'
        ? entries
        : Object.fromEntries(Object.entries(entries).filter(([name]) => used.has(`#/components/${kind}/${name}`))),
    ]),
  );
  return { ...document, components: kept };
}

/** The headers of a signed delivery: each one's pattern and meaning. */
const SIGNATURE_HEADERS = Object.entries({
  'webhook-id': ['^evt_', "The event's id, the same on every retry: deduplicate on it."],
  'webhook-timestamp': ['^[0-9]+$', 'Unix seconds of this attempt. Refuse one far from now (e.g. 5 minutes).'],
  'webhook-signature': [
    '^v1,',
    'Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the base64-decoded secret after `whsec_`. Two during the 24 hours after a rotation; accept either.',
  ],
}).map(([name, [pattern, description]]) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', pattern },
}));

/** The `webhooks` section: each event's delivery, signed, not authenticated by a scheme of this API (no lock). */
function deliveries(events: Events): Record<string, Schema> {
  return Object.fromEntries(
    Object.entries(events).map(([type, { operationId, summary, schema, data }]) => [
      type,
      {
        post: {
          operationId,
          summary,
          description:
            'A `POST` to your registered URL, signed by the [Standard Webhooks](https://www.standardwebhooks.com/) scheme. At least once, in order per application; a 2xx within 10 seconds ends the delivery, anything else is retried for over 24 hours. `410 Gone` disables the endpoint.',
          tags: ['Webhooks'],
          security: [],
          parameters: SIGNATURE_HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: ref(schema),
                examples: { default: { value: { type, timestamp: EXAMPLE_IDS.at, data } } },
              },
            },
          },
          responses: {
            '2XX': { description: 'Received: the delivery ends.' },
            '410': { description: 'Gone: the endpoint is disabled at once.' },
            default: {
              description:
                'Anything else: retried (immediately, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h), never before a `Retry-After` you send.',
            },
          },
        },
      },
    ]),
  );
}
