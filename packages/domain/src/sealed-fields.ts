/**
 * The personal fields of steps 2-4, sealed as one text beside the step's other fields in clear (for
 * matching), and the exact score, sealed and never opened. Each text is bound to its application and place.
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
 * was re-encrypted, or the text was altered or moved. Thrown (a 500); the message names ids only.
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

export function openSealed(ctx: DomainContext, applicationId: string, sealed: string, context: string): string {
  const plain = ctx.personalData.open(sealed, context);
  if (plain === undefined) throw new PersonalDataUnreadable(applicationId, ctx.personalData.keyIdOf(sealed));
  return plain;
}

const stepContext = (applicationId: string, step: number): string => `${applicationId}:step-${step}`;
const scoreContext = (applicationId: string): string => `${applicationId}:score`;

/** A step as it is written: its fields in clear without the personal ones, and those sealed (null when it has none). */
export function sealStep(ctx: DomainContext, applicationId: string, step: SealedStepNumber, data: Json) {
  const clear: Json = {};
  const personal: Json = {};
  for (const [name, value] of Object.entries(data)) {
    if (PERSONAL.has(name)) personal[name] = value;
    else clear[name] = value;
  }
  const sealed = Object.keys(personal).length > 0;
  return {
    data: clear,
    sealed: sealed ? ctx.personalData.seal(JSON.stringify(personal), stepContext(applicationId, step)) : null,
  };
}

/**
 * Steps 1-4 with their personal fields opened again: of every step, or of `only` those. Keys in jsonb's
 * order, as they were before these fields were sealed, so an answer is the same byte for byte.
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
    const plain = openSealed(ctx, row.id, sealed, stepContext(row.id, step));
    steps[step] = jsonbOrder({ ...steps[step], ...(JSON.parse(plain) as Json) }) as Json;
  }
  return steps;
}

/** jsonb's order of object keys (all ASCII here): shorter keys first, then byte by byte; nested objects alike. */
function jsonbOrder(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const keys = Object.keys(value).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const ordered: Json = {};
  for (const key of keys) ordered[key] = jsonbOrder((value as Json)[key]);
  return ordered;
}

export function sealScore(ctx: DomainContext, applicationId: string, score: number): string {
  return ctx.personalData.seal(String(score), scoreContext(applicationId));
}

/** The associated data a column's text is sealed with (also for tools that copy rows, such as the bench's fill). */
export function sealedFieldContext(column: SealedColumn, applicationId: string): string {
  return column === 'score' ? scoreContext(applicationId) : stepContext(applicationId, Number(column.slice(4)));
}
