/**
 * Lenders' API keys, for reporting what became of their referrals: issued by operators, shown once, stored
 * as SHA-256 digests. A key's prefix names its environment (`lm_lender_sandbox_…`): a server refuses a key
 * of the other one, and a key reports only on referrals of partners of its own.
 */
import { randomUUID } from 'node:crypto';
import {
  findActiveLenderKey,
  findLender,
  insertLenderKey,
  listLendersWithKeys,
  type LenderKeyRow,
} from '@loanmatch/db';
import type { DomainContext, Environment } from '../context';
import { fail, invalid, objectBody, ok, violation } from '../errors';
import { authenticateKey, newApiKey } from '../keys';

const ENVIRONMENTS: readonly Environment[] = ['sandbox', 'live'];

export interface AuthenticatedLender {
  lenderId: string;
  keyId: string;
  environment: Environment;
}

const keyView = (k: LenderKeyRow) => ({
  keyId: k.id,
  prefix: k.prefix,
  environment: k.environment,
  createdAt: k.createdAt.toISOString(),
  revokedAt: k.revokedAt?.toISOString() ?? null,
});

/** The lender behind `Authorization: Bearer <lender key>`. */
export async function authenticateLenderKey(ctx: DomainContext, options: { apiKey: string | undefined }) {
  const owner = await authenticateKey(ctx, options.apiKey, true, (hash) => findActiveLenderKey(ctx.db, hash));
  if (!owner.ok) return owner;
  const { lenderId, keyId, environment } = owner.value;
  return ok({ lenderId, keyId, environment: environment as Environment });
}

/**
 * `POST /admin/v1/lenders/{lenderId}/keys`: a new key for a lender of the catalogue, shown this once.
 * `environment` (`sandbox` or `live`) defaults to the server's.
 */
export async function issueLenderKey(ctx: DomainContext, options: { lenderId: string; body: unknown }) {
  const body = objectBody(options.body ?? {});
  if (!body.ok) return body;
  const environment = body.value.environment ?? ctx.env;
  if (!(ENVIRONMENTS as readonly unknown[]).includes(environment))
    return invalid(violation('environment', 'enum', `must be one of ${ENVIRONMENTS.join(', ')}`));
  const lender = /^[a-z0-9-]{1,80}$/.test(options.lenderId) ? await findLender(ctx.db, options.lenderId) : null;
  if (!lender) return fail('NOT_FOUND', 'Lender not found in the catalogue');
  const key = newApiKey(environment as Environment, true);
  const row = await insertLenderKey(ctx.db, {
    id: randomUUID(),
    lenderId: lender.id,
    environment: environment as string,
    keyHash: key.keyHash,
    prefix: key.prefix,
  });
  return ok({ keyId: row.id, apiKey: key.apiKey, lenderId: lender.id, environment: row.environment });
}

/** `GET /admin/v1/lenders`: the catalogue's lenders with their keys (never the keys themselves). */
export async function listLenders(ctx: DomainContext) {
  const rows = await listLendersWithKeys(ctx.db);
  return ok({
    lenders: rows.map((l) => ({ lenderId: l.id, name: l.name, active: l.active, keys: l.keys.map(keyView) })),
  });
}
