/** Shared by the personal-data suites: an applicant found nowhere else, the raw applicant row, and a suite's database, partner and applications. */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '@loanmatch/db';
import {
  createApplication,
  createPartner,
  createSecretBox,
  registerWebhook,
  runCreditCheck,
  saveStep,
  type DomainContext,
} from '../src';
import {
  VALID_STEPS,
  createTestContext,
  validApplicant,
  type StorageKind,
  type TestContext,
} from '../../../tests/support';

/** Values found nowhere else, so that finding one anywhere in the database means a copy in clear. */
export const PERSON = {
  firstName: 'Zephyrine',
  lastName: 'Quillfeather',
  email: 'zephyrine.q@example.org',
  mobileNumber: '0499887766',
  dateOfBirth: '1979-03-21',
};
export const CLEAR_VALUES = Object.values(PERSON);
/** Step 4 with the applicant's home address: personal data inside steps 1-4, which erasure takes out. */
export const STEP_4 = {
  ...VALID_STEPS.personal[4],
  homeAddress: '12 Quill Lane, Hobart TAS 7000',
  homeAddressComponents: {
    streetNumber: '12',
    streetName: 'Quill',
    streetType: 'Lane',
    suburb: 'Hobart',
    state: 'TAS',
    postcode: '7000',
  },
};

export async function rawApplicant(db: Database, applicationId: string) {
  const rows = await db.query<Record<string, unknown>>(
    'SELECT row_to_json(a)::text AS j, details_sealed, key_id, erased_at FROM applicants a WHERE application_id = $1::uuid',
    [applicationId],
  );
  return rows[0] as
    | { j: string; details_sealed: string | null; key_id: string | null; erased_at: Date | null }
    | undefined;
}

/** A suite's database on `storage` and its partner, made before its tests (`t` is filled in, `onPartner` given the partner's id) and closed after. */
export function personalDataSuite(storage: StorageKind, onPartner: (partnerId: string) => void) {
  const t = {} as TestContext;
  let partnerId: string;
  const secretBox = createSecretBox([randomBytes(32)], 'test-replay');

  beforeAll(async () => {
    Object.assign(t, await createTestContext(storage));
    const created = await createPartner(t.ctx, { body: { name: 'Privacy Partner' } });
    if (!created.ok) throw created.error;
    partnerId = created.value.partnerId;
    onPartner(partnerId);
    // A webhook, so that every status change writes an outbox event whose body is scanned too.
    const hook = await registerWebhook(t.ctx, { partnerId, body: { url: 'http://127.0.0.1:9/hooks' } });
    if (!hook.ok) throw hook.error;
  });
  afterAll(() => t.close());

  /** An application with steps 1-4 saved (Variant A), under `ctx`. */
  async function throughStep4(ctx: DomainContext = t.ctx): Promise<string> {
    const created = await createApplication(ctx, {
      partnerId,
      body: { formType: 'personal', data: VALID_STEPS.personal[1] },
      idempotencyKey: `create-${randomUUID()}`,
    });
    if (!created.ok) throw created.error;
    const applicationId = created.value.value.applicationId;
    for (const step of [2, 3, 4] as const) {
      const saved = await saveStep(ctx, {
        partnerId,
        applicationId,
        body: { step, data: step === 4 ? STEP_4 : VALID_STEPS.personal[step] },
      });
      if (!saved.ok) throw saved.error;
    }
    return applicationId;
  }

  const check = (ctx: DomainContext, applicationId: string, person: Record<string, unknown> = PERSON) =>
    runCreditCheck(ctx, {
      partnerId,
      applicationId,
      body: { data: validApplicant(person) },
      idempotencyKey: `check-${randomUUID()}`,
      sandboxScore: '742',
    });

  async function checked(ctx: DomainContext = t.ctx, person: Record<string, unknown> = PERSON): Promise<string> {
    const applicationId = await throughStep4(ctx);
    const result = await check(ctx, applicationId, person);
    if (!result.ok) throw result.error;
    return applicationId;
  }

  return {
    t,
    secretBox,
    throughStep4,
    check,
    checked,
  };
}
