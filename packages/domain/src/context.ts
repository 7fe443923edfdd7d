import type { Json, Transactional } from '@loanmatch/db';
import type { CatalogueSource } from './catalogue-store';
import type { CreditBureau } from './credit/bureau';
import type { ApplicantHashes } from './ownership';
import type { SecretBox } from './sealing';
import type { OutcomeType } from './outcomes/lifecycle';

export const ENVIRONMENTS = ['sandbox', 'live'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** Everything a use case needs from the outside world, passed in so that tests and every front-end share one domain. */
export interface DomainContext {
  readonly db: Transactional;
  readonly env: Environment;
  readonly clock: () => Date;
  readonly instance: InstanceRegistry;
  readonly bureau: CreditBureau;
  readonly catalogue: CatalogueSource;
  readonly tracking: { readonly secret: Buffer; readonly publicBaseUrl: string; readonly lifetimeMs: number };
  readonly webhooks: WebhookServices;
  /** Seals applicant details at rest: DATA_KEY, then DATA_PREVIOUS_KEYS still opening what they sealed. */
  readonly personalData: SecretBox;
  /** Keyed hashes of an applicant's e-mail and mobile number, for lead ownership (`ownership.ts`). */
  readonly applicantHashes: (details: Json) => ApplicantHashes;
  readonly metrics?: DomainObserver;
  /** How long a lead can be read or delivered after its referral: LEAD_RETENTION_DAYS, 30 by default. */
  readonly leadRetentionDays?: number;
}

/** `unrecorded`: the attempt's outcome could not be stored; the delivery is sent again after its lease. */
export type WebhookAttemptResult = 'delivered' | 'retry_scheduled' | 'failed' | 'disabled' | 'unrecorded';

/**
 * The domain's events as counts, implemented at the edge so the domain imports no metrics library. Calls
 * carry outcomes and numbers only, never an id, a score or anything about an applicant, after the change
 * they report has committed.
 */
export interface DomainObserver {
  creditCheck(outcome: 'completed' | 'degraded' | 'failed'): void;
  matched(accepted: number, nearMiss: number): void;
  /** A tracking link was followed for the first time. */
  referralRecorded(): void;
  /** A lender reported an event new to a referral (a replay is not counted). */
  lenderOutcome(type: OutcomeType): void;
  webhookAttempt(result: WebhookAttemptResult, durationMs: number): void;
}

/** Whether an endpoint URL may receive webhooks; `text` is the rule broken, for `url: <text>`. */
export type DestinationCheck = { ok: true; url: string } | { ok: false; rule: string; text: string };

/** What the webhook use cases need from `packages/http`: the domain resolves no names and opens no connections. */
export interface WebhookServices {
  readonly secrets: SecretBox;
  checkDestination(url: string): Promise<DestinationCheck>;
  /** Called when an event was written, so this process's dispatcher looks sooner than its next poll. */
  notify(): void;
}

export interface InstanceRegistry {
  readonly id: string;
  /** Whether the process that owns a claim (an idempotency key, a credit check) is still running. */
  isAlive(ownerId: string, claim: string): Promise<boolean>;
  /** Marks a claim as held by a request running in this process, until the returned function is called. */
  hold(claim: string): () => void;
}
