/**
 * `GET /consents`, the same on both contracts: the consent wording by version, which a credit check
 * names in `consentTextVersion`. Its example is the domain's own answer, from the versioned texts.
 */
import { CONSENT_FIELDS, CONSENT_KINDS, CONSENT_TEXT_VERSIONS, listConsentTexts } from '@loanmatch/domain';
import { dateTime, ref } from './components';
import { operation, type Contract } from './operations';
import type { Schema } from './schema-translation';

export const CONSENTS_TAG = {
  name: 'Consents',
  description: 'The consent wording to show applicants, by version; a credit check names the version it showed.',
};

const strictObject = (properties: Record<string, Schema>, description?: string): Schema => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  ...(description ? { description } : {}),
});

export const CONSENT_SCHEMAS: Record<string, Schema> = {
  ConsentTexts: strictObject({
    currentVersion: {
      type: 'string',
      enum: [...CONSENT_TEXT_VERSIONS],
      description: 'The wording to show applicants now.',
    },
    versions: {
      type: 'array',
      description: 'Every version still accepted in `consentTextVersion`, newest first.',
      items: strictObject({
        version: { type: 'string', enum: [...CONSENT_TEXT_VERSIONS] },
        effectiveFrom: dateTime,
        current: { type: 'boolean' },
        consents: {
          type: 'array',
          items: strictObject(
            {
              consent: { type: 'string', enum: [...CONSENT_KINDS] },
              fields: {
                type: 'array',
                items: { type: 'string', enum: Object.values(CONSENT_FIELDS).flat() },
                description: 'The step-5 fields that give this consent (aliases of one another).',
              },
              text: { type: 'string', description: 'The words to show the applicant, unchanged.' },
            },
            'One consent and its wording.',
          ),
        },
      }),
    },
  }),
};

export function consentPaths(contract: Contract): Record<string, Schema> {
  const texts = listConsentTexts();
  return {
    '/consents': {
      get: operation(
        {
          operationId: 'listConsentTexts',
          summary: 'The consent wording, by version',
          description:
            'Show the current texts to the applicant, and send the version shown as `consentTextVersion` with the credit check (with `consentCapturedAt`, when the applicant agreed, and your own `consentReference`). Each check stores a consent record that lenders can rely on; a version not listed here is 400 `VALIDATION_ERROR`. Published wording never changes: new wording is a new version, and earlier versions stay accepted.',
          tags: ['Consents'],
          success: {
            status: 200,
            description: 'The wording, newest version first.',
            data: ref('ConsentTexts'),
            examples: texts.ok ? { default: texts.value } : undefined,
          },
        },
        contract,
      ),
    },
  };
}
