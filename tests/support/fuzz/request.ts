/** A generated request, put on the wire exactly as generated (supertest on the app, no port), and its answer. */
import request from 'supertest';
import type { Express } from 'express';

/** Raw bytes of a body, for what a JSON object cannot express. */
export interface RawBody {
  data: string | Buffer;
  /** undefined sends no Content-Type at all. */
  contentType?: string;
  contentEncoding?: string;
}

export interface FuzzRequest {
  /** The application this request aims at, if any: a refusal (4xx) must leave it exactly as it was. */
  target?: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'OPTIONS' | 'HEAD';
  path: string;
  headers: Record<string, string | undefined>;
  /** A value sent as JSON, raw bytes, or nothing. */
  body?: { json: unknown } | { raw: RawBody };
}

export interface FuzzResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Sends the request as generated: headers as given, JSON as JSON.stringify writes it, raw bytes untouched. */
export async function sendFuzzRequest(app: Express, req: FuzzRequest): Promise<FuzzResponse> {
  const agent = request(app);
  let test = agent[req.method.toLowerCase() as 'get'](req.path);
  // Node's client writes a HEAD body without Content-Length, which is broken framing, not a request.
  if (req.method === 'HEAD') req = { ...req, body: undefined };
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) test = test.set(name, value);
  if (req.body && 'json' in req.body) {
    test = test.set('Content-Type', 'application/json').send(JSON.stringify(req.body.json) ?? 'null');
  } else if (req.body && 'raw' in req.body) {
    const { data, contentType, contentEncoding } = req.body.raw;
    // superagent labels a string body as a form unless told otherwise: an empty type leaves the header out.
    test = test.type(contentType ?? '');
    if (contentEncoding) test = test.set('Content-Encoding', contentEncoding);
    // …and would write a Buffer labelled JSON as {"type":"Buffer","data":[…]}: send the bytes as they are.
    test = test.serialize((bytes: unknown) => bytes as string).send(data);
  }
  // Answers are read as text whatever their type, so the checks below see exactly what was sent.
  const res = await test.buffer(true).parse((response, callback) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => callback(null, Buffer.concat(chunks).toString('utf8')));
  });
  return {
    status: res.status,
    headers: res.headers as FuzzResponse['headers'],
    text: typeof res.body === 'string' ? res.body : '',
  };
}

/** A request as a short line, for failure messages (long values cut). */
export function describeRequest(req: FuzzRequest): string {
  const cut = (s: string) => (s.length > 120 ? `${s.slice(0, 120)}…(${s.length})` : s);
  const raw = req.body && 'raw' in req.body ? req.body.raw : undefined;
  const body =
    req.body === undefined
      ? ''
      : raw
        ? `raw ${raw.contentType ?? '(no type)'}${raw.contentEncoding ? ` ${raw.contentEncoding}` : ''} ${cut(Buffer.isBuffer(raw.data) ? `<bytes ${raw.data.toString('hex')}>` : raw.data)}`
        : cut(safeStringify((req.body as { json: unknown }).json));
  return `${req.method} ${cut(req.path)} ${cut(JSON.stringify(req.headers))} ${body}`;
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return String(value);
  }
}
