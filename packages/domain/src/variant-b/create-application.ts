import { randomUUID } from 'node:crypto';
import { insertApplicationB } from '@loanmatch/db';
import { nonEmpty, pick } from '../applications/view';
import type { DomainContext } from '../context';
import { fail, ok } from '../errors';
import { withIdempotency } from '../idempotency';
import { sealApplicantDetails, sealStep } from '../personal-data';
import type { SecretBox } from '../sealing';
import { schemaFor, validateVariantBCreate } from '../validation';
import { layOverConsents } from '../consents';
import { intakeJson, planSteps, splitFlatFields } from './intake';
import { newSecurityToken } from './security-token';
import type { Answer } from '../validation/responses';

export const SECURITY_TOKEN_REPLAY_PURPOSE = 'variant-b/security-token-replay';

export type CreatedApplicationB = Answer<'CreatedApplicationB'>;

/**
 * `POST /v1/applications`: the flat body becomes the application (step 1), the steps it completes, its
 * sealed intake and its security token, in one transaction. A replayable answer keeps the token sealed.
 */
export async function createApplicationB(
  ctx: DomainContext,
  options: { partnerId: string; body: unknown; idempotencyKey: string | undefined; secretBox: SecretBox },
) {
  const request = { operation: 'b.create-application', body: options.body };
  const result = await withIdempotency<CreatedApplicationB>(
    ctx,
    { ...options, required: false, request },
    async (seal) => {
      const valid = validateVariantBCreate(options.body, ctx.clock());
      if (!valid.ok) return valid;
      const { formType, clientTags, ...flat } = valid.value;
      const step1 = pick(flat, Object.keys(schemaFor('personal', 1).properties));
      const given = splitFlatFields(flat);
      const plan = planSteps('personal', { 1: step1 }, {}, given.steps);
      if (!plan.ok) return plan;
      const id = randomUUID();
      const token = newSecurityToken();
      await insertApplicationB(ctx.db, {
        id,
        partnerId: options.partnerId,
        formType,
        step1,
        clientTags: nonEmpty(clientTags),
        securityTokenHash: token.hash,
        steps: plan.value.save.map((s) => ({ step: s.number, ...sealStep(ctx, id, s.number, s.data) })),
        intake: sealApplicantDetails(
          ctx,
          id,
          intakeJson({ applicant: layOverConsents({}, given.applicant), knownSteps: plan.value.knownSteps }),
        ),
        now: ctx.clock(),
        key: seal({ applicationId: id, securityToken: options.secretBox.seal(token.securityToken) }),
      });
      ctx.webhooks.notify();
      return ok({ applicationId: id, securityToken: token.securityToken });
    },
  );
  if (!result.ok || !result.value.replayed) return result;

  const stored = result.value.value;
  const securityToken = options.secretBox.open(stored.securityToken);
  if (securityToken === undefined) {
    const message = `The first request with this Idempotency-Key created application ${stored.applicationId}, but its security token can no longer be shown; create a new application with a new key`;
    return fail('IDEMPOTENCY_KEY_UNRESOLVED', message);
  }
  return ok({ value: { applicationId: stored.applicationId, securityToken }, replayed: true });
}
