/**
 * After the load: the database, read directly, must hold exactly what the clients were told, no more
 * and no less. Answers one line per disagreement (empty when all is well) and the counts compared.
 */
import { Client } from 'pg';
import { expectedCheck, expectedHistory, expectedLastStep, expectedStatus, type Ledger } from './ledger';

export interface Verified {
  problems: string[];
  counts: Record<string, number>;
}

export async function verifyDatabase(url: string, ledger: Ledger): Promise<Verified> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await compare(client, ledger);
  } finally {
    await client.end();
  }
}

async function compare(db: Client, ledger: Ledger): Promise<Verified> {
  const problems: string[] = [];
  const problem = (line: string) => {
    if (problems.length < 200) problems.push(line);
  };
  const apps = ledger.apps;

  // Applications: exactly the acknowledged ones, each with its partner, type, status and last step.
  const rows = (await db.query('SELECT id, partner_id, form_type, status, last_step FROM applications')).rows;
  const inDb = new Set<string>();
  for (const row of rows) {
    inDb.add(row.id);
    const app = apps.get(row.id);
    if (!app) {
      problem(
        `application ${row.id} (${row.form_type}, ${row.status}) is in the database but no create of it was acknowledged`,
      );
      continue;
    }
    const want = {
      partner_id: app.partnerId,
      form_type: app.formType,
      status: expectedStatus(app),
      last_step: expectedLastStep(app),
    };
    const seen = { partner_id: row.partner_id, form_type: row.form_type, status: row.status, last_step: row.last_step };
    if (JSON.stringify(want) !== JSON.stringify(seen))
      problem(`application ${row.id}: expected ${JSON.stringify(want)}, found ${JSON.stringify(seen)}`);
  }
  for (const id of apps.keys())
    if (!inDb.has(id)) problem(`application ${id} was acknowledged (201) but is not in the database`);

  // Credit checks: one, completed, for each acknowledged check, with the band its score header gives; none other.
  const checks = (await db.query('SELECT application_id, status, band, degraded_mode, sandbox_mode FROM credit_checks'))
    .rows;
  const checked = new Set<string>();
  for (const row of checks) {
    checked.add(row.application_id);
    const check = apps.get(row.application_id)?.check;
    if (!check) {
      problem(`credit check of ${row.application_id} (${row.status}) is in the database but none was acknowledged`);
      continue;
    }
    const want = expectedCheck(check.score);
    if (
      row.status !== 'completed' ||
      row.sandbox_mode !== true ||
      row.degraded_mode !== want.degraded ||
      (want.band === 'any' ? row.band === null : row.band !== want.band)
    ) {
      problem(
        `credit check of ${row.application_id} (X-Sandbox-Score ${check.score ?? 'none'}): found status ${row.status}, band ${row.band}, degraded ${row.degraded_mode}, sandbox ${row.sandbox_mode}`,
      );
    }
  }
  for (const app of apps.values())
    if (app.check && !checked.has(app.id))
      problem(`credit check of ${app.id} was acknowledged (200) but is not in the database`);

  // Match runs: one per match answered 200.
  const runs = new Map<string, number>();
  for (const row of (
    await db.query('SELECT application_id, count(*)::int AS n FROM match_runs GROUP BY application_id')
  ).rows)
    runs.set(row.application_id, row.n);
  for (const app of apps.values()) {
    if ((runs.get(app.id) ?? 0) !== app.matches)
      problem(`application ${app.id}: ${app.matches} matches answered 200, ${runs.get(app.id) ?? 0} match runs stored`);
  }
  for (const id of runs.keys()) if (!apps.has(id)) problem(`match runs of an unacknowledged application ${id}`);

  // Referrals: exactly the offers whose tracking link answered 302, each recorded once against its application and partner.
  const offers = new Map<string, string>();
  for (const app of apps.values()) for (const offerId of app.referrals) offers.set(offerId, app.id);
  const referrals = (await db.query('SELECT offer_id, application_id, partner_id FROM referrals')).rows;
  const referred = new Set<string>();
  for (const row of referrals) {
    if (referred.has(row.offer_id)) problem(`offer ${row.offer_id} has more than one referral`);
    referred.add(row.offer_id);
    const appId = offers.get(row.offer_id);
    if (!appId) problem(`referral of offer ${row.offer_id} is in the database but no click on it was acknowledged`);
    else if (row.application_id !== appId || row.partner_id !== apps.get(appId)!.partnerId)
      problem(`referral of offer ${row.offer_id} is recorded against ${row.application_id}/${row.partner_id}`);
  }
  for (const offerId of offers.keys())
    if (!referred.has(offerId)) problem(`the click on offer ${offerId} answered 302 but no referral is stored`);

  // The status history (the webhook outbox): each status reached announced exactly once, in order.
  // A second credit check, a lost transition or one applied twice shows here even when the row looks right.
  const history = new Map<string, string[]>();
  const events = await db.query(
    "SELECT application_id, data->>'status' AS status FROM webhook_events WHERE type = 'application.status_changed' ORDER BY seq",
  );
  for (const row of events.rows) {
    let list = history.get(row.application_id);
    if (!list) {
      list = [];
      history.set(row.application_id, list);
    }
    list.push(row.status);
  }
  for (const app of apps.values()) {
    const want = expectedHistory(app).join(' → ');
    const seen = (history.get(app.id) ?? []).join(' → ');
    if (want !== seen) problem(`application ${app.id}: status events ${seen || '(none)'}, expected ${want}`);
  }
  for (const id of history.keys()) if (!apps.has(id)) problem(`status events of an unacknowledged application ${id}`);

  // Applicant rows: Variant B's intake at create, step 5 at the check; none for an A application not checked.
  const applicants = new Set<string>(
    (await db.query('SELECT application_id FROM applicants')).rows.map((r) => r.application_id),
  );
  for (const app of apps.values()) {
    const want = app.contract === 'B' || app.check !== undefined;
    if (applicants.has(app.id) !== want)
      problem(
        `application ${app.id} (${app.contract}, ${app.check ? 'checked' : 'not checked'}): applicant row ${want ? 'missing' : 'present'}`,
      );
  }

  // No idempotency key left in progress or unresolved: every request finished, none failed part-way.
  const open = (
    await db.query("SELECT state, count(*)::int AS n FROM idempotency_keys WHERE state <> 'completed' GROUP BY state")
  ).rows;
  for (const row of open) problem(`${row.n} idempotency keys left ${row.state}`);

  return {
    problems,
    counts: {
      applications: rows.length,
      'credit checks': checks.length,
      'match runs': [...runs.values()].reduce((a, b) => a + b, 0),
      referrals: referrals.length,
      'status events': events.rows.length,
    },
  };
}
