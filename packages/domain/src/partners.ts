import { randomUUID } from 'node:crypto';
import {
  countPartners,
  findPartner,
  insertApiKey,
  insertFirstPartner,
  insertPartnerWithKey,
  listPartnersWithKeys,
  readTiers,
  revokeLenderKey,
  revokePartnerKey,
  updateTierLimit,
  type ApiKeyRow,
  type KeyOwner,
  type PartnerRow,
  type Sql,
  type TierRow,
} from '@loanmatch/db';
import type { DomainContext, Environment } from './context';
import { fail, invalid, objectBody, ok, violation, type FieldViolation } from './errors';
import { activeKeyByDigest, authenticateKey, forgetKeys, keyEnvironment, keyView, newApiKey } from './keys';
import { freshCopy } from './fresh-copy';
import { canonicalUuid } from './ids';

export const TIERS = ['free', 'standard', 'enterprise'] as const;

const partnerView = (p: PartnerRow & { keys: ApiKeyRow[] }) => ({
  partnerId: p.id,
  name: p.name,
  tier: p.tier,
  environment: p.environment,
  createdAt: p.createdAt.toISOString(),
  keys: p.keys.map(keyView),
});

export async function authenticateApiKey(ctx: DomainContext, options: { apiKey: string | undefined }) {
  const owner = await authenticateKey(ctx, options.apiKey, false, (hash) => activeKeyByDigest(ctx.db, hash));
  return owner.ok ? ok(authenticatedPartner(owner.value)) : owner;
}

export function authenticatedPartner({ partnerId, keyId, name, tier, environment }: KeyOwner) {
  return { partnerId, keyId, name, tier, environment: environment as Environment };
}

export type AuthenticatedPartner = ReturnType<typeof authenticatedPartner>;

export async function createPartner(ctx: DomainContext, options: { body: unknown }) {
  const checked = objectBody(options.body);
  if (!checked.ok) return checked;
  const body = checked.value;
  const violations: FieldViolation[] = [];
  const name = typeof body.name === 'string' ? body.name.trim() : undefined;
  if (body.name === undefined) violations.push(violation('name', 'required', 'is required'));
  else if (!name || name.length > 100)
    violations.push(violation('name', 'length', 'must be a string of 1 to 100 characters'));
  const tier = body.tier ?? 'standard';
  if (!(TIERS as readonly unknown[]).includes(tier))
    violations.push(violation('tier', 'enum', `must be one of ${TIERS.join(', ')}`));
  const environment = keyEnvironment(ctx, body.environment);
  if (typeof environment !== 'string') violations.push(environment);
  if (violations.length || typeof environment !== 'string') return invalid(...violations);

  const key = newApiKey(environment);
  const keyId = randomUUID();
  const partner = await insertPartnerWithKey(
    ctx.db,
    { id: randomUUID(), name: name!, tier: tier as string, environment },
    { id: keyId, keyHash: key.keyHash, prefix: key.prefix },
  );
  return ok({
    partnerId: partner.id,
    name: partner.name,
    apiKey: key.apiKey,
    keyId,
    tier: partner.tier,
    environment: partner.environment,
  });
}

export async function listPartners(ctx: DomainContext) {
  return ok({ partners: (await listPartnersWithKeys(ctx.db)).map(partnerView) });
}

export async function issueApiKey(ctx: DomainContext, options: { partnerId: string }) {
  const partnerId = canonicalUuid(options.partnerId);
  const partner = partnerId ? await findPartner(ctx.db, partnerId) : null;
  if (!partner) return fail('NOT_FOUND', 'Partner not found');
  const key = newApiKey(partner.environment as Environment);
  const row = await insertApiKey(ctx.db, {
    id: randomUUID(),
    partnerId: partner.id,
    keyHash: key.keyHash,
    prefix: key.prefix,
  });
  return ok({ keyId: row.id, apiKey: key.apiKey, partnerId: partner.id });
}

/** `DELETE /admin/v1/keys/{keyId}`: another process refuses a revoked partner key within KEY_CACHE_MS. */
export async function revokeKey(ctx: DomainContext, options: { keyId: string }) {
  const keyId = canonicalUuid(options.keyId);
  const partnerKey = keyId ? await revokePartnerKey(ctx.db, keyId, ctx.clock()) : null;
  if (partnerKey) forgetKeys(ctx.db);
  const row = partnerKey ?? (keyId ? await revokeLenderKey(ctx.db, keyId, ctx.clock()) : null);
  if (!row) return fail('NOT_FOUND', 'Key not found');
  return ok({ keyId: row.id, revokedAt: row.revokedAt!.toISOString() });
}

/** On an empty database, one sandbox partner whose key is printed once, so a newcomer can call the API at once. */
export async function ensureDemoPartner(ctx: DomainContext): Promise<{ partnerId: string; apiKey: string } | null> {
  if ((await countPartners(ctx.db)) > 0) return null;
  const key = newApiKey('sandbox');
  const partnerId = randomUUID();
  const created = await insertFirstPartner(
    ctx.db,
    { id: partnerId, name: 'Demo Partner', tier: 'standard', environment: 'sandbox' },
    { id: randomUUID(), keyHash: key.keyHash, prefix: key.prefix },
  );
  return created ? { partnerId, apiKey: key.apiKey } : null;
}

/** Variant B's hourly request limits by partner tier, changed at run time and cached two seconds per process. */
const TIER_CACHE_MS = 2000;
const REQUESTS_PER_HOUR_MIN = 1;
const REQUESTS_PER_HOUR_MAX = 10_000_000;

const tierView = (row: TierRow) => ({
  tier: row.name,
  requestsPerHour: row.requestsPerHour,
  updatedAt: row.updatedAt.toISOString(),
});
const order = (name: string): number => {
  const index = (TIERS as readonly string[]).indexOf(name);
  return index === -1 ? TIERS.length : index;
};

export async function listTiers(ctx: DomainContext) {
  const rows = await readTiers(ctx.db);
  return ok({ tiers: rows.map(tierView).sort((a, b) => order(a.tier) - order(b.tier)) });
}

export async function setTierLimit(ctx: DomainContext, options: { tier: string; body: unknown }) {
  const body = objectBody(options.body);
  if (!body.ok) return body;
  const perHour = body.value.requestsPerHour;
  if (perHour === undefined) return invalid(violation('requestsPerHour', 'required', 'is required'));
  if (
    !Number.isInteger(perHour) ||
    (perHour as number) < REQUESTS_PER_HOUR_MIN ||
    (perHour as number) > REQUESTS_PER_HOUR_MAX
  ) {
    const text = `must be a whole number between ${REQUESTS_PER_HOUR_MIN} and ${REQUESTS_PER_HOUR_MAX}`;
    return invalid(violation('requestsPerHour', 'range', text));
  }
  const row = await updateTierLimit(ctx.db, options.tier, perHour as number, ctx.clock());
  return row ? ok(tierView(row)) : fail('NOT_FOUND', `Tier not found; the tiers are ${TIERS.join(', ')}`);
}

/**
 * The limits, read again when older than TIER_CACHE_MS; a failed refresh keeps the last ones. A tier
 * missing from the table gets the smallest limit there is.
 */
export function createTierLimits(db: Sql, options: { now?: () => number } = {}) {
  const read = async () => new Map((await readTiers(db)).map((r) => [r.name, r.requestsPerHour]));
  const copy = freshCopy(read, TIER_CACHE_MS, options.now);
  return {
    async perHour(tier: string): Promise<number> {
      const limits = await copy.get();
      return limits.get(tier) ?? Math.min(...limits.values());
    },
  };
}

export type TierLimits = ReturnType<typeof createTierLimits>;
