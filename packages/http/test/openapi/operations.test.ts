/**
 * What generators and reference pages read from each operation: request and response schemas kept
 * apart where they differ, examples that belong to their operation, no lock on webhook payloads.
 */
import { STEP_SCHEMAS } from '@loanmatch/domain';
import { variantADocument, variantBDocument, type Schema } from '../../src';
import { mergePaths } from '../../src/openapi/document';
import { SERVED_A, SERVED_B } from './documents';

const DOCUMENTS: Array<[string, Schema]> = [
  ['A', variantADocument(SERVED_A)],
  ['B', variantBDocument(SERVED_B)],
];
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const schemas = (document: Schema) => (document.components as Schema).schemas as Record<string, Schema>;

/** Every (path, value) of a JSON value, depth first. */
function* walk(value: unknown, path: string[] = []): Generator<[string[], unknown]> {
  yield [path, value];
  if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) yield* walk(v, [...path, k]);
}

/** Follows `$ref`s inside the document. */
function resolve(document: Schema, value: unknown): Schema {
  const ref = (value as Schema | undefined)?.$ref;
  if (typeof ref !== 'string') return (value ?? {}) as Schema;
  const target = ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (node as Schema)[key.replace(/~1/g, '/')], document);
  return resolve(document, target);
}

/** Every property name a request body schema can hold, at any depth (through refs, oneOf, anyOf, allOf). */
function fieldNames(document: Schema, schema: unknown, seen = new Set<unknown>()): Set<string> {
  const names = new Set<string>();
  const node = resolve(document, schema);
  if (seen.has(node)) return names;
  seen.add(node);
  for (const [name, sub] of Object.entries((node.properties ?? {}) as Record<string, unknown>)) {
    names.add(name);
    for (const inner of fieldNames(document, sub, seen)) names.add(inner);
  }
  for (const key of ['oneOf', 'anyOf', 'allOf'])
    for (const sub of (node[key] ?? []) as unknown[])
      for (const inner of fieldNames(document, sub, seen)) names.add(inner);
  return names;
}

/** The names of the schema components a request body reaches, through every reference. */
function requestComponents(document: Schema): Set<string> {
  const names = new Set<string>();
  const visit = (value: unknown): void => {
    for (const [path, node] of walk(value)) {
      const ref = path[path.length - 1] === '$ref' && typeof node === 'string' ? node : undefined;
      const name = ref?.startsWith('#/components/schemas/') ? ref.split('/').pop() : undefined;
      if (name && !names.has(name)) {
        names.add(name);
        visit(schemas(document)[name]);
      }
    }
  };
  for (const [, op] of operations(document)) visit(op.requestBody);
  return names;
}

function operations(document: Schema): Array<[string, Schema]> {
  return Object.entries(document.paths as Record<string, Schema>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m): [string, Schema] => [`${m.toUpperCase()} ${path}`, item[m] as Schema]),
  );
}

describe('request and response schemas', () => {
  it.each(DOCUMENTS)(
    "when Variant %s's request schemas are searched, then no field carries a default (generators would make it required)",
    (_name, document) => {
      const requestNames = [...requestComponents(document)];
      expect(requestNames.length).toBeGreaterThan(5);
      const defaults = requestNames.flatMap((name) =>
        [...walk(schemas(document)[name])]
          .filter(([path]) => path[path.length - 1] === 'default')
          .map(([path]) => `${name}.${path.join('.')}`),
      );
      expect(defaults).toEqual([]);
      expect(JSON.stringify(schemas(document))).toContain('Default when omitted');
    },
  );

  it('when a step is answered, then every field with a default is required, and the application is typed per loan type', () => {
    const document = DOCUMENTS[0][1];
    let checked = 0;
    for (const [formType, name] of [
      ['personal', 'Personal'],
      ['car', 'Car'],
      ['home', 'Home'],
    ] as const) {
      for (const step of [1, 2, 3, 4] as const) {
        const stored = resolve(document, schemas(document)[`Stored${name}LoanStep${step}`]);
        const defaulted = Object.entries(STEP_SCHEMAS[formType][step].properties)
          .filter(([, field]) => field.default !== undefined)
          .map(([field]) => field);
        for (const field of defaulted) {
          checked++;
          expect(stored.required).toContain(field);
        }
      }
      const application = schemas(document)[`${name}Application`];
      expect((application.properties as Record<string, Schema>).formType).toEqual({ type: 'string', const: formType });
    }
    expect(checked).toBeGreaterThan(5);
    expect(schemas(document).Application.discriminator).toMatchObject({ propertyName: 'formType' });
  });
});

describe('examples belong to their operation', () => {
  it.each(DOCUMENTS)(
    "when Variant %s's validation examples are read, then each names a field, parameter or header that operation takes",
    (_name, document) => {
      const misplaced: string[] = [];
      let examples = 0;
      for (const [name, op] of operations(document)) {
        const inputs = new Set<string>();
        const body = (((op.requestBody as Schema | undefined)?.content ?? {}) as Record<string, Schema>)[
          'application/json'
        ];
        for (const field of fieldNames(document, body?.schema)) inputs.add(field);
        for (const parameter of (op.parameters ?? []) as unknown[])
          inputs.add(String(resolve(document, parameter).name));
        const media = (((op.responses as Record<string, Schema>)['400']?.content ?? {}) as Record<string, Schema>)[
          'application/json'
        ];
        for (const [exampleName, { value }] of Object.entries(
          (media?.examples ?? {}) as Record<string, { value: Schema }>,
        )) {
          if (value.error !== 'VALIDATION_ERROR') continue;
          examples++;
          for (const { field } of value.details as Array<{ field: string }>)
            if (!inputs.has(field.split('.')[0])) misplaced.push(`${name} ${exampleName}: ${field}`);
        }
      }
      expect(misplaced).toEqual([]);
      expect(examples).toBeGreaterThan(5);
    },
  );

  it.each(DOCUMENTS)(
    "when Variant %s's operations are read, then every one that takes a key also documents 415 for a body not sent as JSON",
    (_name, document) => {
      const missing = operations(document)
        .filter(([, op]) => !(Array.isArray(op.security) && op.security.length === 0))
        .filter(([, op]) => !(op.responses as Schema)['415'])
        .map(([name]) => name);
      expect(missing).toEqual([]);
    },
  );

  it.each(DOCUMENTS)(
    "when Variant %s's webhook payloads are read, then they take no security scheme (no lock)",
    (_name, document) => {
      const webhooks = Object.values(document.webhooks as Record<string, Schema>);
      expect(webhooks.length).toBeGreaterThan(0);
      for (const item of webhooks) expect((item.post as Schema).security).toEqual([]);
    },
  );
});

describe('path groups', () => {
  it('when two modules document the same path, then building fails instead of dropping one', () => {
    expect(() => mergePaths({ '/webhooks': {} }, { '/applications': {} }, { '/webhooks': {} })).toThrow(/\/webhooks/);
    expect(Object.keys(mergePaths({ '/a': {} }, { '/b': {} }))).toEqual(['/a', '/b']);
  });
});
