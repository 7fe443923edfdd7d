/**
 * Acknowledging a create of either contract: a 201 goes into the ledger, and two identical creates
 * sent at once must make one application, never two.
 */
import type { Answer } from './recorder';
import type { User } from './user';
import type { LoadPartner } from './world';

/** Two identical creates at once: one runs; the other waits its turn (409) or is the replay. Never two applications. */
export async function duplicateCreates(
  user: User,
  requests: Array<Promise<Answer | undefined>>,
  partner: LoadPartner,
  contract: 'A' | 'B',
  formType: string,
  what: string,
): Promise<string | undefined> {
  const answers = await Promise.all(requests);
  const ids = new Set<string>();
  let first: Answer | undefined;
  let fresh = 0;
  for (const answer of answers) {
    if (!user.expect(what, answer, 201, 409)) continue;
    if (answer.status === 409) {
      if (answer.body?.error !== 'IDEMPOTENCY_IN_PROGRESS')
        user.rec.anomaly(`${what}: expected IDEMPOTENCY_IN_PROGRESS`, answer);
      continue;
    }
    if (answer.headers.get('idempotency-replayed') !== 'true') fresh++;
    const id = acknowledgeCreate(user, answer, partner, contract, formType, what, true);
    if (id) ids.add(id);
    if (first) user.checkReplay(what, first, answer);
    else first = answer;
  }
  if (ids.size > 1 || fresh > 1)
    user.rec.anomaly(`${what}: one key made ${ids.size} applications (${fresh} not marked as replays)`);
  if (answers.every((a) => a && a.status === 409)) user.rec.anomaly(`${what}: neither of two creates ran`);
  return ids.size === 1 ? [...ids][0] : undefined;
}

/** Enters a 201 into the ledger; answers its application id. */
export function acknowledgeCreate(
  user: User,
  answer: Answer,
  partner: LoadPartner,
  contract: 'A' | 'B',
  formType: string,
  what: string,
  mayBeKnown = false,
): string | undefined {
  const id = answer.body?.data?.applicationId;
  if (typeof id !== 'string') {
    user.rec.anomaly(`${what}: 201 without an applicationId`, answer);
    return undefined;
  }
  const isNew = user.ledger.created({ id, partnerId: partner.partnerId, contract, formType });
  if (!isNew && !mayBeKnown) user.rec.anomaly(`${what}: a new key answered an existing application ${id}`, answer);
  return id;
}
