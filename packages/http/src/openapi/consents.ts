/**
 * `GET /consents`, the same on both contracts: the consent wording by version, which a credit check
 * names in `consentTextVersion`. Its example is the domain's own answer, from the versioned texts.
 */
import { listConsentTexts } from '@loanmatch/domain';
import { operation, ref, type Contract, type Schema } from './operations';

export const CONSENTS_TAG = {
  name: 'Consents',
  description: 'The consent wording to show applicants, by version; a credit check names the version it showed.',
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
