/**
 * A partner's own attribution (`clientTags`) on create, carried onto the application's referrals and
 * their outcome events.
 */
import {
  STORAGES,
  VALID_STEPS,
  createTestContext,
  silentLogger,
  countRows,
  storedRow,
  type TestContext,
} from '../../../tests/support';
import { createPartnerAApp } from '../src/app';
import { client, newPartnerKey, type Client } from './helpers';
import { lenderKey, makeReferral, minutesAgo, postOutcome } from './lifecycle-helpers';
import { webhookBody } from '@loanmatch/domain';

const TAGS = { campaign: 'spring-2026', channel: 'email', 'sub.id': 'A_17-x' };

describe.each(STORAGES)('clientTags through Variant A on %s', (storage) => {
  let t: TestContext;
  let app: ReturnType<typeof createPartnerAApp>;
  let apiKey: string;
  let c: Client;

  beforeAll(async () => {
    t = await createTestContext(storage);
    app = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, rateLimitPerMinute: 10_000 });
    apiKey = (await newPartnerKey(t.ctx, 'Tagger')).apiKey;
    c = client(app, apiKey);
  });
  afterAll(() => t.close());

  const applicationTags = async (id: string) => (await storedRow(t.db, 'applications', { id }))!.clientTags;

  it('when an application is created with clientTags beside formType, then they are stored with it, and its referral and outcome events carry them', async () => {
    const made = await makeReferral(app, apiKey, { create: { clientTags: TAGS } });
    expect(await applicationTags(made.applicationId)).toEqual(TAGS);
    const referral = (await storedRow(t.db, 'referrals', { offerId: made.reference }))!;
    expect(referral.clientTags).toEqual(TAGS);

    const key = await lenderKey(t.ctx, made.lenderId);
    const res = await postOutcome(app, key, {
      reference: made.reference,
      eventId: 'tagged-1',
      type: 'approved',
      occurredAt: minutesAgo(1),
    });
    expect(res.status).toBe(201);
    const event = (await storedRow(t.db, 'webhook_events', {
      applicationId: made.applicationId,
      type: 'referral.outcome_changed',
    }))!;
    expect(JSON.parse(webhookBody(event)).data.clientTags).toEqual(TAGS);
  });

  it('when no clientTags or an empty object is sent, then none is stored and the referral carries {} in its events', async () => {
    for (const create of [{}, { clientTags: {} }]) {
      const res = await c.create({ formType: 'personal', data: VALID_STEPS.personal[1], ...create });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        applicationId: expect.any(String),
        formType: 'personal',
        status: 'draft',
        lastStep: 1,
      });
      expect(await applicationTags(res.body.data.applicationId)).toBeNull();
    }
  });

  it.each([
    ['six tags', { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' }, 'clientTags: must hold at most 5 tags'],
    [
      'a key of 33 characters',
      { ['k'.repeat(33)]: 'v' },
      'clientTags: each key must be 1 to 32 characters of A-Z, a-z, 0-9, _, . and -',
    ],
    [
      'a key with a space',
      { 'utm source': 'v' },
      'clientTags: each key must be 1 to 32 characters of A-Z, a-z, 0-9, _, . and -',
    ],
    [
      'a value of 129 characters',
      { campaign: 'v'.repeat(129) },
      'clientTags.campaign: must be a string of 1 to 128 characters of A-Z, a-z, 0-9, _, . and -',
    ],
    [
      'a value with a slash',
      { campaign: 'a/b' },
      'clientTags.campaign: must be a string of 1 to 128 characters of A-Z, a-z, 0-9, _, . and -',
    ],
    [
      'an empty value',
      { campaign: '' },
      'clientTags.campaign: must be a string of 1 to 128 characters of A-Z, a-z, 0-9, _, . and -',
    ],
    [
      'a number as value',
      { campaign: 7 },
      'clientTags.campaign: must be a string of 1 to 128 characters of A-Z, a-z, 0-9, _, . and -',
    ],
    ['a list', ['campaign'], 'clientTags: must be an object of at most 5 tags, {"key": "value"}'],
  ])(
    'when clientTags hold %s, then 400 VALIDATION_ERROR naming clientTags, and no application is made',
    async (_case, clientTags, message) => {
      const before = await countRows(t.db, 'applications');
      const res = await c.create({ formType: 'personal', data: VALID_STEPS.personal[1], clientTags });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('VALIDATION_ERROR');
      expect(res.body.message).toBe(message);
      expect(res.body.details).toEqual([{ field: message.split(':')[0], rule: expect.any(String), message }]);
      expect(await countRows(t.db, 'applications')).toBe(before);
    },
  );

  it('when five tags at their longest are sent, then they are taken as they are', async () => {
    const longest = Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((k) => [k.repeat(32), `${k}_.-`.repeat(32)]));
    const res = await c.create({ formType: 'car', data: VALID_STEPS.car[1], clientTags: longest });
    expect(res.status).toBe(201);
    expect(await applicationTags(res.body.data.applicationId)).toEqual(longest);
  });
});
