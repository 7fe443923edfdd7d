import { Writable } from 'node:stream';
import winston from 'winston';
import { ONE_STORAGE, createTestContext, validApplicant, type TestContext } from '../../../tests/support';
import { createPartnerAApp } from '../src/app';
import { applicantBody, applicationThroughStep4, client, newPartnerKey } from './helpers';

describe('request logs', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
  });
  afterAll(() => t.close());

  it('when an application is built and checked, then each request is one JSON line with id, route, status and duration, and no personal data, key or score', async () => {
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
    const app = createPartnerAApp({ ctx: t.ctx, logger, ping: async () => true, rateLimitPerMinute: 1000 });
    const { apiKey } = await newPartnerKey(t.ctx);
    const c = client(app, apiKey);
    const id = await applicationThroughStep4(c, 'personal');
    await c.check(id, applicantBody(), `log-${id}`, '777');
    await c.check(id, { data: { ...validApplicant(), email: 'broken-address' } }, `log-bad-${id}`);

    const entries = lines.map((l) => JSON.parse(l));
    expect(entries.length).toBeGreaterThanOrEqual(6);
    for (const e of entries) {
      expect(e).toMatchObject({
        message: 'request',
        requestId: expect.any(String),
        method: expect.any(String),
        route: expect.any(String),
        status: expect.any(Number),
        durationMs: expect.any(Number),
      });
    }
    expect(entries.map((e) => e.route)).toContain('/api/partner/v1/applications/:applicationId/credit-check');
    const all = lines.join('\n');
    const applicant = validApplicant();
    for (const value of [
      applicant.firstName,
      applicant.lastName,
      applicant.email,
      applicant.mobileNumber,
      applicant.dateOfBirth,
      'broken-address',
      apiKey,
    ]) {
      expect(all).not.toContain(String(value));
    }
    // The score (777 here) never appears as a field; plain digits could be part of a duration.
    expect(all).not.toMatch(/"(score|band|creditScore)"/);
    for (const e of entries) expect(Object.values(e)).not.toContain(777);
  });
});
