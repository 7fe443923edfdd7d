/**
 * An open-model load generator: requests start on an even schedule (every 1/rate seconds) whatever the
 * answers do, and each latency counts from the request's scheduled start, so time a request waits in
 * this process (a busy event loop, every socket taken) counts as the partner would see it. Closed-loop
 * tools (autocannon, even with `overallRate`) wait for answers before sending more and hide that wait.
 *
 * Requests go over node:http with a keep-alive Agent; its socket cap only bounds how many are in flight.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface HttpRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface OpenLoadOptions {
  /** `http://host:port`, the requests' paths are appended. */
  origin: string;
  /** Requests started per second. */
  rate: number;
  /** Seconds of schedule not counted, then seconds counted. */
  warmupS: number;
  durationS: number;
  /** The request of scheduled slot `i` (0-based, warm-up slots included). */
  request: (i: number) => HttpRequest;
  timeoutMs?: number;
  maxSockets?: number;
}

export interface OpenLoadResult {
  offeredRate: number;
  /** Counted requests (scheduled after the warm-up). */
  requests: number;
  /** Answers with a 2xx or 3xx status received during the counted window, per second of it. */
  achievedRate: number;
  /** Latencies in ms over the counted requests that were answered (any status). */
  p50: number;
  p99: number;
  max: number;
  /** Counted requests answered with a status from 400 up, or not at all (network error, timeout). */
  errors: number;
  /** The first few distinct error descriptions, to tell what went wrong. */
  errorSamples: string[];
}

interface Outcome {
  latencyMs: number;
  ok: boolean;
  error?: string;
}

export async function runOpenLoad(options: OpenLoadOptions): Promise<OpenLoadResult> {
  const { origin, rate, warmupS, durationS, request } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const url = new URL(origin);
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: options.maxSockets ?? 512,
    maxFreeSockets: options.maxSockets ?? 512,
  });
  const intervalMs = 1000 / rate;
  const warmupSlots = Math.round(warmupS * rate);
  const totalSlots = warmupSlots + Math.round(durationS * rate);
  const outcomes: Array<Outcome | undefined> = new Array(totalSlots);
  const doneAt = new Float64Array(totalSlots);
  let pending = 0;
  let allSent = false;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((r) => (finish = r));

  const send = (slot: number, scheduledAt: number) => {
    const r = request(slot);
    pending++;
    let settled = false;
    const settle = (ok: boolean, error?: string) => {
      if (settled) return;
      settled = true;
      const now = performance.now();
      doneAt[slot] = now;
      outcomes[slot] = { latencyMs: now - scheduledAt, ok, error };
      pending--;
      if (allSent && pending === 0) finish();
    };
    const headers: Record<string, string | number> = { ...r.headers };
    if (r.body !== undefined) headers['Content-Length'] = Buffer.byteLength(r.body);
    const req = http.request(
      { agent, hostname: url.hostname, port: url.port, method: r.method, path: r.path, headers },
      (res) => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 400; // a 3xx: the tracking redirect's answer
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (!ok && text.length < 300) text += chunk;
        });
        res.on('end', () => settle(ok, ok ? undefined : `${status} ${text.slice(0, 200)}`));
        res.on('error', (err) => settle(false, err.message));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err) => settle(false, err.message));
    req.end(r.body);
  };

  // Every slot whose time has come is sent at once (a late timer catches up), then the timer is set
  // for the next slot; a slot sent late still counts its latency from its scheduled time.
  const start = performance.now() + 10;
  let next = 0;
  const tick = () => {
    const now = performance.now();
    while (next < totalSlots && start + next * intervalMs <= now) {
      send(next, start + next * intervalMs);
      next++;
    }
    if (next < totalSlots) {
      setTimeout(tick, Math.max(0, start + next * intervalMs - performance.now()));
    } else {
      allSent = true;
      if (pending === 0) finish();
    }
  };
  setTimeout(tick, 10);
  await finished;
  agent.destroy();

  const windowStart = start + warmupSlots * intervalMs;
  const windowEnd = start + totalSlots * intervalMs;
  const latencies: number[] = [];
  const errorSamples = new Set<string>();
  let errors = 0;
  let okInWindow = 0;
  for (let slot = 0; slot < totalSlots; slot++) {
    const o = outcomes[slot]!;
    if (o.ok && doneAt[slot] >= windowStart && doneAt[slot] < windowEnd) okInWindow++;
    if (slot < warmupSlots) continue;
    latencies.push(o.latencyMs);
    if (!o.ok) {
      errors++;
      if (errorSamples.size < 5 && o.error) errorSamples.add(o.error);
    }
  }
  latencies.sort((a, b) => a - b);
  return {
    offeredRate: rate,
    requests: totalSlots - warmupSlots,
    achievedRate: okInWindow / ((windowEnd - windowStart) / 1000),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies.at(-1) ?? NaN,
    errors,
    errorSamples: [...errorSamples],
  };
}

/** The nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}
