/** Lenders' API keys, for reporting what became of their referrals; a key reports only in its own environment. */
import { randomUUID } from 'node:crypto';
import { findActiveLenderKey, findLender, insertLenderKey, listLendersWithKeys } from '@loanmatch/db';
import type { DomainContext, Environment } from '../context';
import { fail, invalid, objectBody, ok, type Answered } from '../errors';
import { authenticateKey, keyEnvironment, keyView, newApiKey } from '../keys';

export async function authenticateLenderKey(ctx: DomainContext, options: { apiKey: string | undefined }) {
  const owner = await authenticateKey(ctx, options.apiKey, true, (hash) => findActiveLenderKey(ctx.db, hash));
  if (!owner.ok) return owner;
  const { lenderId, keyId, environment } = owner.value;
  return ok({ lenderId, keyId, environment: environment as Environment });
}

export type AuthenticatedLender = Answered<typeof authenticateLenderKey>;

/** `POST /admin/v1/lenders/{lenderId}/keys`: shown this once; `environment` defaults to the server's. */
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

export async function listLenders(ctx: DomainContext) {
  const rows = await listLendersWithKeys(ctx.db);
  return ok({
    lenders: rows.map((l) => ({ lenderId: l.id, name: l.name, active: l.active, keys: l.keys.map(keyView) })),
  });
}
