/** Hand-written tests of step 5 (applicant details): the body, e-mail, credit check consent and date of birth. */
import { validateApplicantDetails } from '../src/validation';
import {
  APPLICANT_BASELINE,
  NOW,
  applicant,
  expectError,
  expectOk,
  firstViolation,
  type Data,
} from './validation.fixtures';

const withoutConsent = (overrides: Data = {}) => {
  const { consentCreditCheck: _ignored, ...rest } = APPLICANT_BASELINE;
  return { ...rest, ...overrides };
};

const CONSENT_MISSING = {
  field: 'consentCreditCheck',
  rule: 'consent',
  message:
    'consentCreditCheck: credit check consent is required: one of consentCreditCheck, creditCheckConsent or privacyConsent must be true',
};

describe('validateApplicantDetails', () => {
  test('when a valid body is sent, then the normalised applicant details are returned', () => {
    expect(expectOk(applicant({ extra: 'dropped' }))).toEqual({
      ...APPLICANT_BASELINE,
      consentMarketing: false,
      marketingConsent: false,
    });
  });

  test.each<[string, unknown]>([
    ['null', null],
    ['an array', []],
    ['a string', 'data'],
  ])('when the body is %s, then it is rejected with "body: must be a JSON object"', (_label, body) => {
    expect(firstViolation(validateApplicantDetails(body, NOW))).toEqual({
      field: 'body',
      rule: 'type',
      message: 'body: must be a JSON object',
    });
  });

  test('when data is missing, then it is rejected with "data: is required"', () => {
    expect(firstViolation(validateApplicantDetails({ firstName: 'Jane' }, NOW))).toEqual({
      field: 'data',
      rule: 'required',
      message: 'data: is required',
    });
  });

  test('when data is not an object, then it is rejected with "data: must be an object"', () => {
    expect(firstViolation(validateApplicantDetails({ data: [] }, NOW))).toEqual({
      field: 'data',
      rule: 'type',
      message: 'data: must be an object',
    });
  });

  test.each(['not-an-email', 'jane@', '@example.com', 'jane example@example.com'])(
    'when email is "%s", then it is rejected as not an e-mail address',
    (email) => {
      expect(firstViolation(applicant({ email }))).toEqual({
        field: 'email',
        rule: 'format',
        message: 'email: must be a valid e-mail address',
      });
    },
  );

  test('when an e-mail address has 254 characters, then it passes; 255 (or the 312 once accepted) are refused naming the limit', () => {
    const address = (length: number) => `${'a'.repeat(64)}@${'b'.repeat(length - 65 - 4)}.com`;
    expect(address(254)).toHaveLength(254);
    expect(expectOk(applicant({ email: address(254) })).email).toBe(address(254));
    for (const length of [255, 312])
      expect(firstViolation(applicant({ email: address(length) }))).toEqual({
        field: 'email',
        rule: 'maxLength',
        message: 'email: must be at most 254 characters',
      });
  });

  describe('credit check consent', () => {
    test.each(['consentCreditCheck', 'creditCheckConsent', 'privacyConsent'])(
      'when only %s is true, then consent is given',
      (alias) => {
        expect(expectOk(validateApplicantDetails({ data: withoutConsent({ [alias]: true }) }, NOW))[alias]).toBe(true);
      },
    );

    test('when no consent field is sent, then it is rejected with the consent violation', () => {
      const error = expectError(validateApplicantDetails({ data: withoutConsent() }, NOW));
      expect(error.details).toEqual([CONSENT_MISSING]);
      expect(error.message).toBe(CONSENT_MISSING.message);
    });

    test('when every consent alias is false, then it is rejected with the consent violation', () => {
      const data = withoutConsent({ consentCreditCheck: false, creditCheckConsent: false, privacyConsent: false });
      expect(expectError(validateApplicantDetails({ data }, NOW)).details).toEqual([CONSENT_MISSING]);
    });

    test('when one alias is false and another true, then consent is given', () => {
      expectOk(
        validateApplicantDetails({ data: withoutConsent({ consentCreditCheck: false, privacyConsent: true }) }, NOW),
      );
    });

    test.each(['consentCreditCheck', 'creditCheckConsent', 'privacyConsent'])(
      'when %s is the string "true", then the type is reported first and consent is still missing',
      (alias) => {
        const error = expectError(validateApplicantDetails({ data: withoutConsent({ [alias]: 'true' }) }, NOW));
        expect(error.message).toBe(`${alias}: must be a JSON boolean (true or false)`);
        expect(error.details).toEqual([
          { field: alias, rule: 'type', message: `${alias}: must be a JSON boolean (true or false)` },
          CONSENT_MISSING,
        ]);
      },
    );

    test.each(['consentCreditCheck', 'creditCheckConsent', 'privacyConsent'])(
      'when %s is the number 1, then it is rejected as not a JSON boolean',
      (alias) => {
        const error = expectError(validateApplicantDetails({ data: withoutConsent({ [alias]: 1 }) }, NOW));
        expect(error.message).toBe(`${alias}: must be a JSON boolean (true or false)`);
        expect(error.details).toContainEqual(CONSENT_MISSING);
      },
    );

    test.each(['consentMarketing', 'marketingConsent', 'consentTerms', 'termsConsent'])(
      'when %s is the string "true" although credit consent is given, then it is rejected as not a JSON boolean',
      (field) => {
        expect(expectError(applicant({ [field]: 'true' })).details).toEqual([
          { field, rule: 'type', message: `${field}: must be a JSON boolean (true or false)` },
        ]);
      },
    );

    test('when other fields are wrong and consent is missing, then the consent violation comes last', () => {
      const error = expectError(validateApplicantDetails({ data: withoutConsent({ firstName: '' }) }, NOW));
      expect(error.details.map((d) => d.rule)).toEqual(['minLength', 'consent']);
    });
  });

  describe('dateOfBirth', () => {
    const DATE_FORMAT_VIOLATION = {
      field: 'dateOfBirth',
      rule: 'format',
      message: 'dateOfBirth: must be a real date written YYYY-MM-DD or DD/MM/YYYY',
    };
    const TOO_YOUNG = {
      field: 'dateOfBirth',
      rule: 'minimumAge',
      message: 'dateOfBirth: applicant must be at least 18 years old',
    };

    test.each<[string, string]>([
      ['1990-05-17', '1990-05-17'],
      ['17/05/1990', '1990-05-17'],
      ['01/12/1985', '1985-12-01'],
      ['29/02/2000', '2000-02-29'],
      ['2000-02-29', '2000-02-29'],
    ])('when dateOfBirth is "%s", then it is accepted and stored as %s', (dateOfBirth, stored) => {
      expect(expectOk(applicant({ dateOfBirth })).dateOfBirth).toBe(stored);
    });

    test.each([
      '2001-02-30',
      '31/04/1990',
      '29/02/2001',
      '1900-02-29',
      '1990-13-01',
      '1990-00-10',
      '00/01/1990',
      '1990-01-00',
      '1990-1-5x',
      '1990/05/17',
      '17-05-1990',
      '05/17/1990',
      '17.05.1990',
      '1990-05-17T00:00:00Z',
    ])('when dateOfBirth is "%s", then it is rejected as not a real date in either format', (dateOfBirth) => {
      expect(expectError(applicant({ dateOfBirth })).details).toEqual([DATE_FORMAT_VIOLATION]);
    });

    test('when dateOfBirth is shorter than 8 characters, then the length and the format are both reported', () => {
      expect(expectError(applicant({ dateOfBirth: '1/1/90' })).details.map((d) => d.rule)).toEqual([
        'minLength',
        'format',
      ]);
    });

    test.each<[string, string]>([
      ['2007-06-15', 'ISO'],
      ['15/06/2007', 'DD/MM/YYYY'],
    ])('when the applicant turns 18 today (%s, %s), then they are accepted', (dateOfBirth) => {
      expectOk(applicant({ dateOfBirth }));
    });

    test.each<[string, string]>([
      ['2007-06-16', 'ISO'],
      ['16/06/2007', 'DD/MM/YYYY'],
    ])('when the applicant turns 18 tomorrow (%s, %s), then they are rejected as under 18', (dateOfBirth) => {
      expect(expectError(applicant({ dateOfBirth })).details).toEqual([TOO_YOUNG]);
    });

    test('when the date of birth is in the future, then it is rejected as under 18', () => {
      expect(expectError(applicant({ dateOfBirth: '2030-01-01' })).details).toEqual([TOO_YOUNG]);
    });

    test('when born on 29 February, then the 18th birthday is 1 March in a common year', () => {
      expect(firstViolation(applicant({ dateOfBirth: '2004-02-29' }, new Date('2022-02-28T12:00:00Z')))).toEqual(
        TOO_YOUNG,
      );
      expectOk(applicant({ dateOfBirth: '2004-02-29' }, new Date('2022-03-01T00:00:00Z')));
    });

    test('when `now` is not given, then age is measured against the current date', () => {
      const today = new Date();
      const iso = (years: number) => `${today.getUTCFullYear() - years}-01-01`;
      expectOk(validateApplicantDetails({ data: { ...APPLICANT_BASELINE, dateOfBirth: iso(30) } }));
      expect(
        firstViolation(validateApplicantDetails({ data: { ...APPLICANT_BASELINE, dateOfBirth: iso(10) } })),
      ).toEqual(TOO_YOUNG);
    });

    test('when a call injected `now`, then the next call without it is measured against the current date again', () => {
      const seventeenToday = `${new Date().getUTCFullYear() - 17}-01-01`;
      expectOk(applicant({ dateOfBirth: seventeenToday }, new Date(Date.UTC(new Date().getUTCFullYear() + 5, 0, 1))));
      expect(
        firstViolation(validateApplicantDetails({ data: { ...APPLICANT_BASELINE, dateOfBirth: seventeenToday } })),
      ).toEqual(TOO_YOUNG);
    });
  });
});
