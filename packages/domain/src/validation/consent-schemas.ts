/**
 * The step-5 fields beyond the spec's table that say how the consents were captured, for the consent
 * record (`consents.ts`): the wording's version shown (one of the known versions), when the applicant
 * agreed, and the partner's own reference, an identifier rather than free text. Checked as JSON Schemas
 * where `schemas.ts` spreads them into step 5.
 */
import { CONSENT_TEXT_VERSIONS } from '../consent-texts';

export const CONSENT_CAPTURE_FIELDS = {
  consentTextVersion: { type: 'string', enum: CONSENT_TEXT_VERSIONS },
  consentCapturedAt: { type: 'string', format: 'date-time', maxLength: 40, 'x-notInFuture': 300 },
  consentReference: {
    type: 'string',
    minLength: 1,
    maxLength: 100,
    pattern: '^[A-Za-z0-9._:/-]+$',
    'x-message': { pattern: "must be letters, digits, '.', '_', ':', '/' or '-' only" },
  },
} as const;
