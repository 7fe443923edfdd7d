/**
 * One fuzzing suite, the same for every listener: a test database, the listener's set-up, the cases
 * fuzzing once found, the property over the listener's requests, then what the database holds. A
 * listener's `test/fuzz.test.ts` gives only its contract: how to start it, what to send, what must never
 * be answered.
 */
import type fc from 'fast-check';
import type { Express } from 'express';
import { ONE_STORAGE, createTestContext, type TestContext } from '../index';
import type { AnswerExpectations } from './answers';
import { assertFuzz } from './property';
import type { FuzzRequest, FuzzResponse } from './request';

/** A listener ready to be fuzzed, as `FuzzContract.setUp` answers it. */
export interface FuzzListener {
  app: Express;
  /** The property's requests, built when it starts (after the found cases), over the records set-up made. */
  requests: () => fc.Arbitrary<FuzzRequest>;
  expect: AnswerExpectations;
  /** Sees each answer: records a request made can join those later requests aim at. */
  onAnswer?: (req: FuzzRequest, res: FuzzResponse) => void;
  /** What is wrong in the database once the fuzzing is over; empty when all is well. */
  storedProblems: () => Promise<string[]>;
}

export interface FuzzContract {
  /** Named in the suite's title: "<name> under fuzzing, on <storage>". */
  name: string;
  /** Runs of the property (scaled by `FUZZ_RUNS_FACTOR`). */
  runs: number;
  /** Starts the listener on the suite's test context and makes the records the requests aim at. */
  setUp: (t: TestContext) => Promise<FuzzListener>;
  /** The cases fuzzing found, as plain tests, run after set-up and before the property. */
  foundCases?: () => void;
}

export function runFuzzSuite(contract: FuzzContract): void {
  describe(`${contract.name} under fuzzing, on ${ONE_STORAGE}`, () => {
    let t: TestContext;
    let listener: FuzzListener;

    beforeAll(async () => {
      t = await createTestContext(ONE_STORAGE);
      listener = await contract.setUp(t);
    }, 60_000);
    afterAll(() => t.close());

    if (contract.foundCases) describe('cases the fuzzing found, fixed', contract.foundCases);

    it('when any request is sent, then no 5xx, the envelope with a request id, no secret or stack, no prototype change, and a refusal changes nothing', async () => {
      await assertFuzz({
        app: listener.app,
        db: t.db,
        requests: listener.requests(),
        numRuns: contract.runs,
        expect: listener.expect,
        onAnswer: listener.onAnswer,
      });
    }, 120_000);

    it('when the fuzzing is over, then what is stored is valid and nothing is left half-done', async () => {
      expect(await listener.storedProblems()).toEqual([]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });
}
