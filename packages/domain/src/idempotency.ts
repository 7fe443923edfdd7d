import { hash } from 'node:crypto';
import type { CompletedKey, IdempotencyRow, Json, KeyCompletion, Repositories } from '@loanmatch/db';
import { cleanUp } from './cleanup';
import type { DomainContext } from './context';
import { fail, ok, type Result } from './errors';
import { HEADER_SCHEMAS, stringCheck } from './validation/schemas';

/** Keys are kept 24 hours (CONTRACT.md). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY = HEADER_SCHEMAS.idempotencyKey;
const isKey = stringCheck(KEY);

export interface IdempotencyScope {
  partnerId: string;
  /** The `Idempotency-Key` header as sent; undefined when absent. */
  key: string | undefined;
  /** What makes two requests "the same": operation, target and body. */
  request: { operation: string; target?: string; body: unknown; headers?: Record<string, string | undefined> };
}

export interface Replayable<T> {
  value: T;
  /** True when this is the stored answer to an earlier request with the same key. */
  replayed: boolean;
}

/**
 * Called by the operation with its answer: the key's completion, which the operation writes with its own
 * change (in its statement or its transaction), so that the outcome and the stored answer commit
 * together. Undefined when the request has no key.
 */
export type Seal<T> = (value: T) => KeyCompletion | undefined;

export function checkIdempotencyKey(key: string | undefined, required: boolean): Result<void> {
  if (key === undefined) {
    return required
      ? fail('VALIDATION_ERROR', 'Idempotency-Key: is required for this operation', [
          { field: 'Idempotency-Key', rule: 'required', message: 'Idempotency-Key: is required for this operation' },
        ])
      : ok(undefined);
  }
  if (!isKey(key)) {
    const message = `Idempotency-Key: must be ${KEY.minLength} to ${KEY.maxLength} printable ASCII characters`;
    return fail('VALIDATION_ERROR', message, [{ field: 'Idempotency-Key', rule: 'format', message }]);
  }
  return ok(undefined);
}

/**
 * Runs `operation` at most once per (partner, key), as spec section 7 lays out: the first answer is
 * replayed; a different request under the key is refused; a concurrent one is told to wait; a refusal
 * (an expected failure) releases the key; an unexpected failure or a dead process leaves it unresolved.
 */
export async function withIdempotency<T extends Json>(
  ctx: DomainContext,
  scope: IdempotencyScope,
  operation: (seal: Seal<T>) => Promise<Result<T>>,
): Promise<Result<Replayable<T>>> {
  if (scope.key === undefined) {
    const result = await operation(() => undefined);
    return result.ok ? ok({ value: result.value, replayed: false }) : result;
  }
  const id = { partnerId: scope.partnerId, key: scope.key };
  const now = ctx.clock();
  const request = canonicalJson(scope.request);
  const fingerprint = ctx.personalData.digest(request);
  // Held before the row exists: a concurrent request that sees our row must find us alive.
  const release = ctx.instance.hold(claimName(id));
  let claim: Awaited<ReturnType<Repositories['idempotency']['insertInProgress']>>;
  try {
    claim = await ctx.repos.idempotency.insertInProgress({
      partnerId: id.partnerId,
      key: id.key,
      fingerprint,
      ownerId: ctx.instance.id,
      now,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    });
  } catch (err) {
    release();
    throw err;
  }
  if (!claim.inserted) {
    release();
    return answerExisting<T>(ctx, claim.existing, request);
  }

  let sealed = false;
  try {
    const result = await operation((value) => {
      sealed = true;
      return { ...id, responseBody: JSON.stringify(value) };
    });
    if (!result.ok) {
      await ctx.repos.idempotency.releaseKey(id, ctx.instance.id);
      return result;
    }
    if (!sealed) await ctx.repos.idempotency.completeKey({ ...id, responseBody: JSON.stringify(result.value) });
    return ok({ value: result.value, replayed: false });
  } catch (err) {
    await cleanUp(ctx.repos.idempotency.markUnresolved(id, ctx.instance.id));
    throw err;
  } finally {
    release();
  }
}

/**
 * `withIdempotency` for an operation whose whole effect is one statement that can also store the key
 * (a create): there is never a key "in progress" to wait on or to leave behind. `planned` is the
 * operation's answer worked out before anything is written, or its refusal. `write(key)` makes the
 * change and stores `key`, completed with that answer, in one statement, and answers false, writing
 * nothing, when the key is already held; the key then answers as in `withIdempotency` (replay, reuse,
 * in progress, unresolved). A refusal also looks at the key first, so a key that is held answers as it
 * did when the key was claimed before validating; a refusal never stores a key.
 */
export async function withIdempotentWrite<T extends Json>(
  ctx: DomainContext,
  scope: IdempotencyScope,
  planned: Result<T>,
  write: (key: CompletedKey | undefined) => Promise<boolean>,
): Promise<Result<Replayable<T>>> {
  if (scope.key === undefined) {
    if (!planned.ok) return planned;
    await write(undefined);
    return ok({ value: planned.value, replayed: false });
  }
  const id = { partnerId: scope.partnerId, key: scope.key };
  const now = ctx.clock();
  const request = canonicalJson(scope.request);
  if (!planned.ok) {
    const existing = await ctx.repos.idempotency.findLiveKey(id, now);
    return existing ? answerExisting<T>(ctx, existing, request) : planned;
  }
  const fingerprint = ctx.personalData.digest(request);
  const key: CompletedKey = {
    partnerId: id.partnerId,
    key: id.key,
    fingerprint,
    ownerId: ctx.instance.id,
    responseBody: JSON.stringify(planned.value),
    now,
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await write(key)) return ok({ value: planned.value, replayed: false });
    const existing = await ctx.repos.idempotency.findLiveKey(id, now);
    if (existing) return answerExisting<T>(ctx, existing, request);
    // Released or expired between the two statements: try again.
  }
  throw new Error('idempotency key contention did not settle');
}

/** `request`: the request's canonical JSON, compared with what the key stored of the first request. */
async function answerExisting<T>(
  ctx: DomainContext,
  row: IdempotencyRow,
  request: string,
): Promise<Result<Replayable<T>>> {
  if (!sameRequest(ctx, row.fingerprint, request)) {
    return fail(
      'IDEMPOTENCY_KEY_REUSED',
      'Idempotency-Key was already used for a different request; use a new key for a new request',
    );
  }
  if (row.state === 'completed') {
    // The stored text is JSON.stringify's of the first answer: parsed and serialised again, the same bytes.
    return ok({ value: JSON.parse(row.responseBody ?? 'null') as T, replayed: true });
  }
  if (row.state === 'in_progress' && (await ctx.instance.isAlive(row.ownerId, claimName(row)))) {
    return fail(
      'IDEMPOTENCY_IN_PROGRESS',
      'The first request with this Idempotency-Key is still running; retry shortly',
    );
  }
  if (row.state === 'in_progress') await ctx.repos.idempotency.markUnresolved(row, row.ownerId);
  return fail(
    'IDEMPOTENCY_KEY_UNRESOLVED',
    'The first request with this Idempotency-Key may have partly completed; check the application before retrying with a new key',
  );
}

function claimName(id: { partnerId: string; key: string }): string {
  return `idem:${id.partnerId}:${id.key}`;
}

/**
 * What a key stores to identify its request: a keyed digest of the request's canonical JSON under the data
 * key (a credit check's request holds step 5, so no plain digest of it is stored). Exported for tests
 * that plant keys.
 */
export function requestFingerprint(ctx: DomainContext, request: IdempotencyScope['request']): string {
  return ctx.personalData.digest(canonicalJson(request));
}

/** A plain SHA-256 (hex): how fingerprints were stored before they were keyed; such keys live 24 hours at most. */
const LEGACY_FINGERPRINT = /^[0-9a-f]{64}$/;

function sameRequest(ctx: DomainContext, stored: string, request: string): boolean {
  return LEGACY_FINGERPRINT.test(stored)
    ? stored === hash('sha256', request, 'hex')
    : ctx.personalData.digestMatches(stored, request);
}

/** JSON with object keys sorted, so that key order does not make two equal requests differ. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}
