/** Each word the client's SandboxScore type offers (from the documents) is one the sandbox accepts. */
import { parseSandboxScore } from '@loanmatch/domain';
import type { SandboxScore } from '../src';

/** Names listed once: a word the type lacks, or one of its words left out, fails the typecheck. */
const valuesOf = <U extends string>(values: Record<U, true>) => Object.keys(values).sort();

describe('the sandbox scores of the client', () => {
  it('when each word of SandboxScore is sent, then the sandbox accepts it', () => {
    const words = valuesOf<Extract<SandboxScore, string>>({
      excellent: true,
      very_good: true,
      good: true,
      average: true,
      below_average: true,
      poor: true,
      unavailable: true,
    });
    for (const word of [...words, '0', '1200']) expect([word, parseSandboxScore(word).ok]).toEqual([word, true]);
  });
});
