/** The credit bureau: a score on the Equifax Australia scale (0-1200), or an outage (degraded mode). */
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
