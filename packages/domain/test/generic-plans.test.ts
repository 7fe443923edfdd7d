/**
 * The prepared statements of the request path keep a good plan as the tables grow. PostgreSQL may plan a
 * prepared statement once for all values (its generic plan) after a few executions, with the statistics
 * of that moment, and keep it for the life of the pooled connection. A plan made while the tables were
 * empty (a new deployment, this test) must still look each row up by its key once there are millions.
 * One did not: the application's read by id and partner was planned as a scan of the partner's index,
 * filtering on the id, and read every application of the partner. Here every named statement of sql.ts
 * made once the busiest calls of both contracts ran on an empty database is planned generically and its
 * plan checked: no sequential scan of a table that grows with applications, and no application looked
 * up through the partner's index.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { namedStatements } from '../../db/src/sql';
import {
  createApplication,
  createApplicationB,
  createPartner,
  createSecretBox,
  getApplication,
  matchApplication,
  matchApplicationB,
  registerWebhook,
  runCreditCheck,
  runCreditCheckB,
  saveStep,
} from '../src';
import {
  VALID_STEPS,
  createTestContext,
  flatApplication,
  validApplicant,
  type TestContext,
} from '../../../tests/support';

/** Tables with a row (or more) per application: a scan of one of them grows with the business. */
const GROWING = [
  'applications',
  'credit_checks',
  'applicants',
  'consent_records',
  'idempotency_keys',
  'match_runs',
  'referrals',
  'webhook_events',
  'webhook_deliveries',
];

interface PgClient {
  connect(): Promise<void>;
  query(text: string): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<void>;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function* nodes(plan: PlanNode): Generator<PlanNode> {
  yield plan;
  for (const child of plan.Plans ?? []) yield* nodes(child);
}

/** What is wrong with a plan, or nothing. */
function planProblems(plan: PlanNode): string[] {
  const problems: string[] = [];
  for (const node of nodes(plan)) {
    const relation = node['Relation Name'];
    if (node['Node Type'] === 'Seq Scan' && relation && GROWING.includes(relation))
      problems.push(`sequential scan of ${relation}`);
    if (node['Index Name'] === 'applications_partner_id_created_at_idx')
      problems.push('applications looked up through the partner index');
  }
  return problems;
}

describe('generic plans of the request path on PostgreSQL', () => {
  let t: TestContext & { url?: string };
  const sent = new Map<string, string>();
  // pg is the db package's dependency, not this one's: loaded from there (the same module the service uses).
  const pg = createRequire(require.resolve('@loanmatch/db'))('pg') as {
    Client: new (config: { connectionString?: string }) => PgClient;
  };

  beforeAll(async () => {
    t = await createTestContext('postgresql');
    await busiestCalls(t);
    for (const s of namedStatements()) sent.set(s.name, s.text);
  });
  afterAll(() => t.close());

  it('when the busiest calls run, then their statements are named (prepared) ones, the ones checked below', () => {
    for (const name of [
      'lm_find_application',
      'lm_find_application_for_match',
      'lm_insert_application_keyed',
      'lm_find_live_key',
    ]) {
      expect([...sent.keys()]).toContain(name);
    }
    expect([...sent.keys()].some((name) => name.startsWith('lm_change_'))).toBe(true);
  });

  it('when each statement is planned once for all values on empty tables, then no plan scans a growing table or finds applications by partner', async () => {
    const client = new pg.Client({ connectionString: t.url });
    await client.connect();
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      const found: Record<string, string[]> = {};
      for (const [name, text] of sent) {
        const parameters = Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
        await client.query(`PREPARE ${name} AS ${text}`);
        const args = parameters ? `(${Array(parameters).fill('NULL').join(', ')})` : '';
        const explained = await client.query(`EXPLAIN (FORMAT JSON) EXECUTE ${name}${args}`);
        const problems = planProblems((explained.rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan);
        if (problems.length) found[name] = problems;
      }
      expect(found).toEqual({});
    } finally {
      await client.end();
    }
  });

  it('when a plan reads applications through the partner index, then the check says so (the check can fail)', () => {
    const scan: PlanNode = {
      'Node Type': 'Index Scan',
      'Relation Name': 'applications',
      'Index Name': 'applications_partner_id_created_at_idx',
    };
    expect(
      planProblems({
        'Node Type': 'Nested Loop',
        Plans: [scan, { 'Node Type': 'Seq Scan', 'Relation Name': 'credit_checks' }],
      }),
    ).toEqual(['applications looked up through the partner index', 'sequential scan of credit_checks']);
  });
});

/** Both contracts' create, steps, credit check, match and read, for a partner with a webhook, once. */
async function busiestCalls(t: TestContext): Promise<void> {
  const partner = await createPartner(t.ctx, { body: { name: 'Plans' } });
  if (!partner.ok) throw partner.error;
  const partnerId = partner.value.partnerId;
  const hook = await registerWebhook(t.ctx, { partnerId, body: { url: 'http://127.0.0.1:9/hooks' } });
  if (!hook.ok) throw hook.error;
  const must = <T>(result: { ok: true; value: T } | { ok: false; error: unknown }): T => {
    if (!result.ok) throw result.error;
    return result.value;
  };
  // Several times each, so that pg prepares and PostgreSQL may settle on its generic plan meanwhile.
  for (let round = 0; round < 6; round++) {
    const create = {
      partnerId,
      body: { formType: 'personal', data: VALID_STEPS.personal[1] },
      idempotencyKey: `p-${randomUUID()}`,
    };
    const created = must(await createApplication(t.ctx, create));
    must(await createApplication(t.ctx, create)); // a replay: the key is read back
    const applicationId = created.value.applicationId;
    for (const step of [2, 3, 4] as const)
      must(await saveStep(t.ctx, { partnerId, applicationId, body: { step, data: VALID_STEPS.personal[step] } }));
    must(
      await runCreditCheck(t.ctx, {
        partnerId,
        applicationId,
        body: { data: validApplicant() },
        idempotencyKey: `c-${applicationId}`,
        sandboxScore: 'good',
      }),
    );
    must(await matchApplication(t.ctx, { partnerId, applicationId }));
    // Two at once, as partners' requests come.
    for (const matched of await Promise.all([1, 2].map(() => matchApplication(t.ctx, { partnerId, applicationId }))))
      must(matched);
    await Promise.all([1, 2, 3].map(() => getApplication(t.ctx, { partnerId, applicationId })));

    const secretBox = createSecretBox([randomBytes(32)], 'plans');
    const b = must(
      await createApplicationB(t.ctx, {
        partnerId,
        body: flatApplication(),
        idempotencyKey: `b-${randomUUID()}`,
        secretBox,
      }),
    );
    const { applicationId: id, securityToken } = b.value;
    for (const step of [2, 3, 4] as const)
      must(await saveStep(t.ctx, { partnerId, applicationId: id, body: { step, data: VALID_STEPS.personal[step] } }));
    must(
      await runCreditCheckB(t.ctx, {
        partnerId,
        applicationId: id,
        body: { securityToken, ...validApplicant() },
        idempotencyKey: undefined,
        sandboxScore: 'good',
      }),
    );
    must(await matchApplicationB(t.ctx, { partnerId, applicationId: id, body: { securityToken } }));
  }
}
