/**
 * Requests for setting things up (partners, prepared applications): fetch, one at a time or a few in
 * parallel. Never used for what is measured.
 */

export interface CallOptions {
  auth?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** The answer's `data`; throws on any status from 300 up. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(options.auth ? { Authorization: `Bearer ${options.auth}` } : {}),
      ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? ((JSON.parse(text) as { data?: Record<string, unknown> }).data ?? {}) : {};
}

/** Runs `work` over `items` with `concurrency` workers. */
export async function inParallel<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i], i);
      }
    }),
  );
}
