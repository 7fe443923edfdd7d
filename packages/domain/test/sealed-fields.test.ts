/**
 * Employers, home and property addresses (with every component) and the exact bureau score at rest
 * (docs/adr/0160): sealed like step 5, on both storages. Read through the raw tables, every column of
 * every one cast to text; GET and match answer as before, and only the calls that show these fields
 * open them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '@loanmatch/db';
import {
  PersonalDataUnreadable,
  createApplication,
  createApplicationB,
  createPartner,
  createSecretBox,
  getApplication,
  matchApplication,
  runCreditCheck,
  runCreditCheckB,
  saveStep,
  updateApplicationB,
  type DomainContext,
  type SecretBox,
} from '../src';
import {
  STORAGES,
  VALID_STEPS,
  createTestContext,
  flatApplication,
  validApplicant,
  type TestContext,
} from '../../../tests/support';

/** The exact score the bureau gives: a number found in no other value these tests store. */
const SCORE = '1163';
const EMPLOYER = 'Vandemeer Hydraulics Pty Ltd';
const HOME = {
  homeAddress: 'U9B/4417 Zanzibar Crescent, Wollongbar NSW 2477',
  homeAddressComponents: {
    unitNumber: 'U9B',
    streetNumber: '4417',
    streetName: 'Zanzibar',
    streetType: 'Crescent',
    suburb: 'Wollongbar',
    state: 'NSW',
    postcode: '2477',
    country: 'Australia',
  },
};
const PROPERTY = {
  propertyAddress: '2231 Quokka Parade, Yallingup WA 6282',
  propertyAddressComponents: {
    streetNumber: '2231',
    streetName: 'Quokka',
    streetType: 'Parade',
    suburb: 'Yallingup',
    state: 'WA',
    postcode: '6282',
  },
};
/**
 * Each seeded value that must appear in no column in clear. The states are values of a list (the
 * catalogue may name them too): the fields' own names, which hold them, are looked for instead.
 */
const SEEDED = [
  SCORE,
  EMPLOYER,
  HOME.homeAddress,
  ...Object.values(HOME.homeAddressComponents).filter((v) => v !== 'NSW'),
  PROPERTY.propertyAddress,
  ...Object.values(PROPERTY.propertyAddressComponents).filter((v) => v !== 'WA'),
];
const PERSONAL_KEYS = [
  'employerName',
  'homeAddress',
  'homeAddressComponents',
  'propertyAddress',
  'propertyAddressComponents',
];

/** `value` as a whole token: not part of a longer word, number, identifier or sealed text. */
const token = (value: string) =>
  new RegExp(`(?<![A-Za-z0-9_.-])${value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![A-Za-z0-9_.-])`);

/** Every column of every table, each cell cast to text: `table.column: text`. */
async function everyCell(db: Database): Promise<string[]> {
  const columns = await db.query<{ t: string; c: string }>(
    "SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2",
  );
  const cells: string[] = [];
  for (const { t, c } of columns) {
    const rows = await db.query<{ v: string | null }>(`SELECT "${c}"::text AS v FROM "${t}"`);
    for (const { v } of rows) if (v !== null) cells.push(`${t}.${c}: ${v}`);
  }
  return cells;
}

/** A box that reports every context it is asked to open, to show which calls open what. */
function counting(box: SecretBox, opened: string[]): SecretBox {
  return {
    ...box,
    open: (sealed, context) => {
      opened.push(context ?? '');
      return box.open(sealed, context);
    },
  };
}

describe.each(STORAGES)('employers, addresses and scores at rest on %s', (storage) => {
  let t: TestContext;
  let partnerId: string;
  const secretBox = createSecretBox([randomBytes(32)], 'test-replay');

  beforeAll(async () => {
    t = await createTestContext(storage);
    const created = await createPartner(t.ctx, { body: { name: 'At Rest Partner' } });
    if (!created.ok) throw created.error;
    partnerId = created.value.partnerId;
  });
  afterAll(() => t.close());

  /** Variant A: an application of `formType` with steps 1-4, the seeded fields where its tables have them. */
  async function throughStep4(formType: 'personal' | 'car' | 'home', ctx: DomainContext = t.ctx): Promise<string> {
    const steps: Record<number, Record<string, unknown>> = { ...VALID_STEPS[formType] };
    if (formType === 'home') {
      steps[2] = { ...steps[2], ...PROPERTY };
      steps[4] = { ...steps[4], ...HOME };
    } else {
      steps[3] = { ...steps[3], employerName: EMPLOYER };
      steps[4] = { ...steps[4], ...HOME };
    }
    const created = await createApplication(ctx, {
      partnerId,
      body: { formType, data: steps[1] },
      idempotencyKey: `create-${randomUUID()}`,
    });
    if (!created.ok) throw created.error;
    const applicationId = created.value.value.applicationId;
    for (const step of [2, 3, 4] as const) {
      const saved = await saveStep(ctx, { partnerId, applicationId, body: { step, data: steps[step] } });
      if (!saved.ok) throw saved.error;
    }
    return applicationId;
  }

  const check = (applicationId: string, ctx: DomainContext = t.ctx) =>
    runCreditCheck(ctx, {
      partnerId,
      applicationId,
      body: { data: validApplicant() },
      idempotencyKey: `check-${randomUUID()}`,
      sandboxScore: SCORE,
    });

  it('when applications of every loan type, through both contracts, are saved, checked and matched, then no column of any table holds an employer, an address, a component or the score in clear', async () => {
    const ids: string[] = [];
    for (const formType of ['personal', 'car', 'home'] as const) {
      const id = await throughStep4(formType);
      expect((await check(id)).ok).toBe(true);
      expect((await matchApplication(t.ctx, { partnerId, applicationId: id })).ok).toBe(true);
      ids.push(id);
    }
    // Variant B: steps 3-4 complete at create (saved as steps), the rest by PATCH, then its own check.
    const b = await createApplicationB(t.ctx, {
      partnerId,
      body: flatApplication({
        loanTerm: 5,
        ...VALID_STEPS.personal[3],
        employerName: EMPLOYER,
        ...VALID_STEPS.personal[4],
        ...HOME,
      }),
      idempotencyKey: `b-${randomUUID()}`,
      secretBox,
    });
    if (!b.ok) throw b.error;
    const bId = b.value.value.applicationId;
    const { securityToken } = b.value.value;
    expect(
      (
        await updateApplicationB(t.ctx, {
          partnerId,
          applicationId: bId,
          body: { securityToken, grossMonthlyIncome: 9100 },
        })
      ).ok,
    ).toBe(true);
    const checkedB = await runCreditCheckB(t.ctx, {
      partnerId,
      applicationId: bId,
      body: { securityToken, dateOfBirth: '1988-07-14' },
      idempotencyKey: undefined,
      sandboxScore: SCORE,
    });
    expect(checkedB.ok).toBe(true);
    ids.push(bId);

    const cells = await everyCell(t.db);
    // The scan reads what is in clear: ids, the loan's own fields, the band.
    const all = cells.join('\n');
    for (const id of ids) expect(all).toContain(id);
    expect(all).toMatch(/applications\.step_4: .*"livingSituation": "renting"/);
    expect(all).toContain('credit_checks.band: excellent');
    const found = [
      ...SEEDED.flatMap((value) =>
        cells.filter((cell) => token(value).test(cell)).map((cell) => `${value} in ${cell}`),
      ),
      ...PERSONAL_KEYS.flatMap((key) =>
        cells.filter((cell) => cell.includes(`"${key}"`)).map((cell) => `${key} in ${cell}`),
      ),
    ];
    expect(found).toEqual([]);
    // And the check can fail: the same value in clear is found.
    expect(token(HOME.homeAddressComponents.postcode).test('applications.step_4: {"postcode": "2477"}')).toBe(true);
    expect(token(SCORE).test('credit_checks.band: 1163')).toBe(true);
  });

  it('when an application is read, then steps 2-4 are what the partner gave, with their keys in the order jsonb kept before sealing', async () => {
    for (const formType of ['personal', 'home'] as const) {
      const id = await throughStep4(formType);
      const got = await getApplication(t.ctx, { partnerId, applicationId: id });
      if (!got.ok) throw got.error;
      const steps = got.value.steps as Record<string, Record<string, unknown>>;
      if (formType === 'personal') expect(steps[3]).toMatchObject({ employerName: EMPLOYER });
      else expect(steps[2]).toMatchObject(PROPERTY);
      expect(steps[4]).toMatchObject(HOME);
      for (const [n, data] of Object.entries(steps)) {
        // What GET answered before sealing: the step as jsonb stored and gave it back.
        const [{ text }] = await t.db.query<{ text: string }>('SELECT $1::jsonb::text AS text', [JSON.stringify(data)]);
        expect([n, JSON.stringify(data)]).toEqual([n, JSON.stringify(JSON.parse(text))]);
      }
    }
  });

  it('when an application is matched, checked or read, then only a read opens its sealed fields, and only the steps that hold some', async () => {
    const opened: string[] = [];
    const ctx: DomainContext = { ...t.ctx, personalData: counting(t.ctx.personalData, opened) };
    const id = await throughStep4('personal', ctx);
    opened.length = 0; // the saves answered the steps: each opened what it showed
    expect((await check(id, ctx)).ok).toBe(true);
    expect((await matchApplication(ctx, { partnerId, applicationId: id })).ok).toBe(true);
    expect(opened).toEqual([]);
    expect((await getApplication(ctx, { partnerId, applicationId: id })).ok).toBe(true);
    expect(opened).toEqual([`${id}:step-3`, `${id}:step-4`]);
  });

  it('when Variant B changes a saved step, then its sealed fields stay, and the step is sealed again whole', async () => {
    const b = await createApplicationB(t.ctx, {
      partnerId,
      body: flatApplication({ loanTerm: 5, ...VALID_STEPS.personal[3], employerName: EMPLOYER }),
      idempotencyKey: undefined,
      secretBox,
    });
    if (!b.ok) throw b.error;
    const { applicationId, securityToken } = b.value.value;
    const changed = await updateApplicationB(t.ctx, {
      partnerId,
      applicationId,
      body: { securityToken, grossMonthlyIncome: 9100 },
    });
    expect(changed.ok).toBe(true);
    const got = await getApplication(t.ctx, { partnerId, applicationId });
    expect(got.ok && got.value.steps['3']).toMatchObject({ employerName: EMPLOYER, grossMonthlyIncome: 9100 });
  });

  it('when a sealed step is moved to another step or application, then it is refused, never read', async () => {
    const first = await throughStep4('personal');
    const second = await throughStep4('personal');
    const [row] = await t.db.query<{ s3: string }>('SELECT step_3_sealed AS s3 FROM applications WHERE id = $1::uuid', [
      first,
    ]);
    await t.db.query('UPDATE applications SET step_4_sealed = $1 WHERE id = $2::uuid', [row.s3, first]);
    await expect(getApplication(t.ctx, { partnerId, applicationId: first })).rejects.toThrow(PersonalDataUnreadable);
    await t.db.query('UPDATE applications SET step_3_sealed = $1 WHERE id = $2::uuid', [row.s3, second]);
    const refusal = await getApplication(t.ctx, { partnerId, applicationId: second }).catch((err: Error) => err);
    expect(refusal).toBeInstanceOf(PersonalDataUnreadable);
    expect((refusal as Error).message).not.toContain(EMPLOYER);
  });
});
