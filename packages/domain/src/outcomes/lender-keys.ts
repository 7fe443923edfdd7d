/**
 * Lenders' API keys, for reporting what became of their referrals: issued by operators, shown once, stored
 * as SHA-256 digests. A key's prefix names its environment (`lm_lender_sandbox_…`): a server refuses a key
 * of the other one, and a key reports only on referrals of partners of its own.
 */
import { randomUUID } from 'node:crypto';
import { findActiveLenderKey, findLender, insertLenderKey, listLendersWithKeys } from '@loanmatch/db';
import type { DomainContext, Environment } from '../context';
import { fail, invalid, objectBody, ok } from '../errors';
import { authenticateKey, keyEnvironment, keyView, newApiKey } from '../keys';

export interface AuthenticatedLender {
  lenderId: string;
  keyId: string;
  environment: Environment;
}

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
  const environment = keyEnvironment(ctx, body.value.environment);
  if (typeof environment !== 'string') return invalid(environment);
  const lender = /^[a-z0-9-]{1,80}$/.test(options.lenderId) ? await findLender(ctx.db, options.lenderId) : null;
  if (!lender) return fail('NOT_FOUND', 'Lender not found in the catalogue');
  const key = newApiKey(environment, true);
  const row = await insertLenderKey(ctx.db, {
    id: randomUUID(),
    lenderId: lender.id,
    environment,
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
