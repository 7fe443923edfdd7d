/**
 * The virtual users of the load test. Each one runs whole partner flows back to back until the
 * deadline, picking at random: Variant A (create with an Idempotency-Key, steps 2-4, step 5 with the
 * credit check, match, one tracking link, read back) for the three loan types, and Variant B (token,
 * flat create, steps 2-4 through A, credit check and match with the security token). Some flows stop
 * part-way, as applicants do; some requests are sent again with the same key (replays) or twice at
 * once (concurrent duplicates, one to each server process). Every acknowledged result goes into the
 * ledger; every answer that is not one the contract allows for that request is an anomaly.
 */
import { LOAN_TYPES, VALID_STEPS, flatApplication, validApplicant, type LoanType } from '@loanmatch/testing';
import { expectedLastStep, expectedStatus, type Ledger } from './ledger';
import type { Answer, Recorder } from './recorder';

export interface Server {
  /** Variant A's base, `http://127.0.0.1:<port>/api/partner/v1`. */
  a: string;
  /** Variant B's base, `http://127.0.0.1:<port>/v1`. */
  b: string;
}

export interface LoadPartner {
  partnerId: string;
  apiKeys: string[];
}

export interface World {
  servers: Server[];
  partners: LoadPartner[];
  rec: Recorder;
  ledger: Ledger;
  runId: string;
  deadline: number;
}

type Stage = 'created' | 'steps' | 'checked' | 'matched' | 'full';
const STAGES: Array<[Stage, number]> = [
  ['created', 5],
  ['steps', 8],
  ['checked', 7],
  ['matched', 10],
  ['full', 70],
];
/** Scores from every band, numbers, an outage, and none (the stable sandbox score). */
const SCORES: Array<string | undefined> = [
  'excellent',
  'very_good',
  'good',
  'average',
  'below_average',
  'poor',
  'unavailable',
  '850',
  '700',
  '400',
  undefined,
];

const chance = (p: number) => Math.random() < p;
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
const between = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
/** Numbers may be sent as numeric strings (spec 2.1): now and then, do. */
const num = (n: number): number | string => (chance(0.2) ? String(n) : n);

/** JSON with keys sorted: the same data, whatever order the database gives the keys in. */
function sorted(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

function weighted<T>(items: Array<[T, number]>): T {
  let r = Math.random() * items.reduce((a, [, w]) => a + w, 0);
  for (const [item, w] of items) {
    r -= w;
    if (r < 0) return item;
  }
  return items[items.length - 1][0];
}

/** Valid data for a step, with the amounts that matter to matching varied. */
function stepData(formType: LoanType, step: 1 | 2 | 3 | 4): Record<string, unknown> {
  const base: Record<string, unknown> = { ...VALID_STEPS[formType][step] };
  const income = num(between(2500, 22000));
  if (formType === 'personal') {
    if (step === 1) base.loanAmount = num(between(2000, 90000));
    if (step === 2) base.loanTerm = between(1, 7);
    if (step === 3) base.grossMonthlyIncome = income;
  } else if (formType === 'car') {
    if (step === 2) Object.assign(base, { loanAmount: num(between(5000, 60000)), loanTerm: between(1, 5) });
    if (step === 3) base.grossMonthlyIncome = income;
  } else {
    if (step === 3) base.loanAmount = num(between(100000, 700000));
    if (step === 4) base.grossMonthlyIncome = income;
  }
  return base;
}

export class VirtualUser {
  private seq = 0;
  private tokens = new Map<string, string>();
  private flows = 0;

  constructor(
    private readonly world: World,
    private readonly n: number,
  ) {}

  private get rec(): Recorder {
    return this.world.rec;
  }

  private get ledger(): Ledger {
    return this.world.ledger;
  }

  /** This user's server; duplicates go one to each. */
  private get home(): Server {
    return this.world.servers[this.n % this.world.servers.length];
  }

  private get other(): Server {
    return this.world.servers[(this.n + 1) % this.world.servers.length];
  }

  private key(what: string): string {
    return `load-${this.world.runId}-${this.n}-${++this.seq}-${what}`;
  }

  async run(): Promise<void> {
    while (Date.now() < this.world.deadline) {
      const partner = pick(this.world.partners);
      if (chance(0.3)) await this.flowB(partner);
      else await this.flowA(partner, pick(LOAN_TYPES));
      this.flows++;
    }
  }

  /** True when `answer` has one of the `allowed` statuses; otherwise an anomaly (or an unknown, already recorded). */
  private expect(what: string, answer: Answer | undefined, ...allowed: number[]): answer is Answer {
    if (!answer) return false;
    if (allowed.includes(answer.status)) return true;
    this.rec.anomaly(`${what}: expected ${allowed.join(' or ')}`, answer);
    return false;
  }

  // --- Variant A ------------------------------------------------------------------------------------

  private async flowA(partner: LoadPartner, formType: LoanType): Promise<void> {
    const stage = weighted(STAGES);
    const apiKey = pick(partner.apiKeys);
    const auth = { Authorization: `Bearer ${apiKey}` };
    const id = await this.createA(partner, formType, auth);
    if (!id) return;
    let steps: unknown;
    if (stage === 'created') return this.readBack(id, auth, steps);

    if (chance(0.03)) {
      this.ledger.note('A step out of order refused');
      const early = await this.rec.send({
        endpoint: 'A PATCH /applications/:id',
        method: 'PATCH',
        url: `${this.home.a}/applications/${id}`,
        headers: auth,
        body: { step: 4, data: stepData(formType, 4) },
      });
      if (this.expect('PATCH step 4 before step 2', early, 409) && early.body?.error !== 'STEP_OUT_OF_ORDER')
        this.rec.anomaly('PATCH step 4 before step 2: expected STEP_OUT_OF_ORDER', early);
    }
    const lastStep = stage === 'steps' ? between(2, 4) : 4;
    for (let step = 2 as 2 | 3 | 4; step <= lastStep; step++) {
      const saved = await this.saveStep(id, formType, step, auth);
      if (saved === undefined) return;
      steps = saved;
    }
    if (lastStep === 4 && chance(0.05)) {
      this.ledger.note('A step sent again (replaced)');
      const saved = await this.saveStep(id, formType, 3, auth);
      if (saved === undefined) return;
      steps = saved;
    }
    if (stage === 'steps') return this.readBack(id, auth, steps);

    const checked = await this.creditCheckA(id, auth);
    if (!checked) return;
    if (stage === 'checked') return this.readBack(id, auth, steps);

    const offers = await this.match(
      `${this.home.a}/applications/${id}/match`,
      'A POST /applications/:id/match',
      id,
      auth,
      undefined,
    );
    if (!offers) return;
    if (stage === 'full') await this.followLink(id, offers);
    await this.readBack(id, auth, steps);
  }

  private async createA(
    partner: LoadPartner,
    formType: LoanType,
    auth: Record<string, string>,
  ): Promise<string | undefined> {
    const key = this.key('create');
    const body = { formType, data: stepData(formType, 1) };
    const send = (server: Server) =>
      this.rec.send({
        endpoint: 'A POST /applications',
        method: 'POST',
        url: `${server.a}/applications`,
        headers: { ...auth, 'Idempotency-Key': key },
        body,
      });

    if (chance(0.05)) {
      this.ledger.note('A create: concurrent duplicates');
      return this.duplicateCreates([send(this.home), send(this.other)], partner, 'A', formType, 'concurrent creates');
    }
    const created = await send(this.home);
    if (!this.expect('A create', created, 201)) return undefined;
    const id = this.acknowledgeCreate(created, partner, 'A', formType, 'A create');
    if (!id) return undefined;
    if (chance(0.1)) {
      this.ledger.note('A create: replay');
      const again = await send(pick(this.world.servers));
      if (this.expect('A create replay', again, 201)) this.checkReplay('A create replay', created, again);
    }
    if (chance(0.02)) {
      this.ledger.note('A create: key reused for another body');
      const reused = await this.rec.send({
        endpoint: 'A POST /applications',
        method: 'POST',
        url: `${this.home.a}/applications`,
        headers: { ...auth, 'Idempotency-Key': key },
        body: { formType, data: stepData(formType, 1), extra: this.seq },
      });
      if (this.expect('A create, same key, other body', reused, 422) && reused.body?.error !== 'IDEMPOTENCY_KEY_REUSED')
        this.rec.anomaly('expected IDEMPOTENCY_KEY_REUSED', reused);
    }
    return id;
  }

  /** Two identical creates at once: one runs; the other waits its turn (409) or is the replay. Never two applications. */
  private async duplicateCreates(
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
      if (!this.expect(what, answer, 201, 409)) continue;
      if (answer.status === 409) {
        if (answer.body?.error !== 'IDEMPOTENCY_IN_PROGRESS')
          this.rec.anomaly(`${what}: expected IDEMPOTENCY_IN_PROGRESS`, answer);
        continue;
      }
      if (answer.headers.get('idempotency-replayed') !== 'true') fresh++;
      const id = this.acknowledgeCreate(answer, partner, contract, formType, what, true);
      if (id) ids.add(id);
      if (first) this.checkReplay(what, first, answer);
      else first = answer;
    }
    if (ids.size > 1 || fresh > 1)
      this.rec.anomaly(`${what}: one key made ${ids.size} applications (${fresh} not marked as replays)`);
    if (answers.every((a) => a && a.status === 409)) this.rec.anomaly(`${what}: neither of two creates ran`);
    return ids.size === 1 ? [...ids][0] : undefined;
  }

  /** Enters a 201 into the ledger; answers its application id. */
  private acknowledgeCreate(
    answer: Answer,
    partner: LoadPartner,
    contract: 'A' | 'B',
    formType: string,
    what: string,
    mayBeKnown = false,
  ): string | undefined {
    const id = answer.body?.data?.applicationId;
    if (typeof id !== 'string') {
      this.rec.anomaly(`${what}: 201 without an applicationId`, answer);
      return undefined;
    }
    const isNew = this.ledger.created({ id, partnerId: partner.partnerId, contract, formType });
    if (!isNew && !mayBeKnown) this.rec.anomaly(`${what}: a new key answered an existing application ${id}`, answer);
    return id;
  }

  /** A replay answers the first answer, byte for byte, marked `Idempotency-Replayed: true`. */
  private checkReplay(what: string, first: Answer, again: Answer): void {
    if (again.text !== first.text) this.rec.anomaly(`${what}: the replay differs from the first answer`, again);
    const replayed = [first, again].filter((a) => a.headers.get('idempotency-replayed') === 'true').length;
    if (replayed !== 1)
      this.rec.anomaly(`${what}: ${replayed} of two answers marked Idempotency-Replayed, expected 1`, again);
  }

  /** PATCH one step; answers the application's steps as saved. */
  private async saveStep(
    id: string,
    formType: LoanType,
    step: 2 | 3 | 4,
    auth: Record<string, string>,
  ): Promise<unknown> {
    const saved = await this.rec.send({
      endpoint: 'A PATCH /applications/:id',
      method: 'PATCH',
      url: `${this.home.a}/applications/${id}`,
      headers: auth,
      body: { step, data: stepData(formType, step) },
    });
    if (!this.expect(`PATCH step ${step}`, saved, 200)) return undefined;
    this.ledger.get(id).stepsSaved.add(step);
    if (saved.body?.data?.lastStep < step)
      this.rec.anomaly(`PATCH step ${step}: lastStep ${saved.body?.data?.lastStep}`, saved);
    return saved.body?.data?.steps;
  }

  private async creditCheckA(id: string, auth: Record<string, string>): Promise<boolean> {
    const url = `${this.home.a}/applications/${id}/credit-check`;
    const body = {
      data: validApplicant({
        firstName: pick(['Jordan', 'Alex', 'Sam', 'Priya', 'Wei']),
        email: `applicant.${this.n}.${this.seq}@example.com`,
      }),
    };
    const send = (server: Server, key: string, score: string | undefined) =>
      this.rec.send({
        endpoint: 'A POST /applications/:id/credit-check',
        method: 'POST',
        url: url.replace(this.home.a, server.a),
        headers: { ...auth, 'Idempotency-Key': key, ...(score !== undefined ? { 'X-Sandbox-Score': score } : {}) },
        body,
      });
    return this.runCheck(id, send);
  }

  /**
   * The credit check, with now and then a replay, a concurrent duplicate under the same key, a race
   * of two keys (with scores of different bands: the stored band must be the acknowledged one's), or a
   * second check under a new key afterwards.
   */
  private async runCheck(
    id: string,
    send: (server: Server, key: string, score: string | undefined) => Promise<Answer | undefined>,
  ): Promise<boolean> {
    const key = this.key('check');
    const score = pick(SCORES);
    const mode = weighted<'once' | 'sameKey' | 'twoKeys'>([
      ['once', 90],
      ['sameKey', 5],
      ['twoKeys', 5],
    ]);
    let acknowledged: { answer: Answer; key: string; score: string | undefined } | undefined;
    if (mode === 'once') {
      const answer = await send(this.home, key, score);
      if (this.expect('credit check', answer, 200)) acknowledged = { answer, key, score };
    } else {
      this.ledger.note(
        mode === 'sameKey' ? 'check: concurrent duplicates, one key' : 'check: concurrent checks, two keys',
      );
      const requests = [
        { key, score },
        mode === 'sameKey'
          ? { key, score }
          : { key: this.key('check-race'), score: score === 'poor' ? 'excellent' : 'poor' },
      ];
      const answers = await Promise.all([
        send(this.home, requests[0].key, requests[0].score),
        send(this.other, requests[1].key, requests[1].score),
      ]);
      const fresh: number[] = [];
      answers.forEach((answer, i) => {
        if (!this.expect(`concurrent checks (${mode})`, answer, 200, 409)) return;
        if (answer.status === 409) {
          const allowed =
            mode === 'sameKey'
              ? ['IDEMPOTENCY_IN_PROGRESS']
              : ['CREDIT_CHECK_IN_PROGRESS', 'CREDIT_CHECK_ALREADY_COMPLETED'];
          if (!allowed.includes(answer.body?.error))
            this.rec.anomaly(`concurrent checks (${mode}): expected ${allowed.join(' or ')}`, answer);
          return;
        }
        if (answer.headers.get('idempotency-replayed') !== 'true') fresh.push(i);
      });
      if (fresh.length !== 1)
        this.rec.anomaly(`concurrent checks (${mode}): ${fresh.length} checks ran, expected exactly 1`);
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
      this.rec.anomaly('credit check: unexpected answer', acknowledged.answer);
    }
    if ('score' in (view ?? {}) || /"score"/.test(acknowledged.answer.text))
      this.rec.anomaly('credit check: a score in the answer');
    this.ledger.get(id).check = { score: acknowledged.score };

    if (chance(0.1)) {
      this.ledger.note('check: replay');
      const again = await send(pick(this.world.servers), acknowledged.key, acknowledged.score);
      if (this.expect('credit check replay', again, 200))
        this.checkReplay('credit check replay', acknowledged.answer, again);
    }
    if (chance(0.03)) {
      this.ledger.note('check: second check under a new key refused');
      const second = await send(this.home, this.key('check-again'), score);
      if (this.expect('second credit check', second, 409) && second.body?.error !== 'CREDIT_CHECK_ALREADY_COMPLETED')
        this.rec.anomaly('expected CREDIT_CHECK_ALREADY_COMPLETED', second);
    }
    return true;
  }

  /** Match; answers the accepted offers (each call is a run of its own). */
  private async match(
    url: string,
    endpoint: string,
    id: string,
    headers: Record<string, string>,
    body: unknown,
  ): Promise<Array<{ offerId: string; trackingUrl: string }> | undefined> {
    const times = chance(0.05) ? 2 : 1;
    let offers: Array<{ offerId: string; trackingUrl: string }> | undefined;
    for (let i = 0; i < times; i++) {
      const matched = await this.rec.send({ endpoint, method: 'POST', url, headers, body });
      if (!this.expect('match', matched, 200)) return undefined;
      this.ledger.get(id).matches++;
      offers = matched.body?.data?.acceptedOffers;
      if (!Array.isArray(offers) || !Array.isArray(matched.body?.data?.nearMissOffers)) {
        this.rec.anomaly('match: no offer lists', matched);
        return undefined;
      }
    }
    if (times === 2) this.ledger.note('match: twice');
    this.ledger.note(offers!.length ? 'match: with accepted offers' : 'match: no accepted offer');
    return offers;
  }

  /** Follows one accepted offer's tracking link as a browser would, on either server; now and then twice, or twice at once. */
  private async followLink(id: string, offers: Array<{ offerId: string; trackingUrl: string }>): Promise<void> {
    if (offers.length === 0) return;
    const offer = pick(offers);
    const path = new URL(offer.trackingUrl).pathname;
    const click = (server: Server) =>
      this.rec.send({
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
    if (mode !== 'once') this.ledger.note(`tracking link: clicked ${mode === 'twice' ? 'twice' : 'twice at once'}`);
    const answers =
      mode === 'together'
        ? await Promise.all([click(this.home), click(this.other)])
        : [await click(pick(this.world.servers))];
    if (mode === 'twice') answers.push(await click(pick(this.world.servers)));
    for (const answer of answers) {
      if (!this.expect('tracking link', answer, 302)) continue;
      const location = answer.headers.get('location') ?? '';
      if (new URL(location).searchParams.get('lm_ref') !== offer.offerId)
        this.rec.anomaly(`tracking link: Location ${location} does not carry lm_ref=${offer.offerId}`);
      this.ledger.get(id).referrals.add(offer.offerId);
    }
  }

  /** GET the application: status, last step, steps and the check as the ledger says. */
  private async readBack(id: string, auth: Record<string, string>, steps: unknown): Promise<void> {
    const got = await this.rec.send({
      endpoint: 'A GET /applications/:id',
      method: 'GET',
      url: `${this.home.a}/applications/${id}`,
      headers: auth,
    });
    if (!this.expect('GET application', got, 200)) return;
    const app = this.ledger.get(id);
    const data = got.body?.data ?? {};
    const want = {
      status: expectedStatus(app),
      lastStep: expectedLastStep(app),
      creditCheckComplete: app.check !== undefined,
    };
    const seen = { status: data.status, lastStep: data.lastStep, creditCheckComplete: data.creditCheckComplete };
    if (JSON.stringify(want) !== JSON.stringify(seen))
      this.rec.anomaly(`GET application: expected ${JSON.stringify(want)}`, got);
    if (steps !== undefined && sorted(data.steps) !== sorted(steps))
      this.rec.anomaly('GET application: steps differ from those last saved', got);
  }

  // --- Variant B ------------------------------------------------------------------------------------

  private async token(partner: LoadPartner): Promise<string | undefined> {
    const held = this.tokens.get(partner.partnerId);
    if (held && this.flows % 20 !== 0) return held;
    const answer = await this.rec.send({
      endpoint: 'B POST /auth/token',
      method: 'POST',
      url: `${this.home.b}/auth/token`,
      headers: { 'X-API-Key': pick(partner.apiKeys) },
      body: { grantType: 'api_key' },
    });
    if (!this.expect('B token', answer, 200)) return undefined;
    const token = answer.body?.data?.accessToken;
    this.tokens.set(partner.partnerId, token);
    return token;
  }

  private async flowB(partner: LoadPartner): Promise<void> {
    const stage = weighted(STAGES);
    const token = await this.token(partner);
    if (!token) return;
    const bearer = { Authorization: `Bearer ${token}` };
    const apiKeyAuth = { Authorization: `Bearer ${pick(partner.apiKeys)}` };
    const consentAtCreate = chance(0.5);
    const created = await this.createB(partner, bearer, consentAtCreate);
    if (!created) return;
    const { id, securityToken } = created;
    let steps: unknown;
    if (stage === 'created') return this.readBack(id, apiKeyAuth, steps);

    const lastStep = stage === 'steps' ? between(2, 4) : 4;
    for (let step = 2 as 2 | 3 | 4; step <= lastStep; step++) {
      const saved = await this.saveStep(id, 'personal', step, apiKeyAuth);
      if (saved === undefined) return;
      steps = saved;
    }
    if (stage === 'steps') return this.readBack(id, apiKeyAuth, steps);

    if (chance(0.03)) {
      this.ledger.note('B wrong security token refused');
      const wrong = await this.rec.send({
        endpoint: 'B POST /applications/:id/credit-check',
        method: 'POST',
        url: `${this.home.b}/applications/${id}/credit-check`,
        headers: bearer,
        body: { securityToken: 'st_not-this-one', dateOfBirth: '1988-07-14' },
      });
      if (
        this.expect('B check with a wrong security token', wrong, 403) &&
        wrong.body?.error !== 'INVALID_SECURITY_TOKEN'
      )
        this.rec.anomaly('expected INVALID_SECURITY_TOKEN', wrong);
    }
    const checkBody = {
      securityToken,
      dateOfBirth: pick(['1988-07-14', '14/07/1988', '1975-01-30']),
      ...(consentAtCreate ? {} : { consentCreditCheck: true }),
    };
    const checked = await this.runCheck(id, (server, key, score) =>
      this.rec.send({
        endpoint: 'B POST /applications/:id/credit-check',
        method: 'POST',
        url: `${server.b}/applications/${id}/credit-check`,
        headers: { ...bearer, 'Idempotency-Key': key, ...(score !== undefined ? { 'X-Sandbox-Score': score } : {}) },
        body: checkBody,
      }),
    );
    if (!checked) return;
    if (stage === 'checked') return this.readBack(id, apiKeyAuth, steps);

    const offers = await this.match(
      `${this.home.b}/applications/${id}/match`,
      'B POST /applications/:id/match',
      id,
      bearer,
      { securityToken },
    );
    if (!offers) return;
    if (stage === 'full') await this.followLink(id, offers);
    await this.readBack(id, apiKeyAuth, steps);
  }

  private async createB(
    partner: LoadPartner,
    bearer: Record<string, string>,
    consent: boolean,
  ): Promise<{ id: string; securityToken: string } | undefined> {
    const key = this.key('b-create');
    const body = flatApplication({
      loanAmount: num(between(2000, 90000)),
      ...(consent ? {} : { consentCreditCheck: undefined }),
    });
    const send = (server: Server) =>
      this.rec.send({
        endpoint: 'B POST /applications',
        method: 'POST',
        url: `${server.b}/applications`,
        headers: { ...bearer, 'Idempotency-Key': key },
        body,
      });
    let created: Answer | undefined;
    if (chance(0.05)) {
      this.ledger.note('B create: concurrent duplicates');
      const [first, second] = [send(this.home), send(this.other)];
      const id = await this.duplicateCreates([first, second], partner, 'B', 'personal', 'concurrent B creates');
      if (!id) return undefined;
      created = [await first, await second].find((a) => a?.status === 201);
    } else {
      created = await send(this.home);
      if (!this.expect('B create', created, 201)) return undefined;
      if (!this.acknowledgeCreate(created, partner, 'B', 'personal', 'B create')) return undefined;
      if (chance(0.1)) {
        this.ledger.note('B create: replay');
        const again = await send(pick(this.world.servers));
        if (this.expect('B create replay', again, 201)) this.checkReplay('B create replay', created, again);
      }
    }
    const data = created?.body?.data;
    if (typeof data?.securityToken !== 'string') {
      this.rec.anomaly('B create: no securityToken', created);
      return undefined;
    }
    return { id: data.applicationId, securityToken: data.securityToken };
  }
}

/**
 * A partner of the free tier, kept at a real hourly limit, asking for tokens and creating
 * applications at a steady pace: it is refused with 429 once over the limit, never with a 5xx, and
 * what it created before is all there is.
 */
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
