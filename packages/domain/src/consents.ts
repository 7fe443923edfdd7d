/** Consent records: proof, for a lender, of what an applicant agreed to, stored by each completed credit check. */
import { randomUUID } from 'node:crypto';
import { listConsentRecords, type CheckCompletion, type ConsentRecordRow, type Json } from '@loanmatch/db';
import { CONSENT_FIELDS, CONSENT_KINDS, CONSENT_TEXTS, CURRENT_CONSENT_TEXTS, type ConsentKind } from './consent-texts';
import type { DomainContext } from './context';
import { fail, ok, type Result } from './errors';
import { canonicalUuid } from './ids';
import type { Answer } from './validation/responses';

/** `GET /consents` on both front-ends: every version of the wording, newest first. */
export function listConsentTexts(): Result<Answer<'ConsentTexts'>> {
  return ok({
    currentVersion: CURRENT_CONSENT_TEXTS.version,
    versions: [...CONSENT_TEXTS].reverse().map((v) => ({
      version: v.version,
      effectiveFrom: v.effectiveFrom,
      current: v === CURRENT_CONSENT_TEXTS,
      consents: CONSENT_KINDS.map((consent) => ({
        consent,
        fields: [...CONSENT_FIELDS[consent]],
        text: v.texts[consent],
      })),
    })),
  });
}

/** The fields that give one consent: the credit check's (with `privacyConsent`, which its rule accepts), marketing's, terms'. */
const CONSENT_GROUPS = [
  [...CONSENT_FIELDS.creditCheck, ...CONSENT_FIELDS.privacy],
  CONSENT_FIELDS.marketing,
  CONSENT_FIELDS.terms,
];

/**
 * Step-5 fields `given` laid over those `stored` (`{}` at create), the latest word counting: a consent
 * withdrawn (`false`) in any of its fields withdraws what its other fields gave, before or beside it.
 */
export function layOverConsents(stored: Record<string, unknown>, given: Record<string, unknown>) {
  const laid = { ...stored, ...given };
  for (const group of CONSENT_GROUPS)
    if (group.some((field) => given[field] === false))
      for (const field of group) if (laid[field] !== false) delete laid[field];
  return laid;
}

export function consentRecordFor(applicant: Json): CheckCompletion['consent'] {
  const given = (kind: ConsentKind) => CONSENT_FIELDS[kind].some((field) => applicant[field] === true);
  const stated = typeof applicant.consentTextVersion === 'string' ? applicant.consentTextVersion : undefined;
  const capturedAt = typeof applicant.consentCapturedAt === 'string' ? new Date(applicant.consentCapturedAt) : null;
  return {
    id: randomUUID(),
    creditCheck: given('creditCheck'),
    privacy: given('privacy'),
    marketing: given('marketing'),
    terms: given('terms'),
    textVersion: stated ?? CURRENT_CONSENT_TEXTS.version,
    textVersionStated: stated !== undefined,
    capturedAt: capturedAt && !Number.isNaN(capturedAt.getTime()) ? capturedAt : null,
    partnerReference: typeof applicant.consentReference === 'string' ? applicant.consentReference : null,
  };
}

export async function getApplicationConsents(ctx: DomainContext, options: { applicationId: string }) {
  const applicationId = canonicalUuid(options.applicationId);
  const rows = applicationId ? await listConsentRecords(ctx.db, applicationId) : null;
  if (!applicationId || !rows) return fail('NOT_FOUND', 'Application not found');
  return ok({ applicationId, consents: rows.map(recordView) });
}

function recordView(row: ConsentRecordRow) {
  const { creditCheck, privacy, marketing, terms } = row;
  const consents = { creditCheck, privacy, marketing, terms };
  const texts = CONSENT_TEXTS.find((v) => v.version === row.textVersion);
  const wording: Partial<Record<ConsentKind, string>> = {};
  for (const kind of CONSENT_KINDS) if (consents[kind] && texts) wording[kind] = texts.texts[kind];
  return {
    consentRecordId: row.id,
    applicationId: row.applicationId,
    partnerId: row.partnerId,
    consents,
    textVersion: row.textVersion,
    textVersionStated: row.textVersionStated,
    capturedAt: row.capturedAt?.toISOString() ?? null,
    recordedAt: row.recordedAt.toISOString(),
    partnerReference: row.partnerReference,
    erasedAt: row.erasedAt?.toISOString() ?? null,
    wording,
  };
}
