/**
 * Saturation: autocannon keeps a fixed number of connections busy (a closed loop: each sends its next
 * request when the answer comes), which gives the most requests a second the process serves here, and
 * the CPU time the serving process spends per request at that load (read from /proc before and after).
 */
import autocannon from 'autocannon';
import type { Call } from './prepare';
import { cpuUs } from './proc';

export interface SaturationOptions {
  connections: number;
  warmupS: number;
  durationS: number;
}

export interface SaturationResult {
  /** 2xx and 3xx answers per second over the counted time. */
  rps: number;
  /** CPU time of the serving process per 2xx or 3xx answer, µs. */
  cpuUsPerRequest: number;
  answered: number;
  /** Answers from 400 up, errors and timeouts. */
  errors: number;
  durationS: number;
  /** The counted time on the monotonic clock a CPU profile uses (µs), to read the profile for this phase. */
  window: { fromUs: number; toUs: number };
  note?: string;
}

/** The monotonic clock in µs: the clock of a V8 CPU profile's timestamps, in every process of the machine. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

function run(call: Call, connections: number, durationS: number): Promise<autocannon.Result> {
  let i = 0;
  const request: autocannon.Request = {
    method: 'GET',
    path: '/',
    setupRequest: (req) => {
      const r = call.request(i++);
      // A copy of the headers: autocannon adds Content-Length to the object it is given.
      return {
        ...req,
        method: r.method as autocannon.Request['method'],
        path: r.path,
        headers: { ...r.headers },
        body: r.body,
      };
    },
  };
  return new Promise((resolveRun, reject) => {
    const instance = autocannon(
      { url: call.origin, connections, duration: durationS, timeout: 10, requests: [request] },
      (err: unknown, result: autocannon.Result) => (err ? reject(err) : resolveRun(result)),
    );
    if (call.remaining) {
      // Out of fresh applications: stop early rather than count refusals.
      const watch = setInterval(() => {
        if (call.remaining!() <= 0) instance.stop();
      }, 20);
      instance.on('done', () => clearInterval(watch));
    }
  });
}

export async function runSaturation(call: Call, pid: number, options: SaturationOptions): Promise<SaturationResult> {
  if (options.warmupS > 0) await run(call, options.connections, options.warmupS);
  const cpuBefore = cpuUs(pid) ?? NaN;
  const fromUs = monotonicUs();
  const result = await run(call, options.connections, options.durationS);
  const toUs = monotonicUs();
  const cpu = (cpuUs(pid) ?? NaN) - cpuBefore;
  const answered = result['2xx'] + result['3xx'];
  return {
    rps: answered / Math.max(result.duration, 0.001),
    cpuUsPerRequest: answered > 0 ? cpu / answered : NaN,
    answered,
    errors: result.non2xx - result['3xx'] + result.errors + result.timeouts,
    durationS: result.duration,
    window: { fromUs, toUs },
    note:
      call.remaining && call.remaining() <= 0
        ? `ran out of prepared applications after ${result.duration.toFixed(1)} s`
        : undefined,
  };
}
