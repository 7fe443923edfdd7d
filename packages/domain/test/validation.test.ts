/**
 * Hand-written tests of the validation rules that are not a single field's bound: the request
 * wrappers, conditional rules, consent, dates of birth, normalisation, unknown and dangerous keys,
 * defaults, message shape and order, and the compile-once guarantee. Field-by-field bound tests are
 * generated from the schemas in validation.generated.test.ts.
 */
import vm from 'node:vm';
import Ajv from 'ajv';
import {
  FORM_TYPES,
  NUMERIC_STRING_MAX_LENGTH,
  applicantSchema,
  schemaFor,
  validateApplicantDetails,
  validateCreateRequest,
  validateStepData,
  validateStepRequest,
  type FormType,
} from '../src/validation';
import {
  APPLICANT_BASELINE,
  BASELINES,
  NOW,
  expectError,
  expectOk,
  firstViolation,
  type Data,
} from './validation.fixtures';

const applicant = (overrides: Data, now: Date = NOW) =>
  validateApplicantDetails({ data: { ...APPLICANT_BASELINE, ...overrides } }, now);
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

// ---------------------------------------------------------------------------------------------
// POST create
// ---------------------------------------------------------------------------------------------

describe('validateCreateRequest', () => {
  test.each(FORM_TYPES.map((t) => [t]))(
    'when a valid %s body is sent, then the loan type and the step-1 data are returned',
    (formType) => {
      expect(expectOk(validateCreateRequest({ formType, data: BASELINES[formType][1] }))).toEqual({
        formType,
        data: expect.objectContaining(BASELINES[formType][1]),
      });
    },
  );

  test('when the step-1 amount is a numeric string, then the returned data holds a number', () => {
    expect(expectOk(validateCreateRequest({ formType: 'personal', data: { loanAmount: '5000' } }))).toEqual({
      formType: 'personal',
      data: { loanAmount: 5000 },
    });
  });

  test.each<[string, unknown]>([
    ['null', null],
    ['an array', [{ formType: 'personal' }]],
    ['a string', 'personal'],
    ['a number', 5],
    ['undefined', undefined],
  ])('when the body is %s, then it is rejected with "body: must be a JSON object"', (_label, body) => {
    expect(expectError(validateCreateRequest(body)).details).toEqual([
      { field: 'body', rule: 'type', message: 'body: must be a JSON object' },
    ]);
  });

  test('when formType is missing, then it is rejected with "formType: is required"', () => {
    expect(firstViolation(validateCreateRequest({ data: { loanAmount: 5000 } }))).toEqual({
      field: 'formType',
      rule: 'required',
      message: 'formType: is required',
    });
  });

  test.each<[string, unknown]>([
    ['an unknown loan type', 'business'],
    ['a loan type in another case', 'Personal'],
    ['a number', 1],
    ['null', null],
  ])('when formType is %s, then it is rejected with the list of loan types', (_label, formType) => {
    expect(expectError(validateCreateRequest({ formType, data: { loanAmount: 5000 } })).details).toEqual([
      { field: 'formType', rule: 'enum', message: 'formType: must be one of personal, car, home' },
    ]);
  });

  test('when data is missing, then it is rejected with "data: is required"', () => {
    expect(expectError(validateCreateRequest({ formType: 'car' })).details).toEqual([
      { field: 'data', rule: 'required', message: 'data: is required' },
    ]);
  });

  test.each<[string, unknown]>([
    ['an array', [{ loanAmount: 5000 }]],
    ['a string', 'loanAmount=5000'],
    ['null', null],
  ])('when data is %s, then it is rejected with "data: must be an object"', (_label, data) => {
    expect(expectError(validateCreateRequest({ formType: 'personal', data })).details).toEqual([
      { field: 'data', rule: 'type', message: 'data: must be an object' },
    ]);
  });

  test('when both formType and data are wrong, then both are listed and the message is the formType one', () => {
    const error = expectError(validateCreateRequest({ formType: 'boat' }));
    expect(error.message).toBe('formType: must be one of personal, car, home');
    expect(error.details.map((d) => d.field)).toEqual(['formType', 'data']);
  });

  test('when the step-1 data is invalid, then the violations name the data fields without a prefix', () => {
    expect(expectError(validateCreateRequest({ formType: 'personal', data: { loanAmount: 999 } })).details).toEqual([
      { field: 'loanAmount', rule: 'range', message: 'loanAmount: must be between 1000 and 100000' },
    ]);
  });

  test('when personal step-1 data is sent as a home loan, then it is checked against the home table', () => {
    const error = expectError(validateCreateRequest({ formType: 'home', data: { loanAmount: 5000 } }));
    expect(error.details.map((d) => d.field)).toEqual(['occupancyType', 'loanPurpose']);
  });

  test('when the body has fields other than formType and data, then they are ignored', () => {
    expect(expectOk(validateCreateRequest({ formType: 'personal', data: { loanAmount: 5000 }, extra: true }))).toEqual({
      formType: 'personal',
      data: { loanAmount: 5000 },
    });
  });

  test("when a body is validated, then the caller's object is left untouched", () => {
    const body = { formType: 'personal', data: { loanAmount: '5000', unknown: 1 }, extra: true };
    const before = structuredClone(body);
    expectOk(validateCreateRequest(body));
    expect(body).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------
// PATCH step
// ---------------------------------------------------------------------------------------------

describe('validateStepRequest', () => {
  test.each<[unknown, 2 | 3 | 4]>([
    [2, 2],
    [3, 3],
    [4, 4],
    ['2', 2],
    ['3', 3],
    ['4', 4],
  ])('when step is %p, then it is accepted as the number %p and its data is validated', (step, expected) => {
    const value = expectOk(validateStepRequest('personal', { step, data: BASELINES.personal[expected] }));
    expect(value.step).toBe(expected);
    expect(value.data).toEqual(expect.objectContaining(BASELINES.personal[expected]));
  });

  test.each<[string, unknown]>([
    ['1 (sent with create)', 1],
    ['5 (sent with the credit check)', 5],
    ['a fraction', 2.5],
    ['a word', 'two'],
    ['a boolean', true],
    ['null', null],
    ['an empty string', ''],
  ])('when step is %s, then it is rejected with "step: must be one of 2, 3, 4"', (_label, step) => {
    expect(expectError(validateStepRequest('car', { step, data: {} })).details).toEqual([
      { field: 'step', rule: 'enum', message: 'step: must be one of 2, 3, 4' },
    ]);
  });

  test('when step is missing, then it is rejected with "step: is required"', () => {
    expect(firstViolation(validateStepRequest('home', { data: {} }))).toEqual({
      field: 'step',
      rule: 'required',
      message: 'step: is required',
    });
  });

  test('when the body is not an object, then it is rejected with "body: must be a JSON object"', () => {
    expect(firstViolation(validateStepRequest('home', 'step=2'))).toEqual({
      field: 'body',
      rule: 'type',
      message: 'body: must be a JSON object',
    });
  });

  test('when data is not an object, then it is rejected with "data: must be an object"', () => {
    expect(firstViolation(validateStepRequest('home', { step: 2, data: 'x' }))).toEqual({
      field: 'data',
      rule: 'type',
      message: 'data: must be an object',
    });
  });

  test('when the same data is sent for different loan types, then each is checked against its own table', () => {
    const body = { step: 2, data: { loanAmount: 3000, loanTerm: 5 } };
    expect(firstViolation(validateStepRequest('car', body)).message).toBe(
      'loanAmount: must be between 5000 and 200000',
    );
    expect(firstViolation(validateStepRequest('personal', body)).message).toBe('loanPurpose: is required');
    expect(firstViolation(validateStepRequest('home', body)).message).toBe('propertyValue: is required');
  });

  test('when the loan type is not one of ours, then it throws (a programming error, not a request error)', () => {
    expect(() => validateStepRequest('boat' as FormType, { step: 2, data: {} })).toThrow(TypeError);
  });
});

// ---------------------------------------------------------------------------------------------
// Step data: shape of failures, order, normalisation
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Conditional rules
// ---------------------------------------------------------------------------------------------

describe('car step 1 conditional rules', () => {
  const PRICE_REQUIRED = {
    field: 'estimatedCarPrice',
    rule: 'required',
    message: 'estimatedCarPrice: is required when hasFoundCar is yes or carLoanPurpose is refinance',
  };
  const usedCarRequired = (field: string) => ({
    field,
    rule: 'required',
    message: `${field}: is required for a used car when hasFoundCar is yes`,
  });

  test('when hasFoundCar is yes and no price is sent, then estimatedCarPrice is required', () => {
    expect(expectError(validateStepData('car', 1, { carLoanPurpose: 'new', hasFoundCar: 'yes' })).details).toEqual([
      PRICE_REQUIRED,
    ]);
  });

  test('when hasFoundCar is yes and a price is sent, then the step is accepted', () => {
    expectOk(validateStepData('car', 1, { carLoanPurpose: 'new', hasFoundCar: 'yes', estimatedCarPrice: 30000 }));
  });

  test.each(['refinance', 'RefinanceCarLoan'])(
    'when the purpose is %s and no price is sent, then estimatedCarPrice is required',
    (carLoanPurpose) => {
      expect(expectError(validateStepData('car', 1, { carLoanPurpose })).details).toEqual([PRICE_REQUIRED]);
    },
  );

  test.each(['refinance', 'RefinanceCarLoan'])(
    'when the purpose is %s and a price is sent, then the step is accepted',
    (carLoanPurpose) => {
      expectOk(validateStepData('car', 1, { carLoanPurpose, hasFoundCar: 'no', estimatedCarPrice: '12000' }));
    },
  );

  test.each(['new', 'used', 'NewCarPurchase', 'UsedCarPurchase'])(
    'when the purpose is %s and the car is not found yet, then no price, year or sale type is required',
    (carLoanPurpose) => {
      expect(expectOk(validateStepData('car', 1, { carLoanPurpose, hasFoundCar: 'no' }))).toEqual({
        carLoanPurpose,
        hasFoundCar: 'no',
      });
    },
  );

  test('when hasFoundCar is not sent, then no conditional field is required', () => {
    expectOk(validateStepData('car', 1, { carLoanPurpose: 'used' }));
  });

  test.each(['used', 'UsedCarPurchase'])(
    'when a %s car has been found and year and sale type are missing, then both are required',
    (carLoanPurpose) => {
      expect(
        expectError(validateStepData('car', 1, { carLoanPurpose, hasFoundCar: 'yes', estimatedCarPrice: 15000 }))
          .details,
      ).toEqual([usedCarRequired('vehicleYear'), usedCarRequired('usedCarSaleType')]);
    },
  );

  test.each(['used', 'UsedCarPurchase'])(
    'when a %s car has been found with price, year and sale type, then the step is accepted',
    (carLoanPurpose) => {
      expectOk(
        validateStepData('car', 1, {
          carLoanPurpose,
          hasFoundCar: 'yes',
          estimatedCarPrice: 15000,
          vehicleYear: '2015',
          usedCarSaleType: 'private',
        }),
      );
    },
  );

  test('when a found used car lacks price, year and sale type, then all three are listed in table order', () => {
    expect(expectError(validateStepData('car', 1, { carLoanPurpose: 'used', hasFoundCar: 'yes' })).details).toEqual([
      PRICE_REQUIRED,
      usedCarRequired('vehicleYear'),
      usedCarRequired('usedCarSaleType'),
    ]);
  });

  test('when a new car has been found, then year and sale type are not required', () => {
    expectOk(
      validateStepData('car', 1, { carLoanPurpose: 'NewCarPurchase', hasFoundCar: 'yes', estimatedCarPrice: 40000 }),
    );
  });

  test('when a conditional field is sent although not required, then its bounds still apply', () => {
    expect(firstViolation(validateStepData('car', 1, { carLoanPurpose: 'new', vehicleYear: 1989 })).message).toBe(
      'vehicleYear: must be between 1990 and 2027',
    );
  });
});

describe('car step 2 balloon rule', () => {
  const BALLOON = {
    field: 'balloonPaymentPercent',
    rule: 'const',
    message: 'balloonPaymentPercent: must be 0 when loanTerm is 6 or 7',
  };

  test.each<[unknown]>([[6], [7], ['6'], ['7']])(
    'when loanTerm is %p and a balloon is asked for, then it is rejected',
    (loanTerm) => {
      expect(
        expectError(validateStepData('car', 2, { loanAmount: 20000, loanTerm, balloonPaymentPercent: 10 })).details,
      ).toEqual([BALLOON]);
    },
  );

  test.each([6, 7])('when loanTerm is %p and the balloon is 0, then the step is accepted', (loanTerm) => {
    expect(
      expectOk(validateStepData('car', 2, { loanAmount: 20000, loanTerm, balloonPaymentPercent: '0' }))
        .balloonPaymentPercent,
    ).toBe(0);
  });

  test('when loanTerm is 7 and no balloon is sent, then the default 0 is stored', () => {
    expect(expectOk(validateStepData('car', 2, { loanAmount: 20000, loanTerm: 7 })).balloonPaymentPercent).toBe(0);
  });

  test.each([1, 5])('when loanTerm is %p, then a balloon is allowed', (loanTerm) => {
    expect(
      expectOk(validateStepData('car', 2, { loanAmount: 20000, loanTerm, balloonPaymentPercent: 30 }))
        .balloonPaymentPercent,
    ).toBe(30);
  });

  test('when loanTerm is 6 and the balloon is also out of range, then both violations are listed', () => {
    expect(
      expectError(validateStepData('car', 2, { loanAmount: 20000, loanTerm: 6, balloonPaymentPercent: 40 }))
        .details.map((d) => d.rule)
        .sort(),
    ).toEqual(['const', 'range']);
  });
});

describe('home step 1 first home buyer rule', () => {
  test.each(['new_property', 'construction'])(
    'when loanPurpose is %s and isFirstHomeBuyer is missing, then it is required',
    (loanPurpose) => {
      expect(
        expectError(validateStepData('home', 1, { occupancyType: 'owner_occupied', loanPurpose })).details,
      ).toEqual([
        {
          field: 'isFirstHomeBuyer',
          rule: 'required',
          message: 'isFirstHomeBuyer: is required when loanPurpose is new_property or construction',
        },
      ]);
    },
  );

  test.each(['new_property', 'construction'])(
    'when loanPurpose is %s and isFirstHomeBuyer is given, then the step is accepted',
    (loanPurpose) => {
      expectOk(validateStepData('home', 1, { occupancyType: 'owner_occupied', loanPurpose, isFirstHomeBuyer: 'no' }));
    },
  );

  test.each(['refinance', 'equity_release'])(
    'when loanPurpose is %s, then isFirstHomeBuyer is optional',
    (loanPurpose) => {
      expectOk(validateStepData('home', 1, { occupancyType: 'investment', loanPurpose }));
    },
  );
});

// ---------------------------------------------------------------------------------------------
// Unknown and dangerous keys, defaults
// ---------------------------------------------------------------------------------------------

describe('unknown fields', () => {
  test('when unknown fields are sent at top level and nested, then none is stored', () => {
    const value = expectOk(
      validateStepData('personal', 4, {
        livingSituation: 'renting',
        creditScore: 800,
        homeAddressComponents: { suburb: 'Carlton', latitude: -37.8 },
      }),
    );
    expect(value).toEqual({ livingSituation: 'renting', monthlyRent: 0, homeAddressComponents: { suburb: 'Carlton' } });
  });

  test('when "__proto__" is sent at top level and nested, then it is dropped and no prototype is touched', () => {
    const body = JSON.parse(
      '{"livingSituation":"renting","__proto__":{"polluted":true},"homeAddressComponents":{"suburb":"Carlton","__proto__":{"polluted":true}}}',
    ) as unknown;
    const value = expectOk(validateStepData('personal', 4, body));
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(value.homeAddressComponents)).toBe(Object.prototype);
    expect(Object.keys(value)).not.toContain('__proto__');
    expect(Object.keys(value.homeAddressComponents as Data)).toEqual(['suburb']);
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  test('when "constructor" and "prototype" keys are sent, then they are dropped', () => {
    const body = JSON.parse(
      '{"loanAmount":5000,"constructor":{"prototype":{"polluted":true}},"prototype":{"x":1}}',
    ) as unknown;
    const value = expectOk(validateStepData('personal', 1, body));
    expect(value).toEqual({ loanAmount: 5000 });
    expect(value.constructor).toBe(Object);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  test('when "__proto__" is sent in a step-5 body, then it is dropped', () => {
    const body = JSON.parse(
      `{"data":${JSON.stringify(APPLICANT_BASELINE).replace('{', '{"__proto__":{"isAdmin":true},')}}`,
    ) as unknown;
    const value = expectOk(validateApplicantDetails(body, NOW));
    expect(Object.keys(value)).not.toContain('__proto__');
    expect((value as { isAdmin?: unknown }).isAdmin).toBeUndefined();
  });
});

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

// ---------------------------------------------------------------------------------------------
// Step 5
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// The schemas as data
// ---------------------------------------------------------------------------------------------

describe('schemas', () => {
  test.each([3, 4] as const)('when car step %p is asked for, then it is the personal schema itself', (step) => {
    expect(schemaFor('car', step)).toBe(schemaFor('personal', step));
  });

  test('when home step 4 is read, then each of its fields is the personal definition of the same name', () => {
    const personal = { ...schemaFor('personal', 3).properties, ...schemaFor('personal', 4).properties };
    for (const [name, field] of Object.entries(schemaFor('home', 4).properties))
      expect([name, field]).toEqual([name, personal[name]]);
    for (const [name, field] of Object.entries(schemaFor('home', 4).properties)) expect(field).toBe(personal[name]);
  });

  test('when the schemas are handed out, then they are frozen (no caller can change a bound)', () => {
    const schema = schemaFor('personal', 1);
    expect(Object.isFrozen(schema)).toBe(true);
    expect(Object.isFrozen(schema.properties.loanAmount)).toBe(true);
    expect(Object.isFrozen(applicantSchema)).toBe(true);
    expect(() => {
      (schema.properties.loanAmount as { maximum?: number }).maximum = 1e9;
    }).toThrow(TypeError);
  });

  test('when every object schema is walked, then each one drops unknown fields (additionalProperties: false)', () => {
    const objects: unknown[] = [];
    const walk = (s: { type?: string; properties?: Record<string, unknown> }) => {
      if (s.type === 'object' && s.properties) {
        objects.push(s);
        for (const p of Object.values(s.properties)) walk(p as typeof s);
      }
    };
    for (const formType of FORM_TYPES) for (const step of [1, 2, 3, 4] as const) walk(schemaFor(formType, step));
    walk(applicantSchema);
    expect(objects.length).toBeGreaterThan(12);
    for (const s of objects) expect(s).toHaveProperty('additionalProperties', false);
  });

  test('when validating many requests, then no schema is compiled again', () => {
    const compile = jest.spyOn(Ajv.prototype, 'compile');
    const addSchema = jest.spyOn(Ajv.prototype, 'addSchema');
    try {
      for (let i = 0; i < 20; i++) {
        validateCreateRequest({ formType: 'car', data: BASELINES.car[1] });
        validateStepRequest('home', { step: 3, data: { loanAmount: 1 } });
        validateApplicantDetails({ data: APPLICANT_BASELINE }, new Date(Date.UTC(2000 + i, 0, 1)));
      }
      expect(compile).not.toHaveBeenCalled();
      expect(addSchema).not.toHaveBeenCalled();
    } finally {
      compile.mockRestore();
      addSchema.mockRestore();
    }
  });
});
