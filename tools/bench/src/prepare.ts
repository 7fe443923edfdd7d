/**
 * The measured calls as request factories, with the applications each needs made beforehand: a pool
 * through the credit check for GET and match, applications at step 1 for PATCH (which then saves steps
 * 2, 3 and 4 in turn, as a partner does), fresh applications with steps 1-4 saved for the credit check
 * (each checked once, so copied in bulk by fill.ts from one the API made), and Variant B applications
 * through the credit check for B match.
 */
import { randomBytes } from 'node:crypto';
import { VALID_STEPS, flatApplication, validApplicant } from '../../../tests/support';
import { call, inParallel } from './client';
import { fillApplications } from './fill';
import { FLOOR_ROWS, type CallName, type FloorName } from './goals';
import type { HttpRequest } from './open-load';
import { withDatabase, type Service } from './service';

export interface Call {
  name: CallName | FloorName | 'hello';
  origin: string;
  /** The request of the i-th call (each phase counts from 0). */
  request: (i: number) => HttpRequest;
  /** For a call that uses an application up (one credit check each): how many are left. */
  remaining?: () => number;
}

const CONCURRENCY = 16;
const runId = randomBytes(4).toString('hex');
let keySeq = 0;
const newKey = (what: string) => `bench-${runId}-${what}-${++keySeq}`;
const json = JSON.stringify;
const STEP_BODIES = ([2, 3, 4] as const).map((step) => json({ step, data: VALID_STEPS.personal[step] }));
const CREATE_BODY = json({ formType: 'personal', data: VALID_STEPS.personal[1] });
const CHECK_BODY = json({ data: validApplicant() });

/** A call of the service (not the hello-world). */
export type ServiceCall = Call & { name: CallName };

export const helloCall = (url: string): Call => ({
  name: 'hello',
  origin: new URL(url).origin,
  request: () => ({ method: 'GET', path: '/', headers: {} }),
});

/** The floors' calls (floor.ts): a row read by its key, or a create's body inserted as a row. */
export function floorCalls(url: string): Array<Call & { name: FloorName }> {
  const origin = new URL(url).origin;
  const headers = { Authorization: 'Bearer bench-floor', 'Content-Type': 'application/json' };
  return [
    { name: 'floor-read', origin, request: (i) => ({ method: 'GET', path: `/rows/${1 + (i % FLOOR_ROWS)}`, headers }) },
    { name: 'floor-write', origin, request: () => ({ method: 'POST', path: '/rows', headers, body: CREATE_BODY }) },
  ];
}

/** Set-up requests of Variant A for one service. */
export function partnerA(service: Service) {
  const { A, apiKey } = service;
  const create = async () =>
    String(
      (
        await call(A, 'POST', '/applications', {
          auth: apiKey,
          headers: { 'Idempotency-Key': newKey('prep') },
          body: JSON.parse(CREATE_BODY),
        })
      ).applicationId,
    );
  const throughStep4 = (id: string) =>
    inSequence(
      STEP_BODIES.map(
        (body) => () => call(A, 'PATCH', `/applications/${id}`, { auth: apiKey, body: JSON.parse(body) }),
      ),
    );
  const creditCheck = (id: string, body: unknown = JSON.parse(CHECK_BODY)) =>
    call(A, 'POST', `/applications/${id}/credit-check`, {
      auth: apiKey,
      headers: { 'Idempotency-Key': newKey('prep'), 'X-Sandbox-Score': 'good' },
      body,
    });
  const match = (id: string) => call(A, 'POST', `/applications/${id}/match`, { auth: apiKey });
  /** `count` applications through the credit check. */
  const checkedPool = async (count: number) => {
    const ids: string[] = [];
    await inParallel(Array.from({ length: count }), CONCURRENCY, async () => {
      const id = await create();
      await throughStep4(id);
      await creditCheck(id);
      ids.push(id);
    });
    return ids;
  };
  return { create, throughStep4, creditCheck, match, checkedPool };
}

/** `count` copies of the partner's application `template` (fill.ts), made now. */
const copies = (service: Service, template: string, count: number): Promise<string[]> =>
  withDatabase(service.databaseUrl, (db) =>
    fillApplications(db, {
      templates: [{ id: template, share: 1 }],
      partnerIds: [service.partnerId],
      count,
      spreadOverYear: false,
      dataKey: service.dataKey,
      keepIds: true,
    }),
  );

/** Each application matched and its first offer followed; the references of the lender most of them went to, and its key. */
async function lenderLeads(service: Service, ids: string[]): Promise<{ key: string; references: string[] }> {
  const byLender = new Map<string, string[]>();
  await inParallel(ids, CONCURRENCY, async (id) => {
    const matched = await call(service.A, 'POST', `/applications/${id}/match`, { auth: service.apiKey });
    const [offer] = matched.acceptedOffers as Array<{ offerId: string; lender: { id: string }; trackingUrl: string }>;
    await fetch(`${new URL(service.A).origin}${new URL(offer.trackingUrl).pathname}`, { redirect: 'manual' });
    byLender.set(offer.lender.id, [...(byLender.get(offer.lender.id) ?? []), offer.offerId]);
  });
  const [lenderId, references] = [...byLender].sort((x, y) => y[1].length - x[1].length)[0];
  const issued = await call(service.admin, 'POST', `/lenders/${lenderId}/keys`, { auth: service.adminToken });
  return { key: String(issued.apiKey), references };
}

async function inSequence(steps: Array<() => Promise<unknown>>): Promise<void> {
  for (const step of steps) await step();
}

/**
 * The wanted calls, ready to send. `rate`: the open model's offered rate; `checkBudget`: how many credit
 * checks the phases may send in all (each needs a fresh application).
 */
export async function prepareCalls(
  service: Service,
  want: readonly CallName[],
  rate: number,
  checkBudget: number,
  log: (what: string) => void,
): Promise<ServiceCall[]> {
  const { A, B, apiKey } = service;
  const a = partnerA(service);
  const originA = new URL(A).origin;
  const basePath = new URL(A).pathname.replace(/\/$/, '');
  const auth = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
  const calls: ServiceCall[] = [];
  const has = (name: CallName) => want.includes(name);

  let pool: string[] = [];
  if (has('get') || has('match')) {
    log('256 applications through the credit check (GET, match)');
    pool = await a.checkedPool(256);
  }
  if (has('get'))
    calls.push({
      name: 'get',
      origin: originA,
      request: (i) => ({ method: 'GET', path: `${basePath}/applications/${pool[i % pool.length]}`, headers: auth }),
    });
  if (has('get-retiring')) {
    // Another partner whose Variant A is deprecated, with a sunset ahead: every answer carries the headers.
    const admin = { auth: service.adminToken };
    const other = await call(service.admin, 'POST', '/partners', { ...admin, body: { name: 'Retiring Partner' } });
    const schedule = {
      deprecatedAt: '2026-01-01T00:00:00Z',
      sunsetAt: '2099-01-01T00:00:00Z',
      link: 'https://example.com/b',
    };
    await call(service.admin, 'PUT', `/partners/${other.partnerId}/contracts/A/lifecycle`, {
      ...admin,
      body: schedule,
    });
    log('256 applications of a partner whose contract is deprecated (GET, deprecated)');
    const retiring = await partnerA({ ...service, apiKey: String(other.apiKey) }).checkedPool(256);
    const headers = { ...auth, Authorization: `Bearer ${other.apiKey}` };
    calls.push({
      name: 'get-retiring',
      origin: originA,
      request: (i) => ({ method: 'GET', path: `${basePath}/applications/${retiring[i % retiring.length]}`, headers }),
    });
  }
  if (has('lead')) {
    log('64 referrals, read by their lender (lender lead)');
    const lead = await lenderLeads(service, await a.checkedPool(64));
    calls.push({
      name: 'lead',
      origin: originA,
      request: (i) => ({
        method: 'GET',
        path: `/api/lender/v1/leads/${lead.references[i % lead.references.length]}`,
        headers: { Authorization: `Bearer ${lead.key}` },
      }),
    });
  }
  if (has('create')) {
    calls.push({
      name: 'create',
      origin: originA,
      request: () => ({
        method: 'POST',
        path: `${basePath}/applications`,
        headers: { ...auth, 'Idempotency-Key': newKey('create') },
        body: CREATE_BODY,
      }),
    });
  }
  if (has('patch')) {
    // Pass after pass over the pool: step 2 (which moves the application to in_progress), 3, 4, 2, …; a
    // pass takes ten seconds at the offered rate, so each step was answered before the next is sent.
    const size = Math.max(1000, Math.ceil(rate * 10));
    log(`${size.toLocaleString('en')} applications at step 1 (PATCH)`);
    const drafts = await copies(service, await a.create(), size);
    calls.push({
      name: 'patch',
      origin: originA,
      request: (i) => ({
        method: 'PATCH',
        path: `${basePath}/applications/${drafts[i % drafts.length]}`,
        headers: auth,
        body: STEP_BODIES[Math.floor(i / drafts.length) % 3],
      }),
    });
  }
  if (has('check')) {
    log(`${checkBudget.toLocaleString('en')} applications with steps 1-4 saved (credit check)`);
    const template = await a.create();
    await a.throughStep4(template);
    const fresh = await copies(service, template, checkBudget);
    let next = 0;
    calls.push({
      name: 'check',
      origin: originA,
      remaining: () => fresh.length - next,
      request: () => ({
        method: 'POST',
        path: `${basePath}/applications/${fresh[Math.min(next++, fresh.length - 1)]}/credit-check`,
        headers: { ...auth, 'Idempotency-Key': newKey('check'), 'X-Sandbox-Score': 'good' },
        body: CHECK_BODY,
      }),
    });
  }
  if (has('match'))
    calls.push({
      name: 'match',
      origin: originA,
      request: (i) => ({
        method: 'POST',
        path: `${basePath}/applications/${pool[i % pool.length]}/match`,
        headers: auth,
      }),
    });
  if (has('track')) {
    // Applicants of their own (e-mail and number), as lead ownership tells them apart, their clicks taken
    // in turn (one applicant's after another's); a link followed again is a click recorded before, through
    // the same transaction.
    log('64 applicants matched 4 times each, and their tracking links (tracking link)');
    const byApplicant: string[][] = [];
    await inParallel(Array.from({ length: 64 }), CONCURRENCY, async (_, n) => {
      const id = await a.create();
      await a.throughStep4(id);
      const applicant = { email: `bench-${runId}-${n}@example.com`, mobileNumber: `04${String(n).padStart(8, '0')}` };
      await a.creditCheck(id, { data: validApplicant(applicant) });
      const links: string[] = [];
      for (let m = 0; m < 4; m++) {
        const offers = (await a.match(id)).acceptedOffers as Array<{ trackingUrl: string }>;
        for (const offer of offers) links.push(new URL(offer.trackingUrl).pathname);
      }
      byApplicant.push(links);
    });
    const turns = Math.max(...byApplicant.map((l) => l.length));
    const links = Array.from({ length: turns }, (_, k) =>
      byApplicant.flatMap((l) => (k < l.length ? [l[k]] : [])),
    ).flat();
    calls.push({
      name: 'track',
      origin: originA,
      request: (i) => ({ method: 'GET', path: links[i % links.length], headers: {} }),
    });
  }
  if (has('b-match')) {
    log('64 Variant B applications through the credit check (B match)');
    const token = String(
      (await call(B, 'POST', '/auth/token', { headers: { 'X-API-Key': apiKey }, body: { grantType: 'api_key' } }))
        .accessToken,
    );
    const bAuth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const bPool: Array<{ id: string; securityToken: string }> = [];
    await inParallel(Array.from({ length: 64 }), CONCURRENCY, async () => {
      const d = await call(B, 'POST', '/applications', { headers: bAuth, body: flatApplication() });
      const b = { id: String(d.applicationId), securityToken: String(d.securityToken) };
      await a.throughStep4(b.id);
      await call(B, 'POST', `/applications/${b.id}/credit-check`, {
        headers: { ...bAuth, 'X-Sandbox-Score': 'good' },
        body: { securityToken: b.securityToken, dateOfBirth: '1988-07-14' },
      });
      bPool.push(b);
    });
    const originB = new URL(B).origin;
    const bBase = new URL(B).pathname.replace(/\/$/, '');
    calls.push({
      name: 'b-match',
      origin: originB,
      request: (i) => {
        const b = bPool[i % bPool.length];
        return {
          method: 'POST',
          path: `${bBase}/applications/${b.id}/match`,
          headers: bAuth,
          body: json({ securityToken: b.securityToken }),
        };
      },
    });
  }
  return calls;
}
