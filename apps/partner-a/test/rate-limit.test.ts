/** Variant A's per-key rate limit in memory: 429 RATE_LIMITED with its headers, other keys unaffected. */
import { STORAGES, silentLogger } from '../../../tests/support';
import { createPartnerAApp } from '../src/app';
import { client, newPartnerKey, variantASuite, type VariantA } from './helpers';

describe.each(STORAGES)('Variant A on %s', (storage) => {
  let { t } = {} as VariantA;
  variantASuite(storage, (made) => {
    ({ t } = made);
  });

  it('when a key exceeds its per-minute limit, then 429 RATE_LIMITED with Retry-After and RateLimit headers, other keys unaffected', async () => {
    const limited = createPartnerAApp({
      ctx: t.ctx,
      logger: silentLogger,
      ping: () => t.db.ping(),
      rateLimitPerMinute: 3,
    });
    const one = client(limited, (await newPartnerKey(t.ctx)).apiKey);
    const two = client(limited, (await newPartnerKey(t.ctx)).apiKey);
    for (let i = 0; i < 3; i++) expect((await one.get('6f1c1a52-2b1e-4c55-9d0e-3b8f5e1a2c3d')).status).toBe(404);
    const refused = await one.get('6f1c1a52-2b1e-4c55-9d0e-3b8f5e1a2c3d');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, error: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers.ratelimit).toMatch(/r=0/);
    expect(refused.headers['ratelimit-policy']).toMatch(/q=3/);
    expect(refused.headers['x-request-id']).toBeTruthy();
    expect((await two.get('6f1c1a52-2b1e-4c55-9d0e-3b8f5e1a2c3d')).status).toBe(404);
  });
});
