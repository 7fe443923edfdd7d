/**
 * The credit check of either contract: the sandbox scores drawn, and the check sent once, twice at
 * once, raced under two keys, replayed or repeated, with the acknowledged one entered into the ledger.
 */
import { SANDBOX_SCORE_WORDS } from '@loanmatch/domain';
import type { Answer } from './recorder';
import { chance, pick, weighted } from './random';
import type { User } from './user';
import type { Server } from './world';

/** Every word (each band, and an outage), numbers, and none (the stable sandbox score). */
const SCORES: Array<string | undefined> = [...SANDBOX_SCORE_WORDS, '850', '700', '400', undefined];

/**
 * The credit check, with now and then a replay, a concurrent duplicate under the same key, a race
 * of two keys (with scores of different bands: the stored band must be the acknowledged one's), or a
 * second check under a new key afterwards.
 */
export async function runCheck(
  user: User,
  id: string,
  send: (server: Server, key: string, score: string | undefined) => Promise<Answer | undefined>,
): Promise<boolean> {
  const key = user.key('check');
  const score = pick(SCORES);
  const mode = weighted<'once' | 'sameKey' | 'twoKeys'>([
    ['once', 90],
    ['sameKey', 5],
    ['twoKeys', 5],
  ]);
  let acknowledged: { answer: Answer; key: string; score: string | undefined } | undefined;
  if (mode === 'once') {
    const answer = await send(user.home, key, score);
    if (user.expect('credit check', answer, 200)) acknowledged = { answer, key, score };
  } else {
    user.ledger.note(
      mode === 'sameKey' ? 'check: concurrent duplicates, one key' : 'check: concurrent checks, two keys',
    );
    const requests = [
      { key, score },
      mode === 'sameKey'
        ? { key, score }
        : { key: user.key('check-race'), score: score === 'poor' ? 'excellent' : 'poor' },
    ];
    const answers = await Promise.all([
      send(user.home, requests[0].key, requests[0].score),
      send(user.other, requests[1].key, requests[1].score),
    ]);
    const fresh: number[] = [];
    answers.forEach((answer, i) => {
      if (!user.expect(`concurrent checks (${mode})`, answer, 200, 409)) return;
      if (answer.status === 409) {
        const allowed =
          mode === 'sameKey'
            ? ['IDEMPOTENCY_IN_PROGRESS']
            : ['CREDIT_CHECK_IN_PROGRESS', 'CREDIT_CHECK_ALREADY_COMPLETED'];
        if (!allowed.includes(answer.body?.error))
          user.rec.anomaly(`concurrent checks (${mode}): expected ${allowed.join(' or ')}`, answer);
        return;
      }
      if (answer.headers.get('idempotency-replayed') !== 'true') fresh.push(i);
    });
    if (fresh.length !== 1)
      user.rec.anomaly(`concurrent checks (${mode}): ${fresh.length} checks ran, expected exactly 1`);
    else acknowledged = { answer: answers[fresh[0]]!, ...requests[fresh[0]] };
  }
  if (!acknowledged) return false;
  const view = acknowledged.answer.body?.data;
  if (
    view?.creditCheckComplete !== true ||
    view?.sandbox_mode !== true ||
    view?.degraded_mode !== (acknowledged.score === 'unavailable') ||
    view?.applicationId !== id
  ) {
    user.rec.anomaly('credit check: unexpected answer', acknowledged.answer);
  }
  if ('score' in (view ?? {}) || /"score"/.test(acknowledged.answer.text))
    user.rec.anomaly('credit check: a score in the answer');
  user.ledger.get(id).check = { score: acknowledged.score };

  if (chance(0.1)) {
    user.ledger.note('check: replay');
    const again = await send(pick(user.world.servers), acknowledged.key, acknowledged.score);
    if (user.expect('credit check replay', again, 200))
      user.checkReplay('credit check replay', acknowledged.answer, again);
  }
  if (chance(0.03)) {
    user.ledger.note('check: second check under a new key refused');
    const second = await send(user.home, user.key('check-again'), score);
    if (user.expect('second credit check', second, 409) && second.body?.error !== 'CREDIT_CHECK_ALREADY_COMPLETED')
      user.rec.anomaly('expected CREDIT_CHECK_ALREADY_COMPLETED', second);
  }
  return true;
}
