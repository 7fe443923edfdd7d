/** `pnpm bench -- [options]`: what to run and for how long. */
import { resolve } from 'node:path';
import { CALLS, type CallName } from './goals';

export interface Options {
  calls: CallName[];
  /** Open model: requests offered per second, warm-up and counted seconds per call. */
  rate: number;
  warmupS: number;
  durationS: number;
  /** Closed loop (saturation): connections, warm-up and counted seconds per call. */
  connections: number;
  saturationWarmupS: number;
  saturationS: number;
  growth: boolean;
  engine: boolean;
  json?: string;
  cpuProfDir?: string;
}

export const USAGE = `pnpm bench [-- options]
  --only ${CALLS.map((c) => c.name).join(',')}   the calls to measure (default: all)
  --rate N          requests offered per second in the open model (default 500)
  --duration S      counted seconds per call in the open model (default 10), after --warmup S (default 3)
  --saturation S    counted seconds per call in the closed loop (default 5, after 2 s of warm-up)
  --connections N   connections of the closed loop (default 32)
  --growth          also the cost as data grows: 10,000 then 1,000,000 applications (several minutes more)
  --no-engine       without the matching engine's timing
  --json FILE       the results as JSON too
  --cpu-prof DIR    the server under --cpu-prof (profile in DIR), and its five largest costs for each call`;

export function parseOptions(argv: string[]): Options {
  const options: Options = {
    calls: CALLS.map((c) => c.name),
    rate: 500,
    warmupS: 3,
    durationS: 10,
    connections: 32,
    saturationWarmupS: 2,
    saturationS: 5,
    growth: false,
    engine: true,
  };
  const args = argv.filter((a) => a !== '--');
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    const number = () => {
      const n = Number(value());
      if (!(n >= 0)) throw new Error(`${arg} needs a number`);
      return n;
    };
    if (arg === '--only') {
      const names = value().split(',');
      const unknown = names.filter((n) => !CALLS.some((c) => c.name === n));
      if (unknown.length)
        throw new Error(
          `--only: unknown call ${unknown.join(', ')}; the calls are ${CALLS.map((c) => c.name).join(', ')}`,
        );
      options.calls = CALLS.map((c) => c.name).filter((n) => names.includes(n));
    } else if (arg === '--rate') options.rate = number();
    else if (arg === '--duration') options.durationS = number();
    else if (arg === '--warmup') options.warmupS = number();
    else if (arg === '--saturation') options.saturationS = number();
    else if (arg === '--connections') options.connections = number();
    else if (arg === '--growth') options.growth = true;
    else if (arg === '--no-engine') options.engine = false;
    else if (arg === '--json') options.json = resolve(value());
    else if (arg === '--cpu-prof') options.cpuProfDir = resolve(value());
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else throw new Error(`unknown option ${arg}\n${USAGE}`);
  }
  if (!(options.rate > 0 && options.durationS > 0 && options.saturationS > 0 && options.connections > 0)) {
    throw new Error('--rate, --duration, --saturation and --connections must be above 0');
  }
  return options;
}
