/** Hand-written tests of the schemas as data: shared, frozen, closed to unknown fields and compiled only once. */
import Ajv from 'ajv';
import {
  FORM_TYPES,
  applicantSchema,
  schemaFor,
  validateApplicantDetails,
  validateCreateRequest,
  validateStepRequest,
} from '../src/validation';
import { APPLICANT_BASELINE, BASELINES } from './validation.fixtures';

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
