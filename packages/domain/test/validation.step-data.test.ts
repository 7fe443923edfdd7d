/** Hand-written tests of step data: the shape and order of violations, and the normalisation of what is sent. */
import vm from 'node:vm';
import {
  FORM_TYPES,
  NUMERIC_STRING_MAX_LENGTH,
  applicantSchema,
  schemaFor,
  validateApplicantDetails,
  validateStepData,
} from '../src/validation';
import { BASELINES, NOW, expectError, expectOk, firstViolation, type Data } from './validation.fixtures';

describe('validateStepData', () => {
  test.each<[string, unknown]>([
    ['null', null],
    ['an array', []],
    ['a string', 'x'],
    ['a number', 5],
  ])('when the data is %s, then it is rejected with "data: must be an object"', (_label, data) => {
    expect(expectError(validateStepData('personal', 1, data)).details).toEqual([
      { field: 'data', rule: 'type', message: 'data: must be an object' },
    ]);
  });

  test('when several fields are wrong, then every violation is listed and the message is the first one', () => {
    const error = expectError(validateStepData('home', 3, { loanAmount: 1, loanTerm: 31, repaymentType: 'balloon' }));
    expect(error.message).toBe('loanAmount: must be between 50000 and 10000000');
    expect(error.details).toEqual([
      { field: 'loanAmount', rule: 'range', message: 'loanAmount: must be between 50000 and 10000000' },
      { field: 'loanTerm', rule: 'range', message: 'loanTerm: must be between 1 and 30' },
      {
        field: 'repaymentType',
        rule: 'enum',
        message: 'repaymentType: must be one of principal_and_interest, interest_only',
      },
      { field: 'settlementTimeframe', rule: 'required', message: 'settlementTimeframe: is required' },
    ]);
  });

  test('when a type error comes before a missing field in the table, then it is reported first', () => {
    // ajv itself reports `required` before the fields' own errors; the table order puts employerName first.
    const error = expectError(validateStepData('personal', 3, { employmentType: 'full_time', employerName: 5 }));
    expect(error.details.map((d) => [d.field, d.rule])).toEqual([
      ['employerName', 'type'],
      ['grossMonthlyIncome', 'required'],
    ]);
  });

  test('when a conditional rule and a plain required field fail, then they are reported in table order', () => {
    const error = expectError(validateStepData('car', 1, { hasFoundCar: 'yes' }));
    expect(error.details.map((d) => d.field)).toEqual(['carLoanPurpose', 'estimatedCarPrice']);
  });

  test('when nested fields are wrong, then they are reported by dotted path in their table order', () => {
    const error = expectError(
      validateStepData('personal', 4, {
        livingSituation: 'renting',
        homeAddressComponents: { postcode: '12345678901', streetNumber: 'x'.repeat(21) },
      }),
    );
    expect(error.details).toEqual([
      {
        field: 'homeAddressComponents.streetNumber',
        rule: 'maxLength',
        message: 'homeAddressComponents.streetNumber: must be at most 20 characters',
      },
      {
        field: 'homeAddressComponents.postcode',
        rule: 'maxLength',
        message: 'homeAddressComponents.postcode: must be at most 10 characters',
      },
    ]);
  });

  test('when a nested enum is wrong, then the message names the nested path and the allowed values', () => {
    expect(
      firstViolation(
        validateStepData('home', 2, { ...BASELINES.home[2], propertyAddressComponents: { state: 'XYZ' } }),
      ),
    ).toEqual({
      field: 'propertyAddressComponents.state',
      rule: 'enum',
      message: 'propertyAddressComponents.state: must be one of NSW, VIC, QLD, WA, SA, TAS, ACT, NT',
    });
  });

  test('when a violation is reported, then it carries exactly field, rule and message', () => {
    for (const violation of expectError(validateStepData('personal', 4, { homeAddress: '', dependents: -1 })).details) {
      expect(Object.keys(violation).sort()).toEqual(['field', 'message', 'rule']);
      expect(violation.message.startsWith(`${violation.field}: `)).toBe(true);
    }
  });

  test('when values are wrong, then no message or detail echoes the submitted value', () => {
    const secret = 'SECRET-7731';
    const results = [
      validateStepData('personal', 2, { loanPurpose: secret, loanTerm: secret, creditScoreEstimate: secret }),
      validateStepData('personal', 4, {
        livingSituation: secret,
        homeAddress: secret.repeat(60),
        homeAddressComponents: { state: secret },
      }),
      validateApplicantDetails(
        {
          data: {
            firstName: secret.repeat(20),
            email: secret,
            mobileNumber: secret.repeat(3),
            dateOfBirth: secret,
            consentCreditCheck: secret,
          },
        },
        NOW,
      ),
    ];
    for (const result of results) expect(JSON.stringify(expectError(result))).not.toContain(secret);
  });

  test('when ajv reports an `if` failure, then it is not listed (only the real violation is)', () => {
    const error = expectError(
      validateStepData('home', 1, { occupancyType: 'investment', loanPurpose: 'construction' }),
    );
    expect(error.details.map((d) => d.rule)).toEqual(['required']);
  });

  describe('numbers sent as strings', () => {
    test('when a decimal is sent as a string, then it is stored as that number', () => {
      expect(
        expectOk(validateStepData('personal', 3, { employmentType: 'casual', grossMonthlyIncome: '4500.75' }))
          .grossMonthlyIncome,
      ).toBe(4500.75);
    });

    test('when leading zeros are sent, then the number they spell is stored', () => {
      expect(expectOk(validateStepData('personal', 1, { loanAmount: '005000' })).loanAmount).toBe(5000);
    });

    test('when a negative number is sent as a string, then it is rejected as out of range, not as a non-number', () => {
      expect(
        firstViolation(validateStepData('personal', 3, { employmentType: 'casual', grossMonthlyIncome: '-1' })).rule,
      ).toBe('range');
    });

    test('when "-0" is sent, then 0 is stored', () => {
      expect(
        Object.is(
          expectOk(validateStepData('personal', 4, { livingSituation: 'renting', dependents: '-0' })).dependents,
          0,
        ),
      ).toBe(true);
    });

    test('when a string is sent for a text field that looks numeric, then it stays a string', () => {
      const value = expectOk(
        validateStepData('personal', 4, {
          livingSituation: 'renting',
          homeAddressComponents: { postcode: '2000', streetNumber: '12' },
        }),
      );
      expect(value.homeAddressComponents).toEqual({ postcode: '2000', streetNumber: '12' });
    });

    test('when a number is sent for a text field, then it is rejected, not converted', () => {
      expect(
        firstViolation(
          validateStepData('personal', 4, { livingSituation: 'renting', homeAddressComponents: { postcode: 2000 } }),
        ),
      ).toEqual({
        field: 'homeAddressComponents.postcode',
        rule: 'type',
        message: 'homeAddressComponents.postcode: must be a string',
      });
    });

    test(`when a numeric string has ${NUMERIC_STRING_MAX_LENGTH} characters, then it is converted; one more is refused naming the field and the limit`, () => {
      const longest = `1000.${'0'.repeat(NUMERIC_STRING_MAX_LENGTH - 5)}`;
      expect(longest).toHaveLength(NUMERIC_STRING_MAX_LENGTH);
      expect(expectOk(validateStepData('personal', 1, { loanAmount: longest })).loanAmount).toBe(1000);
      expect(firstViolation(validateStepData('personal', 1, { loanAmount: `${longest}0` }))).toEqual({
        field: 'loanAmount',
        rule: 'maxLength',
        message: `loanAmount: must be a number, or a numeric string of at most ${NUMERIC_STRING_MAX_LENGTH} characters`,
      });
      // A long string that is no number at all is simply not a number.
      expect(firstViolation(validateStepData('personal', 1, { loanAmount: 'x'.repeat(40) })).message).toBe(
        'loanAmount: must be a number',
      );
    });

    test('when an enum value is sent as a boolean, then it is rejected, never coerced', () => {
      expect(firstViolation(validateStepData('car', 1, { carLoanPurpose: 'new', hasFoundCar: true })).message).toBe(
        'hasFoundCar: must be one of yes, no',
      );
    });
  });

  test('when only the integer fields of the spec are integer-typed, then decimals are refused exactly there', () => {
    const integerFields = new Set<string>();
    for (const formType of FORM_TYPES) {
      for (const step of [1, 2, 3, 4] as const) {
        for (const [name, field] of Object.entries(schemaFor(formType, step).properties))
          if (field.type === 'integer') integerFields.add(name);
      }
    }
    for (const [name, field] of Object.entries(applicantSchema.properties))
      if (field.type === 'integer') integerFields.add(name);
    expect([...integerFields].sort()).toEqual([
      'dependents',
      'employmentMonths',
      'loanTerm',
      'residentialMonths',
      'vehicleYear',
    ]);
  });

  test('when an object made in another realm is sent, then it is still copied and normalised', () => {
    const foreign = vm.runInNewContext('({ loanAmount: "5000", extra: 1 })') as Data;
    expect(expectOk(validateStepData('personal', 1, foreign))).toEqual({ loanAmount: 5000 });
    expect(foreign).toEqual({ loanAmount: '5000', extra: 1 });
  });
});
