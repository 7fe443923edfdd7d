/**
 * Test support (not loaded by the service): compare a built Express app's routes with its document,
 * and check real answers against the document's responses. Used by the front-ends' own tests.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Express } from 'express';
import type { Schema } from '@loanmatch/http';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  rawPath?: string | string[];
  handle?: { stack?: Layer[] };
}

const joinPath = (prefix: string, path: string): string =>
  `${prefix}${path === '/' && prefix ? '' : path}`.replace(/\/+/g, '/');
/** Express's `:param` as OpenAPI's `{param}`. */
const templated = (path: string): string => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * Every route of the app as `METHOD /path/{param}`, walking Express 5's router stack (`app.router`)
 * and the routers mounted in it. Middleware that is not a route (static assets, authentication) has
 * no method and path of its own and is not listed.
 */
export function expressRoutes(app: Express): Set<string> {
  const out = new Set<string>();
  const walk = (stack: Layer[], prefix: string): void => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths)
          for (const [method, on] of Object.entries(layer.route.methods))
            if (on && method !== '_all') out.add(`${method.toUpperCase()} ${templated(joinPath(prefix, path))}`);
      } else if (layer.handle?.stack) {
        const mount = typeof layer.rawPath === 'string' ? layer.rawPath : '/';
        walk(layer.handle.stack, joinPath(prefix, mount === '/' ? '' : mount));
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return out;
}

/** The path part of a server's URL (absolute, as the documents write them): `/api/partner/v1`, or `/` for a root. */
const serverPath = (servers: unknown): string | undefined => {
  const url = (servers as Array<{ url: string }> | undefined)?.[0]?.url;
  return url === undefined ? undefined : new URL(url, 'http://relative.invalid').pathname;
};

/** Every operation of the document as `METHOD /full/path/{param}`: its server's path (path-level first) and the path. */
export function documentedRoutes(document: Schema): Set<string> {
  const out = new Set<string>();
  const topServer = serverPath(document.servers) ?? '/';
  for (const [path, item] of Object.entries(document.paths as Record<string, Schema>)) {
    const server = serverPath(item.servers) ?? topServer;
    for (const method of METHODS)
      if (item[method]) out.add(`${method.toUpperCase()} ${joinPath(server === '/' ? '' : server, path)}`);
  }
  return out;
}

/** An Ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect) holding the document, for schemas that refer into it. */
export function documentAjv(document: Schema): {
  ajv: Ajv2020;
  compile(segments: readonly string[]): ValidateFunction;
} {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema(document as object, 'doc');
  // JSON Pointer escaping, then URI escaping (ajv decodes the fragment before following the pointer).
  const pointerSegment = (segment: string) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
  return { ajv, compile: (segments) => ajv.compile({ $ref: `doc#/${segments.map(pointerSegment).join('/')}` }) };
}

export interface Answer {
  method: string;
  /** The request's path, without the query. */
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/**
 * Checks answers against the document: the operation exists, the status is documented, the body is
 * valid against that response's schema, and the response's required headers were sent. Answers the
 * problems found, as sentences, for `expect(...).toEqual([])`.
 */
export function createAnswerChecker(document: Schema) {
  const { compile } = documentAjv(document);
  const topServer = serverPath(document.servers) ?? '/';
  const headerComponents = ((document.components as Schema).headers ?? {}) as Record<string, Schema>;
  const templates = Object.entries(document.paths as Record<string, Schema>).map(([path, item]) => {
    const server = serverPath(item.servers) ?? topServer;
    const full = joinPath(server === '/' ? '' : server, path);
    return {
      path,
      item,
      pattern: new RegExp(`^${full.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    };
  });
  const compiled = new Map<string, ValidateFunction>();
  const validator = (segments: string[]) => {
    const key = JSON.stringify(segments);
    let fn = compiled.get(key);
    if (!fn) {
      fn = compile(segments);
      compiled.set(key, fn);
    }
    return fn;
  };

  return (answer: Answer): string[] => {
    const method = answer.method.toLowerCase();
    const found = templates.find((t) => t.pattern.test(answer.path) && t.item[method]);
    const where = `${answer.method} ${answer.path} → ${answer.status}`;
    if (!found) return [`${where}: no operation in the document`];
    const responses = (found.item[method] as Schema).responses as Record<string, Schema>;
    const key =
      String(answer.status) in responses ? String(answer.status) : 'default' in responses ? 'default' : undefined;
    if (!key) return [`${where}: status not documented (documented: ${Object.keys(responses).join(', ')})`];
    const problems: string[] = [];
    const response = responses[key];
    for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Schema>)) {
      const resolved =
        typeof header.$ref === 'string' ? headerComponents[header.$ref.split('/').pop() as string] : header;
      if (resolved.required && answer.headers[name.toLowerCase()] === undefined)
        problems.push(`${where}: header ${name} missing`);
    }
    const content = response.content as Record<string, Schema> | undefined;
    // An answer of another documented type (the report's CSV) is checked for being documented, not parsed.
    const type = String(answer.headers['content-type'] ?? 'application/json').split(';')[0];
    if (content && type !== 'application/json' && !content[type]) problems.push(`${where}: ${type} is not documented`);
    if (content?.['application/json'] && type === 'application/json') {
      const validate = validator([
        'paths',
        found.path,
        method,
        'responses',
        key,
        'content',
        'application/json',
        'schema',
      ]);
      if (!validate(answer.body))
        problems.push(
          `${where}: body ${JSON.stringify(answer.body).slice(0, 300)} fails ${JSON.stringify(validate.errors?.slice(0, 3))}`,
        );
    }
    return problems;
  };
}

/**
 * For a suite whose every answer is checked against `document`: pass each supertest response through
 * `conform` (it answers the response, so it wraps a request in place); `problems` collects what was
 * found and `answers` counts the responses seen, for the suite's last test to assert.
 */
export function createConformance(document: Schema) {
  const check = createAnswerChecker(document);
  const conformance = {
    answers: 0,
    problems: [] as string[],
    conform<R extends { status: number; headers: Record<string, unknown>; body: unknown }>(res: R): R {
      const { method, path } = (res as unknown as { req: { method: string; path: string } }).req;
      conformance.answers++;
      conformance.problems.push(
        ...check({
          method,
          path: path.split('?')[0],
          status: res.status,
          headers: res.headers as Answer['headers'],
          body: res.body,
        }),
      );
      return res;
    },
  };
  return conformance;
}
