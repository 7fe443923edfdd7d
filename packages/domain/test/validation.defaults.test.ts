/** Hand-written tests that omitted optional fields are stored with the defaults of the table. */
import { validateStepData, type FormType } from '../src/validation';
import { BASELINES, applicant, expectOk, type Data } from './validation.fixtures';

describe('defaults', () => {
  test.each<[string, FormType, 1 | 2 | 3 | 4, Data]>([
    ['personal step 3', 'personal', 3, { otherIncome: 0 }],
    ['personal step 4', 'personal', 4, { monthlyRent: 0 }],
    ['car step 2', 'car', 2, { tradeInValue: 0, tradeInPayout: 0, depositAmount: 0, balloonPaymentPercent: 0 }],
    ['car step 3', 'car', 3, { otherIncome: 0 }],
    ['car step 4', 'car', 4, { monthlyRent: 0 }],
  ])(
    'when the optional fields of %s are omitted, then the table defaults are stored',
    (_label, formType, step, defaults) => {
      expect(expectOk(validateStepData(formType, step, BASELINES[formType][step]))).toEqual({
        ...BASELINES[formType][step],
        ...defaults,
      });
    },
  );

  test('when a defaulted field is sent, then the sent value is kept', () => {
    expect(
      expectOk(validateStepData('personal', 3, { ...BASELINES.personal[3], otherIncome: '250' })).otherIncome,
    ).toBe(250);
  });

  test('when the marketing consents are omitted in step 5, then both are stored as false', () => {
    expect(expectOk(applicant({}))).toMatchObject({ consentMarketing: false, marketingConsent: false });
  });
});
