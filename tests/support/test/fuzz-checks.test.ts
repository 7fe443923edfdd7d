/**
 * The fuzzers' own checks must be able to fail: each is shown a broken answer or a planted invalid row
 * and must say so. (A property whose check cannot fail proves nothing.)
 */
import { createPartner, createApplication } from '@loanmatch/domain';
import { ONE_STORAGE, VALID_STEPS, createTestContext, type TestContext } from '..';
import { checkAnswer, storedProblems, type FuzzRequest, type FuzzResponse } from '../fuzz';

const req: FuzzRequest = { method: 'GET', path: '/v1/things', headers: { 'X-Request-Id': 'caller-id' } };
const good: FuzzResponse = {
  status: 404,
  headers: { 'x-request-id': 'caller-id', 'content-type': 'application/json; charset=utf-8' },
  text: JSON.stringify({ success: false, error: 'NOT_FOUND', message: 'No such route' }),
};
const expectations = { secrets: () => ['lm_sandbox_secret-key'] };

describe('checkAnswer', () => {
  it('when the answer keeps every rule, then it passes', () => {
    expect(() => checkAnswer(req, good, expectations)).not.toThrow();
  });

  it.each<[string, Partial<FuzzResponse>, FuzzRequest?]>([
    ['a 5xx', { status: 500, text: JSON.stringify({ success: false, error: 'INTERNAL_ERROR', message: 'x' }) }],
    ['no X-Request-Id', { headers: { 'content-type': 'application/json' } }],
    ['a sane caller id not kept', { headers: { ...good.headers, 'x-request-id': 'other' } }],
    [
      'an insane caller id kept',
      { headers: { ...good.headers, 'x-request-id': 'a b' } },
      { ...req, headers: { 'X-Request-Id': 'a b' } },
    ],
    [
      'an insane caller id not replaced by a generated one',
      { headers: { ...good.headers, 'x-request-id': 'ab' } },
      { ...req, headers: { 'X-Request-Id': 'a'.repeat(129) } },
    ],
    ['text/plain', { headers: { ...good.headers, 'content-type': 'text/plain' }, text: 'GET,HEAD' }],
    [
      'an error code of another status',
      { text: JSON.stringify({ success: false, error: 'VALIDATION_ERROR', message: 'x' }) },
    ],
    ['no envelope', { text: JSON.stringify({ error: 'NOT_FOUND' }) }],
    [
      'a stack frame',
      {
        text: JSON.stringify({
          success: false,
          error: 'NOT_FOUND',
          message: 'Error\n    at handle (/srv/app/src/x.js:12:3)',
        }),
      },
    ],
    [
      'a source path',
      { text: JSON.stringify({ success: false, error: 'NOT_FOUND', message: 'in /work/main/apps/a.ts:3' }) },
    ],
    [
      'a secret',
      { text: JSON.stringify({ success: false, error: 'NOT_FOUND', message: 'key lm_sandbox_secret-key' }) },
    ],
    ['a score field', { status: 200, text: JSON.stringify({ success: true, data: { check: { score: 700 } } }) }],
  ])('when the answer has %s, then it fails', (_case, change, request = req) => {
    expect(() => checkAnswer(request, { ...good, ...change }, expectations)).toThrow();
  });
});

describe(`storedProblems on ${ONE_STORAGE}`, () => {
  let t: TestContext;
  let partnerId: string;

  const newApplication = async (): Promise<string> => {
    const created = await createApplication(t.ctx, {
      partnerId,
      body: { formType: 'personal', data: VALID_STEPS.personal[1] },
      idempotencyKey: undefined,
    });
    if (!created.ok) throw created.error;
    return created.value.value.applicationId;
  };

  beforeAll(async () => {
    t = await createTestContext(ONE_STORAGE);
    const partner = await createPartner(t.ctx, { body: { name: 'Planted', environment: 'sandbox' } });
    if (!partner.ok) throw partner.error;
    partnerId = partner.value.partnerId;
  });
  afterAll(() => t.close());

  it('when what is stored is valid, then no problem', async () => {
    await newApplication();
    expect(await storedProblems(t, [partnerId])).toEqual([]);
  });

  // Each case plants its fault in an application of its own, written with SQL as a bug would write it.
  it.each<[string, string, RegExp]>([
    ['a step that breaks its rules', `step_1 = '{"loanAmount":5}'`, /step 1 does not validate/],
    ['a step not in normalised form', `step_1 = '{"loanAmount":"15000"}'`, /step 1 is not in normalised form/],
    [
      'a prototype key in a step',
      `step_1 = '{"loanAmount":15000,"__proto__":{"x":1}}'`,
      /step 1 holds a prototype key/,
    ],
    [
      'a step beyond the last step',
      `step_2 = '{"loanPurpose":"debt_consolidation","loanTerm":5}'`,
      /step 2 stored beyond the last step/,
    ],
    ['a last step whose steps are missing', `last_step = 3, status = 'in_progress'`, /step 2 missing/],
    ['a checked status without a check', `status = 'credit_checked'`, /without a completed check/],
  ])('when the database holds %s, then it is reported', async (_case, change, problem) => {
    const id = await newApplication();
    await t.db.query(`UPDATE applications SET ${change} WHERE id = $1::uuid`, [id]);
    expect((await storedProblems(t, [partnerId])).filter((p) => p.includes(id)).join('\n')).toMatch(problem);
  });
});
