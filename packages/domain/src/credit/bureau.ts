/** The credit bureau: a score on the Equifax Australia scale (0-1200), or an outage (degraded mode). */
import { createHash } from 'node:crypto';
import { fail, ok, violation, type Result } from '../errors';

export interface BureauRequest {
  applicationId: string;
  applicant: Record<string, unknown>;
  sandboxScore?: SandboxScore;
}

export type BureauAnswer = { available: true; score: number; source: string } | { available: false; source: string };

export interface CreditBureau {
  readonly sandbox: boolean;
  requestScore(request: BureauRequest): Promise<BureauAnswer>;
}

export type SandboxScore = { kind: 'score'; score: number } | { kind: 'unavailable' };

/** Score bands (Equifax Australia's scale; `poor` is the lowest part of its "below average"). */
export const SCORE_BANDS = [
  { band: 'excellent', min: 833 },
  { band: 'very_good', min: 726 },
  { band: 'good', min: 622 },
  { band: 'average', min: 510 },
  { band: 'below_average', min: 300 },
  { band: 'poor', min: 0 },
] as const;

export type ScoreBand = (typeof SCORE_BANDS)[number]['band'];

export function bandOf(score: number): ScoreBand {
  return SCORE_BANDS.find((b) => score >= b.min)!.band;
}

/** A representative score inside each word level's band (see SCORE_BANDS). */
const LEVEL_SCORES: Record<string, number> = {
  excellent: 900,
  very_good: 780,
  good: 670,
  average: 560,
  below_average: 420,
  poor: 250,
};

export const SANDBOX_SCORE_WORDS: readonly string[] = Object.freeze([...Object.keys(LEVEL_SCORES), 'unavailable']);
export const SANDBOX_SCORE_RANGE = Object.freeze({ minimum: 0, maximum: 1200 });

export function parseSandboxScore(raw: string | undefined): Result<SandboxScore | undefined> {
  if (raw === undefined) return ok(undefined);
  if (raw === 'unavailable') return ok({ kind: 'unavailable' });
  if (Object.hasOwn(LEVEL_SCORES, raw)) return ok({ kind: 'score', score: LEVEL_SCORES[raw] });
  if (/^\d{1,4}$/.test(raw) && Number(raw) <= SANDBOX_SCORE_RANGE.maximum)
    return ok({ kind: 'score', score: Number(raw) });
  const rule = 'must be a word level, unavailable, or a whole number between 0 and 1200';
  const message = `X-Sandbox-Score: must be one of ${Object.keys(LEVEL_SCORES).join(', ')}, unavailable, or a whole number between 0 and 1200`;
  return fail('VALIDATION_ERROR', message, [violation('X-Sandbox-Score', 'enum', rule)]);
}

/** Without the header, the same person always gets the same score, people spread over 300-1000. */
export function stableSandboxScore(applicant: Record<string, unknown>): number {
  const identity = [applicant.firstName, applicant.lastName, applicant.dateOfBirth, applicant.email]
    .map((v) =>
      String(v ?? '')
        .trim()
        .toLowerCase(),
    )
    .join('|');
  const n = createHash('sha256').update(identity).digest().readUInt32BE(0);
  return 300 + (n % 701);
}

export function createSandboxBureau(): CreditBureau {
  return {
    sandbox: true,
    async requestScore({ applicant, sandboxScore }: BureauRequest): Promise<BureauAnswer> {
      if (sandboxScore?.kind === 'unavailable') return { available: false, source: 'sandbox' };
      const score = sandboxScore?.kind === 'score' ? sandboxScore.score : stableSandboxScore(applicant);
      return { available: true, score, source: 'sandbox' };
    },
  };
}

/** Live mode without BUREAU_URL: an outage, so every check completes in degraded mode rather than inventing a score. */
export function createUnconfiguredBureau(): CreditBureau {
  return {
    sandbox: false,
    async requestScore(): Promise<BureauAnswer> {
      return { available: false, source: 'unconfigured' };
    },
  };
}
