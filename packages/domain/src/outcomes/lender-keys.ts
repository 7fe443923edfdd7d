/**
 * Lenders' API keys, for reporting what became of their referrals: issued by operators, shown once, stored
 * as SHA-256 digests. A key's prefix names its environment (`lm_lender_sandbox_…`): a server refuses a key
 * of the other one, and a key reports only on referrals of partners of its own. Each authentication
 * accepts only its own prefix, so lender and partner keys never stand for each other.
 */
import { randomUUID } from 'node:crypto';
import {
  findActiveLenderKey,
  findLender,
  insertLenderKey,
  listLendersWithKeys,
  revokeLenderKey,
  type LenderKeyRow,
} from '@loanmatch/db';
import type { DomainContext, Environment } from '../context';
import { fail, ok, type Result } from '../errors';
import { canonicalUuid } from '../ids';
import { digest, digestsEqual, randomSecret } from '../keys';
import { revokeApiKey } from '../partners';

const LENDER_KEY_PATTERN = /^lm_lender_(sandbox|live)_[A-Za-z0-9_-]{43}$/;
const ENVIRONMENTS: readonly Environment[] = ['sandbox', 'live'];

export interface AuthenticatedLender {
  lenderId: string;
  keyId: string;
  environment: Environment;
}

export interface LenderView {
  lenderId: string;
  name: string;
  active: boolean;
  keys: Array<{ keyId: string; prefix: string; environment: string; createdAt: string; revokedAt: string | null }>;
}

const keyView = (k: LenderKeyRow) => ({
  keyId: k.id,
  prefix: k.prefix,
  environment: k.environment,
  createdAt: k.createdAt.toISOString(),
  revokedAt: k.revokedAt?.toISOString() ?? null,
});

/** The environment a lender key claims by its prefix, or null for a string that is not one. */
export function lenderKeyEnvironment(candidate: string): Environment | null {
  const match = LENDER_KEY_PATTERN.exec(candidate);
  return match ? (match[1] as Environment) : null;
}

export function newLenderKey(environment: Environment): { apiKey: string; keyHash: string; prefix: string } {
  const apiKey = `lm_lender_${environment}_${randomSecret()}`;
  return { apiKey, keyHash: digest(apiKey), prefix: apiKey.slice(0, `lm_lender_${environment}_`.length + 4) };
}

/**
 * The lender behind `Authorization: Bearer <lender key>`. Every refusal is UNAUTHORIZED, a key of the
 * other environment saying so; the key itself is never echoed. The digest is looked up by its unique
 * index and compared in constant time.
 */
export async function authenticateLenderKey(
  ctx: DomainContext,
  options: { apiKey: string | undefined },
): Promise<Result<AuthenticatedLender>> {
  const { apiKey } = options;
  const claimed = apiKey ? lenderKeyEnvironment(apiKey) : null;
  if (!apiKey || !claimed)
    return fail('UNAUTHORIZED', 'A valid lender key is required: send Authorization: Bearer <lender key>');
  if (claimed !== ctx.env)
    return fail('UNAUTHORIZED', `This is a ${claimed} lender key; this server is the ${ctx.env} environment`);
  const hash = digest(apiKey);
  const owner = await findActiveLenderKey(ctx.db, hash);
  if (!owner || !digestsEqual(owner.keyHash, hash) || owner.environment !== ctx.env)
    return fail('UNAUTHORIZED', 'The lender key is not valid or has been revoked');
  return ok({ lenderId: owner.lenderId, keyId: owner.keyId, environment: owner.environment as Environment });
}

/**
 * `POST /admin/v1/lenders/{lenderId}/keys`: a new key for a lender of the catalogue, shown this once.
 * `environment` (`sandbox` or `live`) defaults to the server's.
 */
export async function issueLenderKey(
  ctx: DomainContext,
  options: { lenderId: string; body: unknown },
): Promise<Result<{ keyId: string; apiKey: string; lenderId: string; environment: string }>> {
  const body = options.body ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const message = 'body: must be a JSON object';
    return fail('VALIDATION_ERROR', message, [{ field: 'body', rule: 'type', message }]);
  }
  const environment = (body as { environment?: unknown }).environment ?? ctx.env;
  if (!(ENVIRONMENTS as readonly unknown[]).includes(environment)) {
    const message = `environment: must be one of ${ENVIRONMENTS.join(', ')}`;
    return fail('VALIDATION_ERROR', message, [{ field: 'environment', rule: 'enum', message }]);
  }
  const lender = /^[a-z0-9-]{1,80}$/.test(options.lenderId) ? await findLender(ctx.db, options.lenderId) : null;
  if (!lender) return fail('NOT_FOUND', 'Lender not found in the catalogue');
  const key = newLenderKey(environment as Environment);
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
export async function listLenders(ctx: DomainContext): Promise<Result<{ lenders: LenderView[] }>> {
  const rows = await listLendersWithKeys(ctx.db);
  return ok({
    lenders: rows.map((l) => ({ lenderId: l.id, name: l.name, active: l.active, keys: l.keys.map(keyView) })),
  });
}

/**
 * `DELETE /admin/v1/keys/{keyId}`: revokes a partner key or a lender key, whichever the id names; a lender
 * key is refused from the next request on.
 */
export async function revokeKey(
  ctx: DomainContext,
  options: { keyId: string },
): Promise<Result<{ keyId: string; revokedAt: string }>> {
  const partnerKey = await revokeApiKey(ctx, options);
  if (partnerKey.ok) return partnerKey;
  const keyId = canonicalUuid(options.keyId);
  const row = keyId ? await revokeLenderKey(ctx.db, keyId, ctx.clock()) : null;
  if (!row) return fail('NOT_FOUND', 'Key not found');
  return ok({ keyId: row.id, revokedAt: row.revokedAt!.toISOString() });
}
