/** Hand-written tests that unknown and dangerous keys (__proto__, constructor, prototype) are dropped. */
import { validateApplicantDetails, validateStepData } from '../src/validation';
import { APPLICANT_BASELINE, NOW, expectOk, type Data } from './validation.fixtures';

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
