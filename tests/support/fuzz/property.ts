/** The fuzzing property: each generated request sent, its answer checked, and what a refusal must leave alone. */
import fc from 'fast-check';
import type { Express } from 'express';
import type { Database } from '@loanmatch/db';
import { checkAnswer, checkPrototypes, prototypeSnapshot, type AnswerExpectations } from './answers';
import { applicationSnapshot } from './stored';
import { describeRequest, sendFuzzRequest, type FuzzRequest, type FuzzResponse } from './request';

/**
 * fast-check's settings for one property. The run counts the tests give are those of `pnpm test:fuzz`;
 * `pnpm test` runs a tenth of them (at least one), so that every property still runs there.
 * `FUZZ_RUNS_FACTOR` scales the counts (`pnpm test:fuzz` sets 1 unless given another: 10 for a long
 * search); `FUZZ_SEED` replays a failure (fast-check prints the seed and path of every failure),
 * otherwise each run draws a new seed.
 */
export function fuzzParameters(numRuns: number): { numRuns: number; seed: number } {
  const factor = Number(process.env.FUZZ_RUNS_FACTOR ?? 0.1);
  const seed =
    process.env.FUZZ_SEED !== undefined
      ? Number(process.env.FUZZ_SEED)
      : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  return { numRuns: Math.max(1, Math.round(numRuns * (Number.isFinite(factor) && factor > 0 ? factor : 1))), seed };
}

/**
 * Sends each generated request and checks its answer (`checkAnswer`), that no prototype was polluted,
 * and that a refused request left its target application unchanged. `onAnswer` lets the test grow its
 * pool of known records from what the requests made. Fails with fast-check's report: the seed and path
 * to replay (`FUZZ_SEED=<seed>`), and the smallest request it found.
 */
export async function assertFuzz(options: {
  app: Express;
  /** The app's database, to see that a refused request changed nothing. */
  db: Database;
  requests: fc.Arbitrary<FuzzRequest>;
  expect: AnswerExpectations;
  numRuns: number;
  onAnswer?: (req: FuzzRequest, res: FuzzResponse) => void;
}): Promise<void> {
  const prototypes = prototypeSnapshot();
  // fast-check prints a counterexample with this method: one short line instead of a 1 MB body.
  const requests = options.requests.map((req) =>
    Object.defineProperty(req, fc.toStringMethod, { value: () => describeRequest(req) }),
  );
  const property = fc.asyncProperty(requests, async (req) => {
    const before = req.target ? await applicationSnapshot(options.db, req.target) : undefined;
    const res = await sendFuzzRequest(options.app, req);
    checkAnswer(req, res, options.expect);
    checkPrototypes(prototypes);
    if (
      req.target &&
      res.status >= 400 &&
      res.status < 500 &&
      (await applicationSnapshot(options.db, req.target)) !== before
    ) {
      throw new Error(
        `a refused request (${res.status} ${res.text.slice(0, 200)}) changed its application\n  request: ${describeRequest(req)}`,
      );
    }
    options.onAnswer?.(req, res);
    if (tally) tally.set(outcome(req, res), (tally.get(outcome(req, res)) ?? 0) + 1);
  });
  await fc.assert(property, fuzzParameters(options.numRuns));
  if (tally)
    console.log(
      [...tally]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, n]) => `${String(n).padStart(5)}  ${key}`)
        .join('\n'),
    );
}

/** `FUZZ_STATS=1` prints how often each route answered each status: to see what the generators reach. */
const tally = process.env.FUZZ_STATS ? new Map<string, number>() : undefined;

function outcome(req: FuzzRequest, res: FuzzResponse): string {
  const route = req.path.split('?')[0].replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ':id');
  const code = res.status >= 400 ? String(/"error":"([A-Z_]+)"/.exec(res.text)?.[1]) : '';
  return `${req.method} ${route.length > 60 ? `${route.slice(0, 60)}…` : route} ${res.status} ${code}`;
}
