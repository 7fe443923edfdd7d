import type { Transactional } from '@loanmatch/db';
import type { CatalogueSource } from './catalogue-store';
import type { CreditBureau } from './credit/bureau';
import type { SecretBox } from './sealing';
import type { OutcomeType } from './outcomes/lifecycle';

export type Environment = 'sandbox' | 'live';

/**
 * Everything a use case needs from the outside world, passed in rather than imported, so that tests
 * and every front-end share one domain.
 */
export interface DomainContext {
  /** The database: repository functions of `@loanmatch/db` run on it. */
  readonly db: Transactional;
  readonly env: Environment;
  readonly clock: () => Date;
  /** This process, as registered in the instances table. */
  readonly instance: InstanceRegistry;
  readonly bureau: CreditBureau;
  /** The lender catalogue in force. */
  readonly catalogue: CatalogueSource;
  /** Signing and addressing of tracking links. */
  readonly tracking: { readonly secret: Buffer; readonly publicBaseUrl: string; readonly lifetimeMs: number };
  /** Webhooks: sealing of signing secrets, the destination rules, and a nudge to this process's dispatcher. */
  readonly webhooks: WebhookServices;
  /**
   * Seals applicant details at rest (`personal-data.ts`): AES-256-GCM under DATA_KEY (new writes), with
   * DATA_PREVIOUS_KEYS still opening what they sealed.
   */
  readonly personalData: SecretBox;
  /** Told of what happened (checks, matches, referrals, webhook attempts), for metrics; absent, nothing is told. */
  readonly metrics?: DomainObserver;
}

/** How a credit check ended: a bureau score, degraded (no score: the applicant's estimate), or an unexpected error. */
export type CreditCheckOutcome = 'completed' | 'degraded' | 'failed';

/**
 * What one webhook attempt came to: `delivered` (2xx), `retry_scheduled` (failed, another attempt is due),
 * `failed` (failed with no retry left), `disabled` (failed, and the endpoint was disabled), `unrecorded`
 * (the outcome could not be stored; the delivery is sent again after its lease).
 */
export type WebhookAttemptResult = 'delivered' | 'retry_scheduled' | 'failed' | 'disabled' | 'unrecorded';

/**
 * The domain's events as counts, implemented at the edge (`packages/http`, with prom-client) so
 * the domain imports no metrics library. Calls carry outcomes and numbers only: never an id, a score
 * or anything about an applicant. Each is called after the change it reports has committed.
 */
export interface DomainObserver {
  creditCheck(outcome: CreditCheckOutcome): void;
  /** A match run was stored, with this many accepted and near-miss offers. */
  matched(accepted: number, nearMiss: number): void;
  /** A tracking link was followed for the first time: a referral was recorded. */
  referralRecorded(): void;
  /** A lender reported what became of a referral (an event new to it: a replay is not counted). */
  lenderOutcome(type: OutcomeType): void;
  webhookAttempt(result: WebhookAttemptResult, durationMs: number): void;
}

/** Whether an endpoint URL may receive webhooks; `text` is the rule broken, for `url: <text>`. */
export type DestinationCheck = { ok: true; url: string } | { ok: false; rule: string; text: string };

/**
 * What the webhook use cases need from outside the domain (`packages/http` provides it): the domain
 * resolves no names and opens no connections itself.
 */
export interface WebhookServices {
  /** Seals signing secrets for storage, and opens them again to sign. */
  readonly secrets: SecretBox;
  /** The environment's rules for an endpoint: scheme, and the addresses its host resolves to. */
  checkDestination(url: string): Promise<DestinationCheck>;
  /** Called when an event was written, so the dispatcher of this process looks sooner than its next poll. */
  notify(): void;
}

export interface InstanceRegistry {
  readonly id: string;
  /** Whether the process that owns a claim (an idempotency key, a credit check) is still running. */
  isAlive(ownerId: string, claim: string): Promise<boolean>;
  /** Marks a claim as held by a request running in this process, until the returned function is called. */
  hold(claim: string): () => void;
}
