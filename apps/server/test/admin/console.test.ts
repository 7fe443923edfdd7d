import request from 'supertest';
import { createPartner } from '@loanmatch/domain';
import { createTierUsage } from '@loanmatch/http';
import { createPartnerBApp } from '@loanmatch/partner-b';
import { ONE_STORAGE, createTestContext, silentLogger, type TestContext } from '../../../../tests/support';
import { createAdminApp } from '../../src/admin/app';

const TOKEN = 'lm_admin_test-token-0123456789abcdef';
const JWT_SECRET = 'test-jwt-secret-for-variant-b-0123456789abcdef';

describe('operator console and usage', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
  });
  afterAll(() => t.close());

  it('when the console is opened without a token, then a static page with a strict Content-Security-Policy and no data', async () => {
    const app = createAdminApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, adminToken: TOKEN });
    await createPartner(t.ctx, { body: { name: 'Hidden Partner Ltd', tier: 'free' } });
    const page = await request(app).get('/admin/console');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = page.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.text).not.toContain('Hidden Partner Ltd');
    expect(page.text).not.toContain(TOKEN);
    // Every script and style is a file of ours on this origin: nothing inline, nothing from elsewhere.
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc="\/admin\/console\/)[^>]*>/);
    expect(page.text).not.toMatch(/<style|\sstyle=|\son[a-z]+=|https?:\/\//);

    const script = await request(app).get('/admin/console/console.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.text).toContain('sessionStorage');
    expect(script.text).not.toMatch(/innerHTML|document\.cookie|localStorage/);
    const style = await request(app).get('/admin/console/console.css');
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('when Variant B requests are made and refused, then GET /admin/v1/usage counts them per tier for an operator with the token only', async () => {
    const usage = createTierUsage();
    const admin = createAdminApp({
      ctx: t.ctx,
      logger: silentLogger,
      ping: async () => true,
      adminToken: TOKEN,
      usage,
    });
    const b = createPartnerBApp({
      ctx: t.ctx,
      logger: silentLogger,
      ping: async () => true,
      jwt: { secret: JWT_SECRET },
      tierLimits: { perHour: async (tier) => (tier === 'free' ? 2 : 1000) },
      usage,
    });
    const created = await createPartner(t.ctx, { body: { name: 'Free one', tier: 'free' } });
    if (!created.ok) throw created.error;
    const exchange = () =>
      request(b).post('/v1/auth/token').set('X-API-Key', created.value.apiKey).send({ grantType: 'api_key' });
    expect((await exchange()).status).toBe(200);
    expect((await exchange()).status).toBe(200);
    expect((await exchange()).status).toBe(429);
    expect(
      (await request(b).post('/v1/auth/token').set('X-API-Key', 'lm_sandbox_not-a-key').send({ grantType: 'api_key' }))
        .status,
    ).toBe(401);

    expect((await request(admin).get('/admin/v1/usage')).status).toBe(401);
    const res = await request(admin)
      .get('/admin/v1/usage')
      .set({ Authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      since: expect.any(String),
      until: expect.any(String),
      shared: false,
      tiers: [
        { tier: 'free', requests: 3, refused: 1 },
        { tier: 'standard', requests: 0, refused: 0 },
        { tier: 'enterprise', requests: 0, refused: 0 },
      ],
    });
    expect(Date.parse(res.body.data.until) - Date.parse(res.body.data.since)).toBeGreaterThan(59 * 60_000);
  });
});
