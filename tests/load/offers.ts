/** Matching an application, now and then twice, and following one accepted offer's tracking link as a browser would. */
import { chance, pick, weighted } from './random';
import type { User } from './user';
import type { Server } from './world';

export type Offer = { offerId: string; trackingUrl: string };

/** Match; answers the accepted offers (each call is a run of its own). */
export async function match(
  user: User,
  url: string,
  endpoint: string,
  id: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<Offer[] | undefined> {
  const times = chance(0.05) ? 2 : 1;
  let offers: Offer[] | undefined;
  for (let i = 0; i < times; i++) {
    const matched = await user.rec.send({ endpoint, method: 'POST', url, headers, body });
    if (!user.expect('match', matched, 200)) return undefined;
    user.ledger.get(id).matches++;
    offers = matched.body?.data?.acceptedOffers;
    if (!Array.isArray(offers) || !Array.isArray(matched.body?.data?.nearMissOffers)) {
      user.rec.anomaly('match: no offer lists', matched);
      return undefined;
    }
  }
  if (times === 2) user.ledger.note('match: twice');
  user.ledger.note(offers!.length ? 'match: with accepted offers' : 'match: no accepted offer');
  return offers;
}

/** Follows one accepted offer's tracking link as a browser would, on either server; now and then twice, or twice at once. */
export async function followLink(user: User, id: string, offers: Offer[]): Promise<void> {
  if (offers.length === 0) return;
  const offer = pick(offers);
  const path = new URL(offer.trackingUrl).pathname;
  const click = (server: Server) =>
    user.rec.send({
      endpoint: 'GET /r/:token',
      method: 'GET',
      url: `${new URL(server.a).origin}${path}`,
      redirect: 'manual',
    });
  const mode = weighted<'once' | 'twice' | 'together'>([
    ['once', 90],
    ['twice', 5],
    ['together', 5],
  ]);
  if (mode !== 'once') user.ledger.note(`tracking link: clicked ${mode === 'twice' ? 'twice' : 'twice at once'}`);
  const answers =
    mode === 'together'
      ? await Promise.all([click(user.home), click(user.other)])
      : [await click(pick(user.world.servers))];
  if (mode === 'twice') answers.push(await click(pick(user.world.servers)));
  for (const answer of answers) {
    if (!user.expect('tracking link', answer, 302)) continue;
    const location = answer.headers.get('location') ?? '';
    if (new URL(location).searchParams.get('lm_ref') !== offer.offerId)
      user.rec.anomaly(`tracking link: Location ${location} does not carry lm_ref=${offer.offerId}`);
    user.ledger.get(id).referrals.add(offer.offerId);
  }
}
