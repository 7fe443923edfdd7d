/**
 * Variant B (spec 4.6, CONTRACT.md "Variant B details"): the use cases behind the token-exchange
 * front-end. They add only what the contract adds (an API key exchanged for tokens, flat fields, a
 * per-application security token); every rule of the application itself is Variant A's, reached
 * through the same functions, so an application made through B is the same application through A.
 *
 * Variant B is complete on its own: its flat fields (create, then PATCH) are laid over the application
 * as variant-b-intake.ts says (`loanAmount` is step 1; a step whose fields are all valid and complete
 * is saved as Variant A saves it; the rest, with step 5's fields, is kept sealed in the applicant row),
 * its credit check needs no steps 2-4, and its match offers on what is known.
 */
import { randomUUID } from 'node:crypto';
import type { ApplicationRow, Json } from '@loanmatch/db';
import type { DomainContext, Environment } from './context';
import { fail, ok, type Result } from './errors';
import { advanceApplication, insertApplicationWithEvent } from './events';
import { checkIdempotencyKey, withIdempotency, type Replayable } from './idempotency';
import { activeKeyById } from './key-cache';
import { apiKeyEnvironment, digest, digestsEqual, randomSecret } from './keys';
import { authenticateApiKey, type AuthenticatedPartner } from './partners';
import { nonEmpty, runCreditCheck, type ApplicantForCheck, type CreditCheckView } from './applications';
import { matchApplication, type MatchView } from './offers';
import type { SecretBox } from './sealing';
import { PERSONAL_DATA_ERASED_MESSAGE, readApplicantDetails, sealApplicantDetails } from './personal-data';
import {
  FLAT_FIELDS,
  schemaFor,
  validateApplicantDetailsB,
  validateSecurityTokenRequest,
  validateVariantBCreate,
  validateVariantBPatch,
} from './validation';
import { intakeJson, missingFields, planSteps, readIntake, splitFlatFields, type KnownSteps } from './variant-b-intake';
import { canonicalUuid } from './ids';
import { openSteps } from './sealed-fields';

/** Idempotency operations of Variant B, apart from Variant A's so that a key never crosses contracts. */
export const B_OPERATIONS = { create: 'b.create-application', creditCheck: 'b.credit-check' } as const;

/** The purpose a `SecretBox` for stored create answers is made for. */
export const SECURITY_TOKEN_REPLAY_PURPOSE = 'variant-b/security-token-replay';

/** Step 5's identity, fixed at create: what the applicant is checked as (credit-check bodies do not change it). */
const IDENTITY_FIELDS: readonly string[] = ['firstName', 'lastName', 'email', 'mobileNumber'];

export interface CreatedApplicationB extends Json {
  applicationId: string;
  securityToken: string;
}

/** `st_` and 32 random bytes (base64url): shown once, stored as its SHA-256 digest. */
export function newSecurityToken(): { securityToken: string; hash: string } {
  const securityToken = `st_${randomSecret()}`;
  return { securityToken, hash: digest(securityToken) };
}

/** `POST /v1/auth/token`: the partner behind `X-API-Key`. Refusals name the header, never the key. */
export async function authenticateTokenExchange(
  ctx: DomainContext,
  options: { apiKey: string | undefined },
): Promise<Result<AuthenticatedPartner>> {
  if (!options.apiKey || !apiKeyEnvironment(options.apiKey)) {
    return fail(
      'UNAUTHORIZED',
      'A valid API key is required: send X-API-Key: <API key> with the body {"grantType": "api_key"}',
    );
  }
  return authenticateApiKey(ctx, { apiKey: options.apiKey });
}

/**
 * The partner behind a verified access token, on every request: the token names the API key it was
 * exchanged for, and a key revoked since (or a partner of the other environment) ends the token at once.
 */
export async function authenticateTokenSubject(
  ctx: DomainContext,
  options: { partnerId: string; keyId: string },
): Promise<Result<AuthenticatedPartner>> {
  const keyId = canonicalUuid(options.keyId);
  const owner = keyId ? await activeKeyById(ctx.repos, keyId) : null;
  if (!owner || owner.partner.id !== options.partnerId || owner.partner.environment !== ctx.env) {
    return fail(
      'UNAUTHORIZED',
      'The API key this access token was issued for is no longer valid; exchange a valid key at POST /v1/auth/token',
    );
  }
  const { partner } = owner;
  return ok({
    partnerId: partner.id,
    keyId: owner.keyId,
    name: partner.name,
    tier: partner.tier,
    environment: partner.environment as Environment,
  });
}

/**
 * `POST /v1/applications`: validates the flat body with the step tables' own field rules, then makes
 * the application (step 1), its applicant intake and its security token in one transaction.
 *
 * Under an `Idempotency-Key` the answer is stored for replay (24 hours). The security token in it is
 * sealed with `secretBox` (AES-256-GCM, a server key), so the database never holds it in clear; a replay
 * opens it again. A stored answer that can no longer be opened (its key rotated out) is unresolved.
 */
export async function createApplicationB(
  ctx: DomainContext,
  options: { partnerId: string; body: unknown; idempotencyKey: string | undefined; secretBox: SecretBox },
): Promise<Result<Replayable<CreatedApplicationB>>> {
  const keyCheck = checkIdempotencyKey(options.idempotencyKey, false);
  if (!keyCheck.ok) return keyCheck;
  const scope = {
    partnerId: options.partnerId,
    key: options.idempotencyKey,
    request: { operation: B_OPERATIONS.create, body: options.body },
  };
  const result = await withIdempotency<CreatedApplicationB>(ctx, scope, async (seal) => {
    const valid = validateVariantBCreate(options.body, ctx.clock());
    if (!valid.ok) return valid;
    const { formType, clientTags, ...flat } = valid.value;
    const step1 = pick(flat, Object.keys(schemaFor('personal', 1).properties));
    const given = splitFlatFields(flat);
    const plan = planSteps({ 1: step1 }, {}, given.steps);
    if (!plan.ok) return plan;
    const intake = intakeJson({ applicant: given.applicant, knownSteps: plan.value.knownSteps });

    const token = newSecurityToken();
    const applicationId = randomUUID();
    await ctx.repos.transaction(async (tx) => {
      await insertApplicationWithEvent(ctx, tx, {
        id: applicationId,
        partnerId: options.partnerId,
        formType,
        step1,
        securityTokenHash: token.hash,
        clientTags: nonEmpty(clientTags),
      });
      for (const step of plan.value.save)
        await advanceApplication(ctx, tx, { applicationId, to: 'in_progress', lastStep: step.number, step });
      await tx.applicants.insertIntake(applicationId, sealApplicantDetails(ctx, applicationId, intake));
      const key = seal({ applicationId, securityToken: options.secretBox.seal(token.securityToken) });
      if (key) await tx.idempotency.completeKey(key);
    });
    return ok({ applicationId, securityToken: token.securityToken });
  });
  if (!result.ok || !result.value.replayed) return result;

  const stored = result.value.value;
  const securityToken = options.secretBox.open(stored.securityToken);
  if (securityToken === undefined) {
    return fail(
      'IDEMPOTENCY_KEY_UNRESOLVED',
      `The first request with this Idempotency-Key created application ${stored.applicationId}, but its security token can no longer be shown; create a new application with a new key`,
    );
  }
  return ok({ value: { applicationId: stored.applicationId, securityToken }, replayed: true });
}

/**
 * The `securityToken` of a credit check or match body, in the contract's order: an application that
 * is not the partner's is 404; a body without a token 400; a token that is not this application's 403.
 * Compared in constant time, through digests. An application made through Variant A has no token.
 */
export async function verifySecurityToken(
  ctx: DomainContext,
  options: { partnerId: string; applicationId: string; body: unknown },
): Promise<Result<void>> {
  const applicationId = canonicalUuid(options.applicationId);
  const stored = applicationId
    ? await ctx.repos.applications.findSecurityTokenHash(applicationId, options.partnerId)
    : undefined;
  if (stored === undefined) return fail('NOT_FOUND', 'Application not found');
  return checkSecurityToken(stored, options.body);
}

/** The body's `securityToken` against the application's digest (null: it has none), once the application is known to be the partner's. */
function checkSecurityToken(stored: string | null, body: unknown): Result<void> {
  const request = validateSecurityTokenRequest(body);
  if (!request.ok) return request;
  if (stored === null || !digestsEqual(stored, digest(request.value.securityToken))) {
    return fail('INVALID_SECURITY_TOKEN', 'securityToken: is not the security token of this application');
  }
  return ok(undefined);
}

/**
 * `POST /v1/applications/{id}/credit-check`: Variant A's credit check (same order of checks, same
 * one-check rule, same idempotency), once the security token is verified, with no steps 2-4 required.
 * Step 5 is what create and PATCH gave, with the body's step-5 fields (`dateOfBirth`, a consent, …)
 * laid over it; the identity given at create stays. `dateOfBirth` is optional, checked as A checks it.
 */
export async function runCreditCheckB(
  ctx: DomainContext,
  options: {
    partnerId: string;
    applicationId: string;
    body: unknown;
    idempotencyKey: string | undefined;
    sandboxScore: string | undefined;
  },
): Promise<Result<Replayable<CreditCheckView>>> {
  const verified = await verifySecurityToken(ctx, options);
  if (!verified.ok) return verified;
  const { securityToken: _token, ...fields } = options.body as Record<string, unknown>;
  const bodyStep5 = omit(fields, IDENTITY_FIELDS);
  return runCreditCheck(ctx, {
    partnerId: options.partnerId,
    applicationId: options.applicationId,
    // What identifies the request under its key: the body without the token, which never enters a fingerprint.
    body: fields,
    idempotencyKey: options.idempotencyKey,
    sandboxScore: options.sandboxScore,
    operation: B_OPERATIONS.creditCheck,
    requireIdempotencyKey: false,
    requireSteps: false,
    applicant: (kept, app) => applicantForCheckB(kept, app, bodyStep5, ctx.clock()),
  });
}

/** Step 5 from the intake and the body, checked; the row then holds it with the known fields of steps not saved. */
function applicantForCheckB(
  kept: Json | null,
  app: ApplicationRow,
  bodyStep5: Json,
  now: Date,
): Result<ApplicantForCheck> {
  const intake = readIntake(kept);
  const details = validateApplicantDetailsB({ ...intake.applicant, ...bodyStep5 }, now);
  if (!details.ok) return details;
  const knownSteps: KnownSteps = {};
  for (const step of [2, 3, 4] as const)
    if (app.steps[step] === undefined && intake.knownSteps[step]) knownSteps[step] = intake.knownSteps[step];
  return ok({ details: details.value as Json, stored: intakeJson({ applicant: details.value, knownSteps }) });
}

/** What `PATCH /v1/applications/{id}` answers: where the application stands, and what pre-qualified offers still need. */
export interface UpdatedApplicationB extends Json {
  applicationId: string;
  status: string;
  lastStep: number;
  creditCheckComplete: boolean;
  /** Required fields of personal steps 2-4 not given yet (B's names); empty when every rule can be assessed. */
  missingFields: string[];
}

/**
 * `PATCH /v1/applications/{id}`: adds or replaces flat fields of personal steps 2-5 (the security token
 * first, as for B's other calls; then each field by its table's rule). Steps that become complete are
 * saved as Variant A saves them, also after the credit check (the next match uses them); step 5's fields
 * may change until the check, not after (they are what it ran on). Nothing changes on a refusal.
 */
export async function updateApplicationB(
  ctx: DomainContext,
  options: { partnerId: string; applicationId: string; body: unknown },
): Promise<Result<UpdatedApplicationB>> {
  const verified = await verifySecurityToken(ctx, options);
  if (!verified.ok) return verified;
  const valid = validateVariantBPatch(options.body, ctx.clock());
  if (!valid.ok) return valid;
  const given = splitFlatFields(valid.value);
  const applicationId = canonicalUuid(options.applicationId)!;
  return ctx.repos.transaction(async (tx): Promise<Result<UpdatedApplicationB>> => {
    // The intake, then the application: the order a credit check writes them in, so the two cannot deadlock.
    const kept = await readApplicantDetails(ctx, applicationId, { repos: tx, lock: true });
    await tx.applications.lockApplication(applicationId);
    const app = await tx.applications.findApplication(applicationId, options.partnerId);
    if (!app) return fail('NOT_FOUND', 'Application not found');
    if (kept.state === 'erased' || app.personalDataErased)
      return fail('PERSONAL_DATA_ERASED', PERSONAL_DATA_ERASED_MESSAGE);
    const check = app.creditCheck?.status;
    if (check === 'running')
      return fail('CREDIT_CHECK_IN_PROGRESS', 'A credit check for this application is running; retry shortly');
    const changedApplicant = Object.keys(valid.value).filter((field) => FLAT_FIELDS[field]?.step === 5);
    if (check === 'completed' && changedApplicant.length > 0) {
      return fail(
        'CREDIT_CHECK_ALREADY_COMPLETED',
        `${changedApplicant[0]}: the applicant's details cannot change after the credit check, which ran on them`,
      );
    }
    const intake = readIntake(kept.state === 'kept' ? kept.details : null);
    // A saved step that gets fields is saved again whole: its personal fields opened, those of other steps not.
    const saved = openSteps(ctx, app, Object.keys(given.steps).map(Number));
    const plan = planSteps(saved, intake.knownSteps, given.steps);
    if (!plan.ok) return plan;
    const next = intakeJson({
      applicant: { ...intake.applicant, ...given.applicant },
      knownSteps: plan.value.knownSteps,
    });
    if (JSON.stringify(next) !== JSON.stringify(intakeJson(intake)))
      await tx.applicants.writeDetails(applicationId, sealApplicantDetails(ctx, applicationId, next));
    let row: ApplicationRow = app;
    for (const step of plan.value.save)
      row =
        (await advanceApplication(ctx, tx, { applicationId, to: 'in_progress', lastStep: step.number, step })) ?? row;
    return ok(updatedView(row, plan.value.knownSteps));
  });
}

function updatedView(row: ApplicationRow, knownSteps: KnownSteps): UpdatedApplicationB {
  return {
    applicationId: row.id,
    status: row.status,
    lastStep: row.lastStep,
    creditCheckComplete: row.creditCheck?.status === 'completed',
    missingFields: missingFields(row.steps, knownSteps),
  };
}

function pick(source: Record<string, unknown>, keys: readonly string[]): Json {
  const out: Json = {};
  for (const key of keys) if (Object.hasOwn(source, key)) out[key] = source[key];
  return out;
}

const UNSAFE_KEYS = ['__proto__', 'constructor', 'prototype'];

function omit(source: Record<string, unknown>, keys: readonly string[]): Json {
  const out: Json = {};
  for (const key of Object.keys(source)) if (!keys.includes(key) && !UNSAFE_KEYS.includes(key)) out[key] = source[key];
  return out;
}

/** Variant B's match: the application's security token first, then the same match as Variant A (one read for both). */
export async function matchApplicationB(
  ctx: DomainContext,
  options: { partnerId: string; applicationId: string; body: unknown },
): Promise<Result<MatchView>> {
  return matchApplication(ctx, {
    partnerId: options.partnerId,
    applicationId: options.applicationId,
    authorize: (stored) => checkSecurityToken(stored, options.body),
  });
}
