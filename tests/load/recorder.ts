/**
 * The load test's HTTP client: plain `fetch` (Node's undici, keep-alive, no client-side timeout or
 * abort), with every answer counted by endpoint and status and timed. A request whose answer never
 * arrived (the connection failed) is recorded as unknown: its effect on the server cannot be known, so
 * the test asserts there are none rather than guess.
 */
import { performance } from 'node:perf_hooks';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  body: any;
}

export interface RequestSpec {
  /** The endpoint's label in the summary, e.g. `A POST /applications/:id/match`. */
  endpoint: string;
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** `manual` to see a redirect (the tracking link's 302) instead of following it. */
  redirect?: 'manual' | 'follow';
}

interface Unknown {
  endpoint: string;
  error: string;
}

export class Recorder {
  /** endpoint → status → count. */
  private readonly counts = new Map<string, Map<number, number>>();
  private readonly latencies = new Map<string, number[]>();
  readonly unknowns: Unknown[] = [];
  /** Answers the load did not expect (a wrong status, a replay that differs, …), each described in a line. */
  readonly anomalies: string[] = [];

  /** Sends one request; undefined when no answer came back (recorded as unknown). */
  async send(spec: RequestSpec): Promise<Answer | undefined> {
    const started = performance.now();
    try {
      const res = await fetch(spec.url, {
        method: spec.method,
        headers: { ...(spec.body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...spec.headers },
        body: spec.body !== undefined ? JSON.stringify(spec.body) : undefined,
        redirect: spec.redirect ?? 'follow',
      });
      const text = await res.text();
      this.count(spec.endpoint, res.status, performance.now() - started);
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      return { status: res.status, headers: res.headers, text, body };
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      this.unknowns.push({ endpoint: spec.endpoint, error: cause?.code ?? cause?.message ?? String(err) });
      return undefined;
    }
  }

  /** Records an unexpected answer; the test fails on any. */
  anomaly(what: string, answer?: Answer): void {
    const detail = answer ? ` (got ${answer.status} ${answer.body?.error ?? ''} ${answer.text.slice(0, 160)})` : '';
    this.anomalies.push(`${what}${detail}`);
  }

  private count(endpoint: string, status: number, ms: number): void {
    let byStatus = this.counts.get(endpoint);
    if (!byStatus) {
      byStatus = new Map();
      this.counts.set(endpoint, byStatus);
    }
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    let times = this.latencies.get(endpoint);
    if (!times) {
      times = [];
      this.latencies.set(endpoint, times);
    }
    times.push(ms);
  }

  get total(): number {
    let n = 0;
    for (const byStatus of this.counts.values()) for (const c of byStatus.values()) n += c;
    return n;
  }

  /** Answers of each status, over every endpoint. */
  byStatus(): Map<number, number> {
    const out = new Map<number, number>();
    for (const byStatus of this.counts.values()) for (const [s, c] of byStatus) out.set(s, (out.get(s) ?? 0) + c);
    return out;
  }

  countOf(endpoint: string, status: number): number {
    return this.counts.get(endpoint)?.get(status) ?? 0;
  }

  /** The summary table: requests by endpoint and status, p50 and p99 of each, then the totals. */
  summary(seconds: number): string {
    const statuses = [...this.byStatus().keys()].sort((a, b) => a - b);
    const endpoints = [...this.counts.keys()].sort();
    const width = Math.max(8, ...endpoints.map((e) => e.length));
    const row = (name: string, cells: string[]) =>
      `${name.padEnd(width)}  ${cells.map((c) => c.padStart(7)).join(' ')}`;
    const lines = [row('endpoint', [...statuses.map(String), 'total', 'p50 ms', 'p99 ms'])];
    const all: number[] = [];
    for (const endpoint of endpoints) {
      const byStatus = this.counts.get(endpoint)!;
      const times = this.latencies.get(endpoint)!;
      all.push(...times);
      const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
      lines.push(
        row(endpoint, [
          ...statuses.map((s) => String(byStatus.get(s) ?? '')),
          String(total),
          fmt(percentile(times, 50)),
          fmt(percentile(times, 99)),
        ]),
      );
    }
    const totals = this.byStatus();
    lines.push(
      row('all', [
        ...statuses.map((s) => String(totals.get(s))),
        String(this.total),
        fmt(percentile(all, 50)),
        fmt(percentile(all, 99)),
      ]),
    );
    lines.push(
      `${this.total} requests in ${seconds.toFixed(1)} s: ${(this.total / seconds).toFixed(1)} requests/s; ${this.unknowns.length} without an answer`,
    );
    return lines.join('\n');
  }
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const fmt = (ms: number) => (Number.isNaN(ms) ? '' : ms.toFixed(1));
