import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { createLiveBureau } from '@loanmatch/http';
import { ONE_STORAGE, createTestContext, silentLogger, storedRow, type TestContext } from '../../../tests/support';
import { createPartnerAApp } from '../src/app';
import { BASE, applicantBody, applicationThroughStep4, client, newPartnerKey } from './helpers';

/** A bureau on loopback that answers a fixed score, or fails, as the test says. */
function fakeBureau() {
  const state = { mode: 'healthy' as 'healthy' | 'failing', calls: 0 };
  const server: Server = createServer((req, res) => {
    state.calls++;
    req.resume();
    req.on('end', () => {
      if (state.mode === 'failing') return res.writeHead(503).end();
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ score: 840 }));
    });
  });
  return { server, state };
}

describe('Variant A on a live server', () => {
  let t: TestContext;
  const bureau = fakeBureau();
  let app: ReturnType<typeof createPartnerAApp>;
  let c: ReturnType<typeof client>;

  beforeAll(async () => {
    await new Promise<void>((r) => bureau.server.listen(0, '127.0.0.1', r));
    const { port } = bureau.server.address() as { port: number };
    t = await createTestContext(ONE_STORAGE, {
      env: 'live',
      bureau: createLiveBureau({ url: `http://127.0.0.1:${port}`, timeoutMs: 500 }),
    });
    app = createPartnerAApp({ ctx: t.ctx, logger: silentLogger, ping: async () => true, rateLimitPerMinute: 1000 });
    c = client(app, (await newPartnerKey(t.ctx)).apiKey);
  });
  afterAll(async () => {
    await new Promise((r) => bureau.server.close(r));
    await t.close();
  });

  it('when the bureau answers, then the check completes with sandbox_mode false and the score is stored, not returned', async () => {
    const id = await applicationThroughStep4(c, 'personal');
    const res = await c.check(id, applicantBody(), `live-${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      applicationId: id,
      creditCheckComplete: true,
      degraded_mode: false,
      sandbox_mode: false,
    });
    // Stored sealed, bound to its application (`sealed-fields.ts`): opened here with the data key itself.
    const stored = await storedRow(t.db, 'credit_checks', { applicationId: id });
    expect(t.ctx.personalData.open(stored!.scoreSealed!, `${id}:score`)).toBe('840');
    // The id is random hex and may hold the digits 840; the rest of the body must not.
    expect(res.text.replaceAll(id, '')).not.toContain('840');
  });

  it('when the bureau is down, then the check completes in degraded mode and matching says so', async () => {
    bureau.state.mode = 'failing';
    const id = await applicationThroughStep4(c, 'personal');
    const res = await c.check(id, applicantBody(), `live-down-${id}`);
    expect(res.body.data).toMatchObject({ creditCheckComplete: true, degraded_mode: true, sandbox_mode: false });
    const matched = await c.match(id);
    expect(matched.status).toBe(200);
    expect(matched.body.data).toMatchObject({ degraded_mode: true, assessment: { basis: 'self_estimate' } });
    bureau.state.mode = 'healthy';
  });

  it('when X-Sandbox-Score is sent to a live server, then 400 and no bureau call', async () => {
    const id = await applicationThroughStep4(c, 'personal');
    const calls = bureau.state.calls;
    const res = await c.check(id, applicantBody(), `live-header-${id}`, 'excellent');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('X-Sandbox-Score: is accepted only by the sandbox');
    expect(bureau.state.calls).toBe(calls);
  });

  it('when a sandbox key is used on the live server, then 401', async () => {
    const res = await request(app)
      .get(`${BASE}/applications/x`)
      .set('Authorization', `Bearer lm_sandbox_${'a'.repeat(43)}`);
    expect(res.status).toBe(401);
    expect(res.body.message).toContain('sandbox key');
  });
});
