/** Small pieces every part of the documents uses: references, common schemas, the success envelope. */
import type { FormType, StepNumber } from '@loanmatch/domain';
import type { Schema } from './schema-translation';

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const paramRef = (name: string): Schema => ({ $ref: `#/components/parameters/${name}` });
export const headerRef = (name: string): Schema => ({ $ref: `#/components/headers/${name}` });
export const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type as string, 'null'] });
export const dateTime: Schema = { type: 'string', format: 'date-time' };
/** Ids are UUIDs, 36 characters written out; a longer or malformed one names nothing (404). */
export const uuid: Schema = { type: 'string', format: 'uuid', maxLength: 36 };

export const LOAN_TYPE_NAMES: Record<FormType, string> = { personal: 'Personal', car: 'Car', home: 'Home' };
/** `PersonalLoanStep2` and so on: the component name of one step table (`Stored…` for its answer). */
export const stepComponent = (formType: FormType, step: StepNumber | 5): string =>
  step === 5 ? 'ApplicantDetails' : `${LOAN_TYPE_NAMES[formType]}LoanStep${step}`;

/** `{success: true, data: <schema>}`. */
export const envelope = (data: Schema): Schema => ({
  type: 'object',
  properties: { success: { const: true }, data },
  required: ['success', 'data'],
});

/** An object of answers: every property required but those named `optional`. */
export const responseObject = (properties: Record<string, Schema>, extra: Schema = {}): Schema => ({
  type: 'object',
  properties,
  required: Object.keys(properties).filter((name) => !(extra.optional as string[] | undefined)?.includes(name)),
  ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'optional')),
});
