/** `GET /referrals`: a partner's referrals, newest first, with what its lender reported and the commission earned. */
import { listPartnerReferrals, type ReferralRow } from '@loanmatch/db';
import type { DomainContext } from './context';
import { ok } from './errors';
import { decodeCursor, pageOf, parsePageLimit } from './validation/page-query';
import type { Answer } from './validation/responses';
import { toDollars } from './outcomes/money';

type ReferralView = Answer<'Referral'>;
type ReferralStatus = NonNullable<ReferralView['outcome']>['status'];

function referralView(r: ReferralRow): ReferralView {
  return {
    referralId: r.id,
    applicationId: r.applicationId,
    offerId: r.offerId,
    lender: { id: r.lenderId, name: r.lenderName },
    product: { id: r.productId, name: r.productName },
    referredAt: r.createdAt.toISOString(),
    clientTags: (r.clientTags as Record<string, string> | null) ?? {},
    outcome:
      r.outcomeStatus === null || r.outcomeAt === null
        ? null
        : {
            status: r.outcomeStatus as ReferralStatus,
            updatedAt: r.outcomeAt.toISOString(),
            fundedAmount: r.fundedAmountCents === null ? null : toDollars(r.fundedAmountCents),
          },
    commission: r.commissionCents === null ? null : { amount: toDollars(r.commissionCents), currency: 'AUD' },
    attribution: r.attribution as ReferralView['attribution'],
  };
}

export async function listReferrals(
  ctx: DomainContext,
  options: { partnerId: string; limit?: string; cursor?: string },
) {
  const parsed = parsePageLimit(options.limit);
  if (!parsed.ok) return parsed;
  const limit = parsed.value;
  const cursor = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
  if (cursor && !cursor.ok) return cursor;
  const before = cursor?.value;
  const rows = await listPartnerReferrals(ctx.db, { partnerId: options.partnerId, limit: limit + 1, before });
  const { page, nextCursor } = pageOf(rows, limit, (row) => row);
  return ok({ referrals: page.map(referralView), nextCursor });
}
