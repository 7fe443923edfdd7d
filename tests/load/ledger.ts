/**
 * What the server acknowledged to the load's clients, and only that: an application exists for each
 * 201 of a create, a credit check for each 200 of a check, a referral for each 302 of a tracking link.
 * At the end the database must hold exactly this, and statuses must follow from what was done.
 */
export type Contract = 'A' | 'B';

export interface AppRecord {
  id: string;
  partnerId: string;
  contract: Contract;
  formType: string;
  /** Steps 2-4 whose PATCH answered 200. */
  stepsSaved: Set<number>;
  /** The acknowledged credit check: the `X-Sandbox-Score` it was sent with (undefined: none sent). */
  check?: { score: string | undefined };
  /** Match calls answered 200 (each is a run of its own). */
  matches: number;
  /** offerId → true for each tracking link that answered 302. */
  referrals: Set<string>;
}

export type Status = 'draft' | 'in_progress' | 'credit_checked' | 'matched' | 'referred';

export class Ledger {
  readonly apps = new Map<string, AppRecord>();
  /** What the scenarios exercised, by name, so the test can show it was not vacuous. */
  readonly exercised = new Map<string, number>();

  note(what: string): void {
    this.exercised.set(what, (this.exercised.get(what) ?? 0) + 1);
  }

  /** Records a 201 of a create; answers false when the id was already known (a replay). */
  created(app: { id: string; partnerId: string; contract: Contract; formType: string }): boolean {
    if (this.apps.has(app.id)) return false;
    this.apps.set(app.id, { ...app, stepsSaved: new Set(), matches: 0, referrals: new Set() });
    return true;
  }

  get(id: string): AppRecord {
    const app = this.apps.get(id);
    if (!app) throw new Error(`application ${id} was never acknowledged`);
    return app;
  }
}

/** The status an application must have after what was acknowledged (statuses only move forward). */
export function expectedStatus(app: AppRecord): Status {
  if (app.referrals.size > 0) return 'referred';
  if (app.matches > 0) return 'matched';
  if (app.check) return 'credit_checked';
  if (app.stepsSaved.size > 0) return 'in_progress';
  return 'draft';
}

/** Every status it passed through, in order: each must have been announced exactly once. */
export function expectedHistory(app: AppRecord): Status[] {
  const order: Status[] = ['draft', 'in_progress', 'credit_checked', 'matched', 'referred'];
  const reached: Record<Status, boolean> = {
    draft: true,
    in_progress: app.stepsSaved.size > 0,
    credit_checked: app.check !== undefined,
    matched: app.matches > 0,
    referred: app.referrals.size > 0,
  };
  return order.filter((s) => reached[s]);
}

export function expectedLastStep(app: AppRecord): number {
  if (app.check) return 5;
  return Math.max(1, ...app.stepsSaved);
}

/** Score bands of the sandbox (docs/adr/0015). */
const LEVEL_BANDS = ['excellent', 'very_good', 'good', 'average', 'below_average', 'poor'];
const BAND_MINIMUMS: Array<[string, number]> = [
  ['excellent', 833],
  ['very_good', 726],
  ['good', 622],
  ['average', 510],
  ['below_average', 300],
  ['poor', 0],
];

/**
 * The stored check a score header must leave: its band (null for an outage) and degraded mode.
 * Without a header the sandbox draws a stable score, so any band will do (`'any'`).
 */
export function expectedCheck(score: string | undefined): { band: string | null | 'any'; degraded: boolean } {
  if (score === undefined) return { band: 'any', degraded: false };
  if (score === 'unavailable') return { band: null, degraded: true };
  if (LEVEL_BANDS.includes(score)) return { band: score, degraded: false };
  const n = Number(score);
  return { band: BAND_MINIMUMS.find(([, min]) => n >= min)![0], degraded: false };
}
