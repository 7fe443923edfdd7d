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

/**
 * Score bands (Equifax Australia's scale; `poor` is the lowest part of its "below average"), each with the
 * representative score inside it that its sandbox word level stands for.
 */
export const SCORE_BANDS = [
  { band: 'excellent', min: 833, sandbox: 900 },
  { band: 'very_good', min: 726, sandbox: 780 },
  { band: 'good', min: 622, sandbox: 670 },
  { band: 'average', min: 510, sandbox: 560 },
  { band: 'below_average', min: 300, sandbox: 420 },
  { band: 'poor', min: 0, sandbox: 250 },
] as const;

export type ScoreBand = (typeof SCORE_BANDS)[number]['band'];

export function bandOf(score: number): ScoreBand {
  return SCORE_BANDS.find((b) => score >= b.min)!.band;
}

export const SANDBOX_SCORE_WORDS: readonly string[] = Object.freeze([...SCORE_BANDS.map((b) => b.band), 'unavailable']);
export const SANDBOX_SCORE_RANGE = Object.freeze({ minimum: 0, maximum: 1200 });

export function parseSandboxScore(raw: string | undefined): Result<SandboxScore | undefined> {
  if (raw === undefined) return ok(undefined);
  if (raw === 'unavailable') return ok({ kind: 'unavailable' });
  const level = SCORE_BANDS.find((b) => b.band === raw);
  if (level) return ok({ kind: 'score', score: level.sandbox });
  if (/^\d{1,4}$/.test(raw) && Number(raw) <= SANDBOX_SCORE_RANGE.maximum)
    return ok({ kind: 'score', score: Number(raw) });
  const rule = `must be one of ${SANDBOX_SCORE_WORDS.join(', ')}, or a whole number between 0 and 1200`;
  return fail('VALIDATION_ERROR', `X-Sandbox-Score: ${rule}`, [violation('X-Sandbox-Score', 'enum', rule)]);
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
