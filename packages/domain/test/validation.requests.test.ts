/** Hand-written tests of the request wrappers: the POST create body and the PATCH step body. */
import { FORM_TYPES, validateCreateRequest, validateStepRequest, type FormType } from '../src/validation';
import { BASELINES, expectError, expectOk, firstViolation } from './validation.fixtures';

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
