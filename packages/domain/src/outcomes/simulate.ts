/**
 * `POST /admin/v1/sandbox/outcomes`: a sandbox referral's outcome, recorded as its own lender would report
 * it, so reports, webhooks and commission move before any lender reports.
 */
import { randomUUID } from 'node:crypto';
import { findReferralByOfferId } from '@loanmatch/db';
import type { DomainContext } from '../context';
import { fail } from '../errors';
import { canonicalUuid } from '../ids';
import { validateOutcomeEvent } from '../validation';
import { recordValidOutcome } from './record-outcome';

export async function simulateOutcome(ctx: DomainContext, options: { body: unknown }) {
  const given = options.body;
  const body =
    typeof given === 'object' && given !== null && !Array.isArray(given)
      ? {
          eventId: `sim_${randomUUID().replace(/-/g, '')}`,
          occurredAt: ctx.clock().toISOString(),
          ...(given as Record<string, unknown>),
        }
      : given;
  const b = body as Record<string, unknown>;
  if (b?.type === 'funded' && b.fundedAt === undefined) b.fundedAt = b.occurredAt;
  const valid = validateOutcomeEvent(body, ctx.clock());
  if (!valid.ok) return valid;
  const offerId = canonicalUuid(valid.value.reference);
  const referral = offerId ? await findReferralByOfferId(ctx.db, offerId) : null;
  if (referral?.partnerEnvironment !== 'sandbox')
    return fail('NOT_FOUND', 'reference: names no referral of a sandbox partner');
  return recordValidOutcome(ctx, { lenderId: referral.lenderId, keyId: null, environment: 'sandbox' }, valid.value);
}
