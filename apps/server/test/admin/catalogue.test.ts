import request from 'supertest';
import { createPartnerAApp } from '@loanmatch/partner-a';
import {
  ONE_STORAGE,
  createTestContext,
  defaultCatalogueDocument,
  silentLogger,
  VALID_STEPS,
  validApplicant,
  type TestContext,
} from '../../../../tests/support';
import { createCatalogueSource, createPartner, seedCatalogue } from '@loanmatch/domain';
import { replaceCatalogue } from '@loanmatch/db';
import { createAdminApp } from '../../src/admin/app';

const TOKEN = 'lm_admin_catalogue-test-token-0123456789';
type Doc = {
  version: number;
  effectiveFrom: string;
  lenders: Array<Record<string, unknown>>;
  products: Array<Record<string, unknown>>;
};

describe('operators change the lender catalogue without a code change', () => {
  let t: TestContext;
  let admin: ReturnType<typeof createAdminApp>;
  const auth = { Authorization: `Bearer ${TOKEN}` };

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    admin = createAdminApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, adminToken: TOKEN });
  });
  afterAll(() => t.close());

  it('when the catalogue is read, then the seeded file is in force with at least 12 lenders and 30 products', async () => {
    const res = await request(admin).get('/admin/v1/catalogue').set(auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      effectiveFrom: (defaultCatalogueDocument() as Doc).effectiveFrom,
      lenders: expect.any(Number),
      products: expect.any(Number),
    });
    expect(res.body.data.lenders).toBeGreaterThanOrEqual(12);
    expect(res.body.data.products).toBeGreaterThanOrEqual(30);
  });

  it('when a catalogue with a broken rule is put, then it is refused naming the product and the rule, and the old one stays', async () => {
    const doc = defaultCatalogueDocument() as Doc;
    const victim = doc.products[0];
    victim.loanAmount = { min: 60000, max: 50000 };
    const res = await request(admin)
      .put('/admin/v1/catalogue')
      .set(auth)
      .send({ ...doc, effectiveFrom: '2099-01-01' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('VALIDATION_ERROR');
    expect(res.body.message).toContain(String(victim.id));
    expect(res.body.message).toMatch(/loanAmount/);
    expect((await request(admin).get('/admin/v1/catalogue').set(auth)).body.data.effectiveFrom).toBe(doc.effectiveFrom);
  });

  it('when the stored catalogue no longer passes the rules (a car product without a vehicle LVR), then start-up puts the file back in force, even over a later date', async () => {
    // Written straight to the database, as a catalogue stored before the rule existed would be.
    const doc = defaultCatalogueDocument() as Doc & Record<string, unknown>;
    const { lenders, products, ...settings } = { ...doc, effectiveFrom: '2098-01-01' };
    const outdated = products.map((p) =>
      p.loanType === 'car' ? { ...p, car: { ...(p.car as object), maxLvrPercent: undefined } } : p,
    );
    await replaceCatalogue(
      t.db,
      {
        version: '2098-01-01',
        settings: JSON.parse(JSON.stringify(settings)),
        lenders: lenders.map(({ id, name, url }) => ({
          id: String(id),
          name: String(name),
          url: String(url),
          ownershipDays: 90,
        })),
        products: outdated.map((p) => ({
          id: String(p.id),
          lenderId: String(p.lenderId),
          formType: String(p.loanType),
          name: String(p.name),
          definition: JSON.parse(JSON.stringify(p)),
        })),
      },
      new Date(),
    );
    const seeded = await seedCatalogue(t.ctx, { document: defaultCatalogueDocument() });
    expect(seeded.ok && seeded.value).toMatchObject({ effectiveFrom: doc.effectiveFrom });
    const source = createCatalogueSource(t.db, { refreshMs: 0 });
    expect(
      (await source.current()).productsByType.car.every(
        (p) => p.definition.loanType === 'car' && p.definition.car.maxLvrPercent > 0,
      ),
    ).toBe(true);
    // A catalogue that passes is kept: seeding again changes nothing.
    expect(await seedCatalogue(t.ctx, { document: defaultCatalogueDocument() })).toEqual({ ok: true, value: null });
  });

  it('when a new version drops a lender, then matching on every process stops offering it', async () => {
    const partner = await createPartner(t.ctx, { body: { name: 'Cat' } });
    if (!partner.ok) throw partner.error;
    const { apiKey } = partner.value;
    // A second "process": its own catalogue source over the same database.
    const otherProcess = createPartnerAApp({
      ctx: { ...t.ctx, catalogue: createCatalogueSource(t.db, { refreshMs: 0 }) },
      logger: silentLogger,
      ping: async () => true,
      rateLimitPerMinute: 1000,
    });
    const a = (path: string) =>
      request(otherProcess).post(`/api/partner/v1${path}`).set('Authorization', `Bearer ${apiKey}`);
    const created = await a('/applications').send({ formType: 'personal', data: VALID_STEPS.personal[1] });
    const id = created.body.data.applicationId;
    for (const step of [2, 3, 4] as const)
      await request(otherProcess)
        .patch(`/api/partner/v1/applications/${id}`)
        .set('Authorization', `Bearer ${apiKey}`)
        .send({ step, data: VALID_STEPS.personal[step] });
    await a(`/applications/${id}/credit-check`)
      .set({ 'Idempotency-Key': `cat-${id}`, 'X-Sandbox-Score': 'excellent' })
      .send({ data: validApplicant() });
    const before = (await a(`/applications/${id}/match`)).body.data.acceptedOffers as Array<{ lender: { id: string } }>;
    expect(before.length).toBeGreaterThan(0);
    const dropped = before[0].lender.id;

    const doc = defaultCatalogueDocument() as Doc;
    const next = {
      ...doc,
      effectiveFrom: '2099-01-01',
      lenders: doc.lenders.filter((l) => l.id !== dropped),
      products: doc.products.filter((p) => p.lenderId !== dropped),
    };
    const put = await request(admin).put('/admin/v1/catalogue').set(auth).send(next);
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      effectiveFrom: '2099-01-01',
      lenders: next.lenders.length,
      products: next.products.length,
    });

    const after = (await a(`/applications/${id}/match`)).body.data.acceptedOffers as Array<{ lender: { id: string } }>;
    expect(after.map((o) => o.lender.id)).not.toContain(dropped);
  });
});
