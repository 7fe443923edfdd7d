/**
 * `Idempotency-Key`: a request runs at most once per partner and key. A refusal releases the key; an
 * unexpected failure or a dead process leaves it unresolved.
 */
import {
  claimKey,
  markUnresolved,
  releaseKey,
  type IdempotencyRow,
  type Json,
  type KeyCompletion,
} from '@loanmatch/db';
import { cleanUp } from './cleanup';
import type { DomainContext } from './context';
import { fail, invalid, ok, violation, type Result } from './errors';
import { HEADER_SCHEMAS } from './validation/requests';
import { stringCheck } from './validation/validate';

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY = HEADER_SCHEMAS.idempotencyKey;
const isKey = stringCheck(KEY);

interface IdempotencyScope {
  partnerId: string;
  idempotencyKey: string | undefined;
  required: boolean;
  /** What makes two requests "the same": operation, target, body and headers. */
  request: { operation: string; target?: string; body: unknown; headers?: Record<string, string | undefined> };
}

export interface Replayable<T> {
  value: T;
  replayed: boolean;
}

/** The key's completion, written by the operation with its own change so both commit together; undefined without a key. */
export type Seal<T> = (value: T) => KeyCompletion | undefined;

export function checkIdempotencyKey(key: string | undefined, required: boolean): Result<void> {
  if (key === undefined)
    return required
      ? invalid(violation('Idempotency-Key', 'required', 'is required for this operation'))
      : ok(undefined);
  if (isKey(key)) return ok(undefined);
  const text = `must be ${KEY.minLength} to ${KEY.maxLength} printable ASCII characters without spaces`;
  return invalid(violation('Idempotency-Key', 'format', text));
}

export async function withIdempotency<T extends Json>(
  ctx: DomainContext,
  scope: IdempotencyScope,
  operation: (seal: Seal<T>) => Promise<Result<T>>,
): Promise<Result<Replayable<T>>> {
  const keyCheck = checkIdempotencyKey(scope.idempotencyKey, scope.required);
  if (!keyCheck.ok) return keyCheck;
  if (scope.idempotencyKey === undefined) {
    const result = await operation(() => undefined);
    return result.ok ? ok({ value: result.value, replayed: false }) : result;
  }
  const id = { partnerId: scope.partnerId, key: scope.idempotencyKey };
  const now = ctx.clock();
  // Identified by a keyed digest under the data key: a credit check's request holds step 5.
  const request = canonicalJson(scope.request);
  // Held before the row exists: a concurrent request that sees our row must find us alive.
  const release = ctx.instance.hold(claimName(id));
  try {
    const claim = await claimKey(ctx.db, {
      ...id,
      fingerprint: ctx.personalData.digest(request),
      ownerId: ctx.instance.id,
      now,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    });
    if (!claim.claimed) return await answerExisting<T>(ctx, claim.existing, request);
    try {
      const result = await operation((value) => ({ ...id, responseBody: JSON.stringify(value) }));
      if (!result.ok) await releaseKey(ctx.db, id, ctx.instance.id);
      return result.ok ? ok({ value: result.value, replayed: false }) : result;
    } catch (err) {
      await cleanUp(markUnresolved(ctx.db, id, ctx.instance.id));
      throw err;
    }
  } finally {
    release();
  }
}

async function answerExisting<T>(
  ctx: DomainContext,
  row: IdempotencyRow,
  request: string,
): Promise<Result<Replayable<T>>> {
  if (!ctx.personalData.digestMatches(row.fingerprint, request)) return fail('IDEMPOTENCY_KEY_REUSED');
  // The stored text is JSON.stringify's of the first answer: parsed and serialised again, the same bytes.
  if (row.state === 'completed') return ok({ value: JSON.parse(row.responseBody ?? 'null') as T, replayed: true });
  if (row.state === 'in_progress' && (await ctx.instance.isAlive(row.ownerId, claimName(row))))
    return fail('IDEMPOTENCY_IN_PROGRESS');
  if (row.state === 'in_progress') await markUnresolved(ctx.db, row, row.ownerId);
  return fail('IDEMPOTENCY_KEY_UNRESOLVED');
}

function claimName(id: { partnerId: string; key: string }): string {
  return `idem:${id.partnerId}:${id.key}`;
}

class Text {
  constructor(readonly text: string) {}
}

/**
 * The JSON text of `value` with each object's keys sorted and undefined members left out. It walks with a
 * stack of its own, not by recursion, so no depth of nesting can overflow the call stack.
 */
export function canonicalJson(value: unknown): string {
  let out = '';
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next instanceof Text) out += next.text;
    else if (next === null || typeof next !== 'object') out += JSON.stringify(next) ?? 'null';
    else {
      const parts: unknown[] = [];
      if (Array.isArray(next)) {
        for (const [i, item] of next.entries()) parts.push(new Text(i === 0 ? '[' : ','), item);
        parts.push(new Text(next.length === 0 ? '[]' : ']'));
      } else {
        const object = next as Record<string, unknown>;
        const keys = Object.keys(object)
          .sort()
          .filter((k) => object[k] !== undefined);
        for (const [i, k] of keys.entries())
          parts.push(new Text(`${i === 0 ? '{' : ','}${JSON.stringify(k)}:`), object[k]);
        parts.push(new Text(keys.length === 0 ? '{}' : '}'));
      }
      for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]);
    }
  }
  return out;
}
