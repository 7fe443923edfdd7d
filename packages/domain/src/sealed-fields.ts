/**
 * Personal data kept beside clear data, sealed like step 5 (`personal-data.ts`): the personal fields of
 * steps 2-4 and the exact bureau score. A step is stored as its other fields in clear, for matching, and
 * its personal fields as one sealed text, opened only by the calls that show them. The score is sealed
 * and never opened: it never leaves the service; its band stays in clear for matching. Each text is bound
 * to its application and place (`<id>:step-<n>`, `<id>:score`), so a text copied elsewhere does not open.
 */
import type { ApplicationRow, Json, SealedColumn, SealedStepNumber } from '@loanmatch/db';
import type { DomainContext } from './context';

/** Fields of steps 1-4 about the person rather than the loan: sealed apart from the step; erasure removes them. */
export const PERSONAL_STEP_FIELDS = [
  'homeAddress',
  'homeAddressComponents',
  'propertyAddress',
  'propertyAddressComponents',
  'employerName',
] as const;

const PERSONAL = new Set<string>(PERSONAL_STEP_FIELDS);

/**
 * A sealed text that no configured key opens for its application: its key was removed before the row
 * was re-encrypted, or the text was altered or moved. Unexpected, so thrown (a 500 with the request id);
 * the message names ids only, never a detail.
 */
export class PersonalDataUnreadable extends Error {
  override readonly name = 'PersonalDataUnreadable';
  constructor(applicationId: string, keyId: string | undefined) {
    super(
      `the personal data of application ${applicationId} cannot be opened: no configured data key has id ${keyId ?? '(none)'} ` +
        '(add the key that sealed them to DATA_PREVIOUS_KEYS), or the stored text was altered',
    );
  }
}

const stepContext = (applicationId: string, step: number): string => `${applicationId}:step-${step}`;
const scoreContext = (applicationId: string): string => `${applicationId}:score`;

/** A step as it is written: its fields in clear without the personal ones, and those sealed (null when it has none). */
export function sealStep(
  ctx: DomainContext,
  applicationId: string,
  step: SealedStepNumber,
  data: Json,
): { data: Json; sealed: string | null } {
  const clear: Json = {};
  const personal: Json = {};
  let any = false;
  for (const [name, value] of Object.entries(data)) {
    if (PERSONAL.has(name)) {
      personal[name] = value;
      any = true;
    } else clear[name] = value;
  }
  return {
    data: clear,
    sealed: any ? ctx.personalData.seal(JSON.stringify(personal), stepContext(applicationId, step)) : null,
  };
}

/**
 * Steps 1-4 as the partner gave them (normalised), their personal fields opened again: of every step,
 * or of `only` those. Keys in the order PostgreSQL's jsonb kept them before these fields were sealed,
 * so an answer is the same, byte for byte, as it was.
 */
export function openSteps(
  ctx: DomainContext,
  row: Pick<ApplicationRow, 'id' | 'steps' | 'sealedSteps'>,
  only?: readonly number[],
): ApplicationRow['steps'] {
  const steps = { ...row.steps };
  for (const step of [2, 3, 4] as const) {
    const sealed = row.sealedSteps[step];
    if (sealed === undefined || (only && !only.includes(step))) continue;
    const plain = ctx.personalData.open(sealed, stepContext(row.id, step));
    if (plain === undefined) throw new PersonalDataUnreadable(row.id, ctx.personalData.keyIdOf(sealed));
    steps[step] = jsonbOrder({ ...steps[step], ...(JSON.parse(plain) as Json) }) as Json;
  }
  return steps;
}

/**
 * jsonb's order of object keys: shorter keys first, then byte by byte; nested objects alike. The keys are
 * the field tables' names, all ASCII, for which length and code units are bytes.
 */
function jsonbOrder(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const keys = Object.keys(value).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const ordered: Json = {};
  for (const key of keys) ordered[key] = jsonbOrder((value as Json)[key]);
  return ordered;
}

/** The exact score as it is kept: sealed, bound to its application. */
export function sealScore(ctx: DomainContext, applicationId: string, score: number): string {
  return ctx.personalData.seal(String(score), scoreContext(applicationId));
}

/** The associated data a column's text is sealed with (for tools that copy rows, such as the bench's fill). */
export function sealedFieldContext(column: SealedColumn, applicationId: string): string {
  return column === 'score' ? scoreContext(applicationId) : stepContext(applicationId, Number(column.slice(4)));
}
