import type { PrismaClient } from '@loanmatch/db';
import type { CatalogueSource } from './catalogue-store';
import type { CreditBureau } from './credit/bureau';

export type Environment = 'sandbox' | 'live';

/**
 * Everything a use case needs from the outside world, passed in rather than imported, so that tests
 * and every front-end share one domain.
 */
export interface DomainContext {
  readonly db: PrismaClient;
  readonly env: Environment;
  readonly clock: () => Date;
  /** This process, as registered in the instances table. */
  readonly instance: InstanceRegistry;
  readonly bureau: CreditBureau;
  /** The lender catalogue in force. */
  readonly catalogue: CatalogueSource;
  /** Signing and addressing of tracking links. */
  readonly tracking: { readonly secret: Buffer; readonly publicBaseUrl: string; readonly lifetimeMs: number };
}

export interface InstanceRegistry {
  readonly id: string;
  /** Whether the process that owns a claim (an idempotency key, a credit check) is still running. */
  isAlive(ownerId: string, claim: string): Promise<boolean>;
  /** Marks a claim as held by a request running in this process, until the returned function is called. */
  hold(claim: string): () => void;
}
