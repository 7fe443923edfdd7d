/**
 * One virtual user's own state (its number, its idempotency keys, its Variant B tokens, the flows it
 * has run) and the answer checks every flow makes: an allowed status, and a replay that repeats the
 * first answer.
 */
import type { Ledger } from './ledger';
import type { Answer, Recorder } from './recorder';
import type { Server, World } from './world';

export class User {
  seq = 0;
  readonly tokens = new Map<string, string>();
  flows = 0;

  constructor(
    readonly world: World,
    readonly n: number,
  ) {}

  get rec(): Recorder {
    return this.world.rec;
  }

  get ledger(): Ledger {
    return this.world.ledger;
  }

  /** This user's server; duplicates go one to each. */
  get home(): Server {
    return this.world.servers[this.n % this.world.servers.length];
  }

  get other(): Server {
    return this.world.servers[(this.n + 1) % this.world.servers.length];
  }

  key(what: string): string {
    return `load-${this.world.runId}-${this.n}-${++this.seq}-${what}`;
  }

  /** True when `answer` has one of the `allowed` statuses; otherwise an anomaly (or an unknown, already recorded). */
  expect(what: string, answer: Answer | undefined, ...allowed: number[]): answer is Answer {
    if (!answer) return false;
    if (allowed.includes(answer.status)) return true;
    this.rec.anomaly(`${what}: expected ${allowed.join(' or ')}`, answer);
    return false;
  }

  /** A replay answers the first answer, byte for byte, marked `Idempotency-Replayed: true`. */
  checkReplay(what: string, first: Answer, again: Answer): void {
    if (again.text !== first.text) this.rec.anomaly(`${what}: the replay differs from the first answer`, again);
    const replayed = [first, again].filter((a) => a.headers.get('idempotency-replayed') === 'true').length;
    if (replayed !== 1)
      this.rec.anomaly(`${what}: ${replayed} of two answers marked Idempotency-Replayed, expected 1`, again);
  }
}
