/** Applicant details sealed at rest: no copy in clear anywhere in the database, and a sealed text bound to its own row. */
import { randomUUID } from 'node:crypto';
import type { Database } from '@loanmatch/db';
import { PersonalDataUnreadable, createApplicationB, matchApplication, readApplicantDetails } from '../src';
import { STORAGES, flatApplication } from '../../../tests/support';
import { CLEAR_VALUES, PERSON, personalDataSuite, rawApplicant } from './personal-data.fixtures';

/** Every row of every table of the database, as JSON text. */
async function everyRow(db: Database): Promise<string> {
  const tables = await db.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
  );
  const texts: string[] = [];
  for (const { name } of tables) {
    const rows = await db.query<{ j: string }>(`SELECT row_to_json(t)::text AS j FROM "${name}" t`);
    texts.push(...rows.map((r) => r.j));
  }
  return texts.join('\n');
}

describe.each(STORAGES)('personal data at rest on %s', (storage) => {
  let partnerId: string;
  const { t, secretBox, checked } = personalDataSuite(storage, (id) => {
    partnerId = id;
  });

  it('when step 5 and a Variant B intake are stored, then no table holds a name, the e-mail, the phone or the birth date in clear', async () => {
    const a = await checked();
    const matched = await matchApplication(t.ctx, { partnerId, applicationId: a });
    expect(matched.ok).toBe(true);
    const b = await createApplicationB(t.ctx, {
      partnerId,
      body: flatApplication({
        firstName: PERSON.firstName,
        lastName: PERSON.lastName,
        email: PERSON.email,
        phone: PERSON.mobileNumber,
      }),
      idempotencyKey: `b-${randomUUID()}`,
      secretBox,
    });
    if (!b.ok) throw b.error;

    for (const id of [a, b.value.value.applicationId]) {
      const row = await rawApplicant(t.db, id);
      expect(row?.details_sealed).toMatch(new RegExp(`^v1\\.${t.ctx.personalData.keyId}\\.`));
      expect(row?.key_id).toBe(t.ctx.personalData.keyId);
    }
    const dump = await everyRow(t.db);
    expect(dump).toContain(a); // the scan does read the tables: the application id is there in clear
    expect(dump).toContain('application.status_changed');
    for (const value of CLEAR_VALUES) expect(dump).not.toContain(value);

    // Read back through the one place that opens them.
    expect(await readApplicantDetails(t.ctx, a)).toEqual({ state: 'kept', details: expect.objectContaining(PERSON) });
    expect(await readApplicantDetails(t.ctx, b.value.value.applicationId)).toEqual({
      state: 'kept',
      details: expect.objectContaining({
        firstName: PERSON.firstName,
        email: PERSON.email,
        mobileNumber: PERSON.mobileNumber,
      }),
    });
  });

  it('when a sealed text is altered, or moved to another application’s row, then it is refused, never read', async () => {
    const first = await checked();
    const second = await checked();
    const sealed = (await rawApplicant(t.db, first))!.details_sealed!;
    const parts = sealed.split('.');
    parts[3] = (parts[3].startsWith('A') ? 'B' : 'A') + parts[3].slice(1);
    await t.db.query('UPDATE applicants SET details_sealed = $1 WHERE application_id = $2::uuid', [
      parts.join('.'),
      first,
    ]);
    await expect(readApplicantDetails(t.ctx, first)).rejects.toThrow(PersonalDataUnreadable);

    // Intact text, wrong row: the application id is the associated data.
    await t.db.query('UPDATE applicants SET details_sealed = $1 WHERE application_id = $2::uuid', [sealed, second]);
    const refusal = await readApplicantDetails(t.ctx, second).catch((err: Error) => err);
    expect(refusal).toBeInstanceOf(PersonalDataUnreadable);
    expect((refusal as Error).message).toContain(second);
    for (const value of CLEAR_VALUES) expect((refusal as Error).message).not.toContain(value);
  });
});
