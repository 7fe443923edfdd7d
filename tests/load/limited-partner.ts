/**
 * A partner of the free tier, kept at a real hourly limit, asking for tokens and creating
 * applications at a steady pace: it is refused with 429 once over the limit, never with a 5xx, and
 * what it created before is all there is.
 */
import { flatApplication } from '../support';
import type { Answer, Recorder } from './recorder';
import type { LoadPartner, World } from './world';

export async function limitedPartner(world: World, partner: LoadPartner, pauseMs: number): Promise<void> {
  const { rec, ledger } = world;
  let token: string | undefined;
  let n = 0;
  while (Date.now() < world.deadline) {
    const server = world.servers[n++ % world.servers.length];
    const exchanged = await rec.send({
      endpoint: 'B POST /auth/token (free tier)',
      method: 'POST',
      url: `${server.b}/auth/token`,
      headers: { 'X-API-Key': partner.apiKeys[0] },
      body: { grantType: 'api_key' },
    });
    if (exchanged && exchanged.status === 200) token = exchanged.body?.data?.accessToken;
    else if (exchanged && exchanged.status !== 429) rec.anomaly('free tier token: expected 200 or 429', exchanged);
    else if (exchanged) checkRefusal(rec, exchanged);
    if (token) {
      const created = await rec.send({
        endpoint: 'B POST /applications (free tier)',
        method: 'POST',
        url: `${server.b}/applications`,
        headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': `load-${world.runId}-free-${n}` },
        body: flatApplication(),
      });
      if (created?.status === 201) {
        if (
          !ledger.created({
            id: created.body?.data?.applicationId,
            partnerId: partner.partnerId,
            contract: 'B',
            formType: 'personal',
          })
        )
          rec.anomaly('free tier create: an existing application', created);
      } else if (created && created.status !== 429) rec.anomaly('free tier create: expected 201 or 429', created);
      else if (created) checkRefusal(rec, created);
    }
    await new Promise((r) => setTimeout(r, pauseMs));
  }
}

function checkRefusal(rec: Recorder, answer: Answer): void {
  if (answer.body?.error !== 'RATE_LIMITED' || !(Number(answer.headers.get('retry-after')) > 0))
    rec.anomaly('429 without RATE_LIMITED and Retry-After', answer);
}
