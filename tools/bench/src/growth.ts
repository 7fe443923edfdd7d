/**
 * Cost as data grows: a service of its own (its own database), filled directly (fill.ts) to each size of
 * GROWTH.sizes, GET and match measured at each under the same open load as the latency phase, then the
 * server's resident size once it has served at the largest size. The filled applications copy four the
 * API made, a funnel's shares: at step 1, with steps 1-4, credit-checked, matched (4 : 3 : 2 : 1), spread
 * over a hundred partners and the past year. GET and match read 256 applications of the bench's partner
 * picked at random among its checked ones at each size, so that the rows read are spread over the table.
 */
import { call } from './client';
import { countApplications, fillApplications, settleDatabase } from './fill';
import { GROWTH } from './goals';
import { runOpenLoad, type OpenLoadResult } from './open-load';
import { partnerA, type Call } from './prepare';
import { residentMb } from './proc';
import { startService, withDatabase, type Service } from './service';

export interface GrowthOptions {
  rate: number;
  warmupS: number;
  durationS: number;
}

export interface GrowthStep {
  applications: number;
  fillS: number;
  results: Record<(typeof GROWTH.calls)[number], OpenLoadResult>;
}

export interface GrowthResult {
  steps: GrowthStep[];
  /** The server's resident size (now and its peak), in MB, after serving at the largest size. */
  resident?: { now: number; peak: number };
}

const FILLER_PARTNERS = 99;
/** The bench's own partner's weight among the fill's partners: about one row in ten is its own. */
const OWN_PARTNER_WEIGHT = 11;
const POOL = 256;

export async function measureGrowth(options: GrowthOptions, log: (line: string) => void): Promise<GrowthResult> {
  const service = await startService('growth');
  try {
    log('templates and partners for the fill');
    const templates = await makeTemplates(service);
    const partnerIds = [
      ...Array.from({ length: OWN_PARTNER_WEIGHT }, () => service.partnerId),
      ...(await fillerPartners(service)),
    ];
    const steps: GrowthStep[] = [];
    for (const size of GROWTH.sizes) {
      const started = Date.now();
      await withDatabase(service.databaseUrl, async (db) => {
        const missing = size - (await countApplications(db));
        log(`filling to ${size.toLocaleString('en')} applications (${missing.toLocaleString('en')} more)`);
        let reported = 0;
        await fillApplications(
          db,
          { templates, partnerIds, count: missing, spreadOverYear: true, dataKey: service.dataKey },
          (done) => {
            if (done - reported < 200_000) return;
            reported = done;
            log(`  ${done.toLocaleString('en')} written in ${Math.round((Date.now() - started) / 1000)} s`);
          },
        );
        await settleDatabase(db);
      });
      const fillS = (Date.now() - started) / 1000;
      const pool = await samplePool(
        service,
        templates.map((t) => t.id),
      );
      if (steps.length === 0) {
        // A server just started has compiled little: one round of each call, not counted, warms it.
        log('warming the server up');
        for (const name of GROWTH.calls) await runOpenLoad({ ...options, ...growthCall(service, name, pool) });
      }
      const results = {} as GrowthStep['results'];
      for (const name of GROWTH.calls) {
        log(`${name} at ${size.toLocaleString('en')} applications`);
        results[name] = await runOpenLoad({ ...options, ...growthCall(service, name, pool) });
      }
      steps.push({ applications: size, fillS, results });
    }
    return { steps, resident: residentMb(service.process.pid) };
  } finally {
    await service.stop();
  }
}

/** The four templates, made through the API, with their shares of the fill. */
async function makeTemplates(service: Service): Promise<Array<{ id: string; share: number }>> {
  const a = partnerA(service);
  const draft = await a.create();
  const [inProgress, checked, matched] = [await a.create(), await a.create(), await a.create()];
  for (const id of [inProgress, checked, matched]) await a.throughStep4(id);
  for (const id of [checked, matched]) await a.creditCheck(id);
  await a.match(matched);
  return [
    { id: draft, share: 4 },
    { id: inProgress, share: 3 },
    { id: checked, share: 2 },
    { id: matched, share: 1 },
  ];
}

async function fillerPartners(service: Service): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 1; n <= FILLER_PARTNERS; n++) {
    const p = await call(service.admin, 'POST', '/partners', {
      auth: service.adminToken,
      body: { name: `Fill Partner ${n}`, tier: 'standard' },
    });
    ids.push(String(p.partnerId));
  }
  return ids;
}

/** The applications GET and match read at one size; never a template, which a match would change for the next fill. */
async function samplePool(service: Service, templates: string[]): Promise<string[]> {
  return withDatabase(service.databaseUrl, async (db) => {
    const { rows } = await db.query<{ id: string }>(
      `SELECT id::text AS id FROM applications
        WHERE partner_id = $1::uuid AND status IN ('credit_checked', 'matched') AND id <> ALL ($2::uuid[])
        ORDER BY random() LIMIT ${POOL}`,
      [service.partnerId, templates],
    );
    return rows.map((r) => r.id);
  });
}

function growthCall(service: Service, name: (typeof GROWTH.calls)[number], pool: string[]): Call {
  const url = new URL(service.A);
  const base = url.pathname.replace(/\/$/, '');
  const headers = { Authorization: `Bearer ${service.apiKey}`, 'Content-Type': 'application/json' };
  return {
    name,
    origin: url.origin,
    request: (i) => ({
      method: name === 'get' ? 'GET' : 'POST',
      path: `${base}/applications/${pool[i % pool.length]}${name === 'get' ? '' : '/match'}`,
      headers,
    }),
  };
}
