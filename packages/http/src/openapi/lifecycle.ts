/**
 * The referral's life after the click, on both contracts: the referrals list, the referral report and the
 * `referral.outcome_changed` webhook.
 */
import {
  CLIENT_TAG_KEY_MAX_LENGTH,
  CLIENT_TAG_KEY_PATTERN,
  OUTCOME_CHANGED_EVENT,
  REPORT_MAX_DAYS,
  checkCursorText,
  parsePageLimit,
  reportCsv,
  reportGrouping,
  reportWindow,
} from '@loanmatch/domain';
import type { PathGroup } from './document';
import { EXAMPLE_DAY, EXAMPLE_IDS, refusal } from './operations';
import type { Schema } from './schemas';
import type { Events } from './webhook-paths';

const { applicationId, offerId, referralId, at } = EXAMPLE_IDS;
const TAGS = { campaign: 'spring-2026', channel: 'email' };

const REFERRAL_EXAMPLE = {
  referralId,
  applicationId,
  offerId,
  lender: { id: 'harbour-bank', name: 'Harbour Bank' },
  product: { id: 'harbour-personal-fixed', name: 'Fixed Rate Personal Loan' },
  referredAt: at,
  clientTags: TAGS,
  outcome: { status: 'funded', updatedAt: '2026-11-25T01:00:00.000Z', fundedAmount: 15000 },
  commission: { amount: 375, currency: 'AUD' },
  attribution: 'owner',
};
const REPORT_EXAMPLE = {
  rows: [
    {
      group: '2026-11-24',
      referrals: 12,
      started: 7,
      approved: 4,
      declined: 2,
      funded: 2,
      fundedAmount: 27500,
      commission: 612.5,
      duplicates: 1,
    },
  ],
};
const day = (name: string, description: string): Schema => ({
  name,
  in: 'query',
  description,
  schema: { type: 'string', format: 'date', maxLength: 10 },
});

/** `GET /referrals` and `GET /reports/referrals`, the same on both contracts. */
export const REFERRALS: PathGroup = {
  tag: { name: 'Referrals' },
  operations: {
    'GET /referrals': {
      operationId: 'listReferrals',
      summary: 'Referrals of your applicants',
      description:
        'Newest first, in pages; the cursor keeps pages stable while new clicks arrive. Each carries your `clientTags`, what the lender reported (`outcome`), the commission it earned and its `attribution` (`duplicate` when another partner referred the same applicant to the lender first, within its ownership window).',
      parameters: ['Limit', 'Cursor'],
      success: { description: 'A page of referrals.', data: 'ReferralList' },
      examples: { default: { referrals: [REFERRAL_EXAMPLE], nextCursor: null } },
      errors: [refusal(parsePageLimit('500')), refusal(checkCursorText('A'.repeat(101)))],
    },
    'GET /reports/referrals': {
      operationId: 'referralReport',
      summary: 'Your referrals and what became of them, grouped',
      description:
        'Referrals made in the window (whole days, UTC), grouped, with how many the lenders started, approved and declined, the funded loans that stand, their amount, your commission (AUD) and the duplicates among them. ' +
        'JSON by default; with `Accept: text/csv`, CSV with the same columns (amounts with two decimals).',
      parameters: [
        day('from', 'The first day (UTC), included. Default: 29 days before `to`.'),
        day('to', `The last day (UTC), included; at most ${REPORT_MAX_DAYS} days after \`from\`. Default: today.`),
        {
          name: 'groupBy',
          in: 'query',
          description:
            '`day` (the default: every day of the window, zeros included), `lender`, `product`, or `tag:<key>` (the value of one of your `clientTags`).',
          schema: {
            type: 'string',
            pattern: `^(day|lender|product|tag:${CLIENT_TAG_KEY_PATTERN.slice(1, -1)})$`,
            maxLength: 'tag:'.length + CLIENT_TAG_KEY_MAX_LENGTH,
          },
        },
      ],
      success: {
        description: 'The report.',
        data: 'ReferralReport',
        content: { 'text/csv': { schema: { type: 'string' }, example: reportCsv(REPORT_EXAMPLE) } },
      },
      examples: { default: REPORT_EXAMPLE },
      errors: [
        refusal(reportWindow({ from: '2026-11-02', to: '2026-11-01' }, EXAMPLE_DAY)),
        refusal(reportGrouping('week')),
      ],
    },
  },
};

export const LIFECYCLE_EVENTS: Events = {
  [OUTCOME_CHANGED_EVENT]: {
    operationId: 'referralOutcomeChanged',
    summary: "A referral's outcome changed",
    schema: 'ReferralOutcomeChangedEvent',
    data: {
      referralId,
      applicationId,
      lenderId: 'harbour-bank',
      status: 'funded',
      previousStatus: 'approved',
      clientTags: TAGS,
    },
  },
};
