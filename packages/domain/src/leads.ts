/**
 * Leads: a referral as its lender reads it, pulled (`GET /api/lender/v1/leads/{reference}`) or pushed
 * (`lead.created`). Read when answered or sent, so personal data is opened only there; only the offer's
 * lender, with a key of the partner's environment, may read it; never a score or a band. Each one shown is recorded.
 */
import {
  findLead,
  insertDisclosure,
  listDisclosures,
  listLenderLeads,
  type Json,
  type LeadRow,
  type LeadSummaryRow,
  type WebhookOwner,
} from '@loanmatch/db';
import { pick } from './applications/view';
import type { DomainContext } from './context';
import { fail, invalid, ok, violation, type Result } from './errors';
import { canonicalUuid } from './ids';
import type { AuthenticatedLender } from './outcomes/lender-keys';
import { openApplicantDetails, openSteps } from './personal-data';
import { parseTime } from './validation/dates';
import { validateLenderWebhookRequest } from './validation/validators';
import { decodeCursor, pageOf, parsePageLimit } from './validation/page-query';
import { DATE_TIME_TEXT } from './validation/validate';
import { LEAD_APPLICANT_FIELDS, LEAD_OFFER_FIELDS, type Answer } from './validation/responses';
import { readIntake } from './variant-b/intake';
import { registerWebhook } from './webhooks';

/** The event a lender's endpoints receive for each new referral: the lead as `GET` answers it. */
export const LEAD_CREATED_EVENT = 'lead.created';
export const DEFAULT_LEAD_RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

type Lead = Answer<'Lead'>;
type Lender = Pick<AuthenticatedLender, 'lenderId' | 'environment'>;

export const invalidReference = () =>
  invalid(violation('reference', 'format', 'must be the lm_ref of a referral (a UUID)'));
const retentionMs = (ctx: DomainContext) => (ctx.leadRetentionDays ?? DEFAULT_LEAD_RETENTION_DAYS) * DAY_MS;

/** Who was shown which lead. */
const disclosureOf = ({ applicationId, lenderId, reference }: LeadRow) => ({ applicationId, lenderId, reference });

function summary(row: LeadSummaryRow): Answer<'LeadSummary'> {
  return {
    reference: row.reference,
    referralId: row.referralId,
    referredAt: row.referredAt.toISOString(),
    attribution: row.attribution as Lead['attribution'],
    duplicateOf: row.duplicateOf,
    product: { id: row.productId, name: row.productName },
  };
}

/** The lead of a referral, or why it can no longer be shown (erased, or past its retention). */
function leadOf(ctx: DomainContext, row: LeadRow): Result<Lead> {
  if (ctx.clock().getTime() - row.referredAt.getTime() > retentionMs(ctx))
    return fail('LEAD_EXPIRED', `This lead is older than ${retentionMs(ctx) / DAY_MS} days and can no longer be read`);
  const kept = openApplicantDetails(ctx, row.applicationId, row);
  if (row.application.personalDataErased || kept.state === 'erased') return fail('LEAD_ERASED');
  // Variant B keeps the fields of a step not saved yet beside the applicant's: the lead shows them as steps.
  const intake = readIntake(kept.state === 'kept' ? kept.details : null);
  const steps = { ...intake.knownSteps, ...openSteps(ctx, row.application) };
  const offer = row.offer as Answer<'Offer'> | null;
  if (!offer) throw new Error(`the match run of referral ${row.referralId} does not hold its offer`);
  const { certainty, conditions, offerDetails: terms } = offer;
  return ok({
    ...summary(row),
    offer: pick({ ...terms, certainty, conditions }, LEAD_OFFER_FIELDS) as Lead['offer'],
    application: {
      applicationId: row.applicationId,
      formType: row.application.formType as Lead['application']['formType'],
      steps,
    },
    applicant: pick(intake.applicant, LEAD_APPLICANT_FIELDS),
    consent: row.consent,
  });
}

/** `GET /api/lender/v1/leads/{reference}`, recorded as disclosed; another lender's or environment's is 404. */
export async function getLead(ctx: DomainContext, options: { lender: Lender; reference: string }) {
  const reference = canonicalUuid(options.reference);
  if (!reference) return invalidReference();
  const row = await findLead(ctx.db, reference);
  if (!row || row.lenderId !== options.lender.lenderId || row.environment !== options.lender.environment)
    return fail('NOT_FOUND', 'reference: names no lead of this lender');
  const lead = leadOf(ctx, row);
  if (!lead.ok) return lead;
  await insertDisclosure(ctx.db, { ...disclosureOf(row), channel: 'pull', at: ctx.clock() });
  return lead;
}

/** `GET /api/lender/v1/leads?since=&limit=&cursor=`: summaries of leads within retention, newest first. */
export async function listLeads(
  ctx: DomainContext,
  options: { lender: Lender; since?: string; limit?: string; cursor?: string },
) {
  const limit = parsePageLimit(options.limit);
  if (!limit.ok) return limit;
  const oldest = ctx.clock().getTime() - retentionMs(ctx);
  const since = options.since === undefined ? new Date(oldest) : parseTime(options.since);
  if (!since) return invalid(violation('since', 'format', DATE_TIME_TEXT));
  const cursor = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
  if (cursor && !cursor.ok) return cursor;
  const rows = await listLenderLeads(ctx.db, {
    ...options.lender,
    since: new Date(Math.max(oldest, since.getTime())),
    limit: limit.value + 1,
    before: cursor?.value,
  });
  const { page, nextCursor } = pageOf(rows, limit.value, (row) => ({ createdAt: row.referredAt, id: row.referralId }));
  return ok({ leads: page.map(summary), nextCursor });
}

/**
 * The data of a claimed `lead.created` delivery (`{reference}` in the outbox): the lead as it stands, and
 * the disclosure its acknowledgement records; null when it can no longer be shown (the delivery ends): the
 * applicant erased, or every key of the lender in its environment revoked.
 */
export async function leadForDelivery(ctx: DomainContext, data: Json) {
  const row = await findLead(ctx.db, String(data.reference));
  const lead = row?.lenderKeyActive ? leadOf(ctx, row) : null;
  if (!row || !lead?.ok) return null;
  return { data: lead.value, disclosure: disclosureOf(row) };
}

/** `GET /admin/v1/leads/{reference}` (`pnpm ops lead show`): the lead as its lender reads it, not recorded as disclosed. */
export async function showLead(ctx: DomainContext, options: { reference: string }) {
  const reference = canonicalUuid(options.reference);
  const row = reference ? await findLead(ctx.db, reference) : null;
  return row ? leadOf(ctx, row) : fail('NOT_FOUND', 'Lead not found');
}

/** A lender's webhooks are its own in each environment: a sandbox key manages the sandbox's. */
export const lenderWebhookOwner = ({ lenderId, environment }: Lender): WebhookOwner => ({ lenderId, environment });

/** `POST /api/lender/v1/webhooks`: `{url, events?}`, where `events` may name `lead.created` only. */
export async function registerLenderWebhook(ctx: DomainContext, options: { lender: Lender; body: unknown }) {
  const request = validateLenderWebhookRequest(options.body);
  if (!request.ok) return request;
  const body = { url: request.value.url };
  return registerWebhook(ctx, { ...lenderWebhookOwner(options.lender), body, events: [LEAD_CREATED_EVENT] });
}

/** `GET /admin/v1/applications/{id}/disclosures`: every lead of the application shown to a lender, oldest first. */
export async function getApplicationDisclosures(ctx: DomainContext, options: { applicationId: string }) {
  const applicationId = canonicalUuid(options.applicationId);
  const rows = applicationId ? await listDisclosures(ctx.db, applicationId) : null;
  if (!rows) return fail('NOT_FOUND', 'Application not found');
  return ok({ disclosures: rows.map((d) => ({ ...d, at: d.at.toISOString() })) });
}
