/**
 * A Variant A flow: create with an Idempotency-Key, steps 2-4, step 5 with the credit check, match,
 * one tracking link, read back; stopping part-way as applicants do, with replays, concurrent
 * duplicates, a step out of order and a key reused for another body now and then.
 */
import { validApplicant, type LoanType } from '../support';
import { acknowledgeCreate, duplicateCreates } from './creates';
import { runCheck } from './credit-check';
import { STAGES } from './flow-stages';
import { followLink, match } from './offers';
import { between, chance, pick, weighted } from './random';
import { readBack } from './read-back';
import { saveStep, stepData } from './steps';
import type { User } from './user';
import type { LoadPartner, Server } from './world';

export async function flowA(user: User, partner: LoadPartner, formType: LoanType): Promise<void> {
  const stage = weighted(STAGES);
  const apiKey = pick(partner.apiKeys);
  const auth = { Authorization: `Bearer ${apiKey}` };
  const id = await createA(user, partner, formType, auth);
  if (!id) return;
  let steps: unknown;
  if (stage === 'created') return readBack(user, id, auth, steps);

  if (chance(0.03)) {
    user.ledger.note('A step out of order refused');
    const early = await user.rec.send({
      endpoint: 'A PATCH /applications/:id',
      method: 'PATCH',
      url: `${user.home.a}/applications/${id}`,
      headers: auth,
      body: { step: 4, data: stepData(formType, 4) },
    });
    if (user.expect('PATCH step 4 before step 2', early, 409) && early.body?.error !== 'STEP_OUT_OF_ORDER')
      user.rec.anomaly('PATCH step 4 before step 2: expected STEP_OUT_OF_ORDER', early);
  }
  const lastStep = stage === 'steps' ? between(2, 4) : 4;
  for (let step = 2 as 2 | 3 | 4; step <= lastStep; step++) {
    const saved = await saveStep(user, id, formType, step, auth);
    if (saved === undefined) return;
    steps = saved;
  }
  if (lastStep === 4 && chance(0.05)) {
    user.ledger.note('A step sent again (replaced)');
    const saved = await saveStep(user, id, formType, 3, auth);
    if (saved === undefined) return;
    steps = saved;
  }
  if (stage === 'steps') return readBack(user, id, auth, steps);

  const checked = await creditCheckA(user, id, auth);
  if (!checked) return;
  if (stage === 'checked') return readBack(user, id, auth, steps);

  const offers = await match(
    user,
    `${user.home.a}/applications/${id}/match`,
    'A POST /applications/:id/match',
    id,
    auth,
    undefined,
  );
  if (!offers) return;
  if (stage === 'full') await followLink(user, id, offers);
  await readBack(user, id, auth, steps);
}

async function createA(
  user: User,
  partner: LoadPartner,
  formType: LoanType,
  auth: Record<string, string>,
): Promise<string | undefined> {
  const key = user.key('create');
  const body = { formType, data: stepData(formType, 1) };
  const send = (server: Server) =>
    user.rec.send({
      endpoint: 'A POST /applications',
      method: 'POST',
      url: `${server.a}/applications`,
      headers: { ...auth, 'Idempotency-Key': key },
      body,
    });

  if (chance(0.05)) {
    user.ledger.note('A create: concurrent duplicates');
    return duplicateCreates(user, [send(user.home), send(user.other)], partner, 'A', formType, 'concurrent creates');
  }
  const created = await send(user.home);
  if (!user.expect('A create', created, 201)) return undefined;
  const id = acknowledgeCreate(user, created, partner, 'A', formType, 'A create');
  if (!id) return undefined;
  if (chance(0.1)) {
    user.ledger.note('A create: replay');
    const again = await send(pick(user.world.servers));
    if (user.expect('A create replay', again, 201)) user.checkReplay('A create replay', created, again);
  }
  if (chance(0.02)) {
    user.ledger.note('A create: key reused for another body');
    const reused = await user.rec.send({
      endpoint: 'A POST /applications',
      method: 'POST',
      url: `${user.home.a}/applications`,
      headers: { ...auth, 'Idempotency-Key': key },
      body: { formType, data: stepData(formType, 1), extra: user.seq },
    });
    if (user.expect('A create, same key, other body', reused, 422) && reused.body?.error !== 'IDEMPOTENCY_KEY_REUSED')
      user.rec.anomaly('expected IDEMPOTENCY_KEY_REUSED', reused);
  }
  return id;
}

async function creditCheckA(user: User, id: string, auth: Record<string, string>): Promise<boolean> {
  const url = `${user.home.a}/applications/${id}/credit-check`;
  const body = {
    data: validApplicant({
      firstName: pick(['Jordan', 'Alex', 'Sam', 'Priya', 'Wei']),
      email: `applicant.${user.n}.${user.seq}@example.com`,
    }),
  };
  const send = (server: Server, key: string, score: string | undefined) =>
    user.rec.send({
      endpoint: 'A POST /applications/:id/credit-check',
      method: 'POST',
      url: url.replace(user.home.a, server.a),
      headers: { ...auth, 'Idempotency-Key': key, ...(score !== undefined ? { 'X-Sandbox-Score': score } : {}) },
      body,
    });
  return runCheck(user, id, send);
}
