/**
 * A Variant B flow: a token, a flat create, steps 2-4 through A, the credit check and match with the
 * security token, read back through A; stopping part-way as applicants do, with replays, concurrent
 * duplicates and a wrong security token now and then.
 */
import { flatApplication } from '../support';
import { acknowledgeCreate, duplicateCreates } from './creates';
import { runCheck } from './credit-check';
import { STAGES } from './flow-stages';
import { followLink, match } from './offers';
import { between, chance, num, pick, weighted } from './random';
import { readBack } from './read-back';
import type { Answer } from './recorder';
import { saveStep } from './steps';
import type { User } from './user';
import type { LoadPartner, Server } from './world';

async function tokenFor(user: User, partner: LoadPartner): Promise<string | undefined> {
  const held = user.tokens.get(partner.partnerId);
  if (held && user.flows % 20 !== 0) return held;
  const answer = await user.rec.send({
    endpoint: 'B POST /auth/token',
    method: 'POST',
    url: `${user.home.b}/auth/token`,
    headers: { 'X-API-Key': pick(partner.apiKeys) },
    body: { grantType: 'api_key' },
  });
  if (!user.expect('B token', answer, 200)) return undefined;
  const token = answer.body?.data?.accessToken;
  user.tokens.set(partner.partnerId, token);
  return token;
}

export async function flowB(user: User, partner: LoadPartner): Promise<void> {
  const stage = weighted(STAGES);
  const token = await tokenFor(user, partner);
  if (!token) return;
  const bearer = { Authorization: `Bearer ${token}` };
  const apiKeyAuth = { Authorization: `Bearer ${pick(partner.apiKeys)}` };
  const consentAtCreate = chance(0.5);
  const created = await createB(user, partner, bearer, consentAtCreate);
  if (!created) return;
  const { id, securityToken } = created;
  let steps: unknown;
  if (stage === 'created') return readBack(user, id, apiKeyAuth, steps);

  const lastStep = stage === 'steps' ? between(2, 4) : 4;
  for (let step = 2 as 2 | 3 | 4; step <= lastStep; step++) {
    const saved = await saveStep(user, id, 'personal', step, apiKeyAuth);
    if (saved === undefined) return;
    steps = saved;
  }
  if (stage === 'steps') return readBack(user, id, apiKeyAuth, steps);

  if (chance(0.03)) {
    user.ledger.note('B wrong security token refused');
    const wrong = await user.rec.send({
      endpoint: 'B POST /applications/:id/credit-check',
      method: 'POST',
      url: `${user.home.b}/applications/${id}/credit-check`,
      headers: bearer,
      body: { securityToken: 'st_not-this-one', dateOfBirth: '1988-07-14' },
    });
    if (
      user.expect('B check with a wrong security token', wrong, 403) &&
      wrong.body?.error !== 'INVALID_SECURITY_TOKEN'
    )
      user.rec.anomaly('expected INVALID_SECURITY_TOKEN', wrong);
  }
  const checkBody = {
    securityToken,
    dateOfBirth: pick(['1988-07-14', '14/07/1988', '1975-01-30']),
    ...(consentAtCreate ? {} : { consentCreditCheck: true }),
  };
  const checked = await runCheck(user, id, (server, key, score) =>
    user.rec.send({
      endpoint: 'B POST /applications/:id/credit-check',
      method: 'POST',
      url: `${server.b}/applications/${id}/credit-check`,
      headers: { ...bearer, 'Idempotency-Key': key, ...(score !== undefined ? { 'X-Sandbox-Score': score } : {}) },
      body: checkBody,
    }),
  );
  if (!checked) return;
  if (stage === 'checked') return readBack(user, id, apiKeyAuth, steps);

  const offers = await match(
    user,
    `${user.home.b}/applications/${id}/match`,
    'B POST /applications/:id/match',
    id,
    bearer,
    { securityToken },
  );
  if (!offers) return;
  if (stage === 'full') await followLink(user, id, offers);
  await readBack(user, id, apiKeyAuth, steps);
}

async function createB(
  user: User,
  partner: LoadPartner,
  bearer: Record<string, string>,
  consent: boolean,
): Promise<{ id: string; securityToken: string } | undefined> {
  const key = user.key('b-create');
  const body = flatApplication({
    loanAmount: num(between(2000, 90000)),
    ...(consent ? {} : { consentCreditCheck: undefined }),
  });
  const send = (server: Server) =>
    user.rec.send({
      endpoint: 'B POST /applications',
      method: 'POST',
      url: `${server.b}/applications`,
      headers: { ...bearer, 'Idempotency-Key': key },
      body,
    });
  let created: Answer | undefined;
  if (chance(0.05)) {
    user.ledger.note('B create: concurrent duplicates');
    const [first, second] = [send(user.home), send(user.other)];
    const id = await duplicateCreates(user, [first, second], partner, 'B', 'personal', 'concurrent B creates');
    if (!id) return undefined;
    created = [await first, await second].find((a) => a?.status === 201);
  } else {
    created = await send(user.home);
    if (!user.expect('B create', created, 201)) return undefined;
    if (!acknowledgeCreate(user, created, partner, 'B', 'personal', 'B create')) return undefined;
    if (chance(0.1)) {
      user.ledger.note('B create: replay');
      const again = await send(pick(user.world.servers));
      if (user.expect('B create replay', again, 201)) user.checkReplay('B create replay', created, again);
    }
  }
  const data = created?.body?.data;
  if (typeof data?.securityToken !== 'string') {
    user.rec.anomaly('B create: no securityToken', created);
    return undefined;
  }
  return { id: data.applicationId, securityToken: data.securityToken };
}
