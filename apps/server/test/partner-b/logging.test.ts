import { Writable } from 'node:stream';
import request from 'supertest';
import winston from 'winston';
import { ONE_STORAGE, createTestContext, type TestContext } from '../../../../tests/support';
import { createPartnerAApp } from '@loanmatch/partner-a';
import { createPartnerBApp } from '@loanmatch/partner-b';
import { JWT_SECRET, accessTokenFor, clientB, flatApplication, newPartner } from './helpers';

describe('Variant B request logs', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
  });
  afterAll(() => t.close());

  it('when a token is exchanged and an application made and checked, then one JSON line per request with contract B, and no key, token or personal data', async () => {
    const lines: string[] = [];
    const logger = winston.createLogger({
      format: winston.format.json(),
      transports: [
        new winston.transports.Stream({
          stream: new Writable({
            write: (chunk, _enc, done) => {
              lines.push(String(chunk));
              done();
            },
          }),
        }),
      ],
    });
    const app = createPartnerBApp({ ctx: t.ctx, logger, ping: async () => true, jwt: { secret: JWT_SECRET } });
    const appA = createPartnerAApp({
      ctx: t.ctx,
      logger: winston.createLogger({ silent: true }),
      ping: async () => true,
      rateLimitPerMinute: 1000,
    });
    const { apiKey, partnerId } = await newPartner(t.ctx);
    const accessToken = await accessTokenFor(app, apiKey);
    const c = clientB(app, accessToken);
    const created = (await c.create(flatApplication())).body.data;
    for (const [step, data] of [
      [2, { loanPurpose: 'wedding', loanTerm: 3 }],
      [3, { employmentType: 'full_time', grossMonthlyIncome: 6000 }],
      [4, { livingSituation: 'renting' }],
    ] as const) {
      await request(appA)
        .patch(`/api/partner/v1/applications/${created.applicationId}`)
        .set('Authorization', `Bearer ${apiKey}`)
        .send({ step, data });
    }
    await c.check(
      created.applicationId,
      { securityToken: created.securityToken, dateOfBirth: '1988-07-14' },
      { score: '777' },
    );
    await c.check(created.applicationId, { securityToken: 'st_wrong' });

    const entries = lines.map((l) => JSON.parse(l));
    expect(entries).toHaveLength(4);
    for (const e of entries) {
      expect(e).toMatchObject({
        message: 'request',
        contract: 'B',
        requestId: expect.any(String),
        method: 'POST',
        status: expect.any(Number),
        durationMs: expect.any(Number),
        partnerId,
      });
    }
    expect(entries.map((e) => [e.route, e.status])).toEqual([
      ['/v1/auth/token', 200],
      ['/v1/applications', 201],
      ['/v1/applications/:applicationId/credit-check', 200],
      ['/v1/applications/:applicationId/credit-check', 403],
    ]);
    const all = lines.join('\n');
    for (const secret of [
      apiKey,
      accessToken,
      created.securityToken,
      'Jordan',
      'Citizen',
      'jordan.citizen@example.com',
      '0412345678',
      '1988-07-14',
      JWT_SECRET,
    ]) {
      expect(all).not.toContain(secret);
    }
    expect(all).not.toMatch(/"(score|band|creditScore)"/);
  });
});
