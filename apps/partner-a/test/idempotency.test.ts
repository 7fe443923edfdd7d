/** Variant A's Idempotency-Key: replays, reuse with another body, concurrent and failed requests, per partner. */
import { canonicalJson, type DomainContext } from '@loanmatch/domain';
import { STORAGES, VALID_STEPS, eventually } from '../../../tests/support';
import { applicantBody, applicationThroughStep4, variantASuite, type VariantA } from './helpers';

/** What a key stores of its request: a keyed digest of the request's canonical JSON under the data key. */
const fingerprintOf = (ctx: DomainContext, request: object) => ctx.personalData.digest(canonicalJson(request));

describe.each(STORAGES)('Variant A on %s', (storage) => {
  let { t, control, c, other, partnerId } = {} as VariantA;
  const { countApplications } = variantASuite(storage, (made) => {
    ({ t, control, c, other, partnerId } = made);
  });

  describe('idempotency', () => {
    it('when a create is retried with the same key, then the first answer is replayed and no second application is made', async () => {
      const body = { formType: 'personal', data: { loanAmount: 7000 } };
      const first = await c.create(body, 'replay-create');
      const before = await countApplications();
      const again = await c.create(body, 'replay-create');
      expect(again.status).toBe(201);
      expect(again.headers['idempotency-replayed']).toBe('true');
      expect(again.text).toBe(first.text);
      expect(await countApplications()).toBe(before);
    });

    it('when the same key comes with a different body, then 422 IDEMPOTENCY_KEY_REUSED', async () => {
      await c.create({ formType: 'personal', data: { loanAmount: 7000 } }, 'reuse-key');
      const res = await c.create({ formType: 'personal', data: { loanAmount: 8000 } }, 'reuse-key');
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('IDEMPOTENCY_KEY_REUSED');
    });

    it('when twelve creates with one key arrive at once, then exactly one application is made', async () => {
      const before = await countApplications();
      const body = { formType: 'home', data: VALID_STEPS.home[1] };
      const answers = await Promise.all(Array.from({ length: 12 }, () => c.create(body, 'twelve-at-once')));
      expect(await countApplications()).toBe(before + 1);
      const created = answers.filter((r) => r.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(new Set(created.map((r) => r.body.data.applicationId)).size).toBe(1);
      for (const r of answers.filter((a) => a.status !== 201)) expect(r.body.error).toBe('IDEMPOTENCY_IN_PROGRESS');
    });

    it('when the first request is still running, then a retry gets 409 IDEMPOTENCY_IN_PROGRESS', async () => {
      const id = await applicationThroughStep4(c, 'personal');
      let open!: () => void;
      control.state.gate = new Promise<void>((resolve) => (open = resolve));
      const calls = control.state.calls;
      const first = c.check(id, applicantBody(), `slow-${id}`).then((r) => r);
      // The first request holds its key once it has reached the bureau.
      expect(
        await eventually(
          () => control.state.calls,
          (n) => n > calls,
        ),
      ).toBe(calls + 1);
      const retry = await c.check(id, applicantBody(), `slow-${id}`);
      expect(retry.status).toBe(409);
      expect(retry.body.error).toBe('IDEMPOTENCY_IN_PROGRESS');
      open();
      expect((await first).status).toBe(200);
      const replay = await c.check(id, applicantBody(), `slow-${id}`);
      expect(replay.headers['idempotency-replayed']).toBe('true');
    });

    it('when the first request failed with a 5xx, then the key is unresolved, and the application can be checked with a new key', async () => {
      const id = await applicationThroughStep4(c, 'personal');
      control.state.fail = new Error('bureau exploded at /internal/secret/path');
      const failed = await c.check(id, applicantBody(), `boom-${id}`);
      expect(failed.status).toBe(500);
      expect(failed.body).toMatchObject({ success: false, error: 'INTERNAL_ERROR' });
      expect(failed.text).not.toMatch(/exploded|secret|\bat \w/);
      expect(failed.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(failed.body.message).toContain(failed.headers['x-request-id']);
      control.state.fail = undefined;
      const retry = await c.check(id, applicantBody(), `boom-${id}`);
      expect(retry.status).toBe(409);
      expect(retry.body.error).toBe('IDEMPOTENCY_KEY_UNRESOLVED');
      expect((await c.get(id)).body.data.creditCheckComplete).toBe(false);
      expect((await c.check(id, applicantBody(), `boom-new-${id}`)).status).toBe(200);
    });

    it('when the process that held a key died, then the key answers 409 IDEMPOTENCY_KEY_UNRESOLVED', async () => {
      await t.db.query(
        `INSERT INTO idempotency_keys (partner_id, key, fingerprint, state, owner_id, expires_at)
         VALUES ($1, 'orphaned', $2, 'in_progress', '00000000-0000-4000-8000-000000000000', $3)`,
        [
          partnerId,
          fingerprintOf(t.ctx, {
            operation: 'create-application',
            body: { formType: 'personal', data: { loanAmount: 5000 } },
          }),
          new Date(Date.now() + 60_000),
        ],
      );
      const res = await c.create({ formType: 'personal', data: { loanAmount: 5000 } }, 'orphaned');
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('IDEMPOTENCY_KEY_UNRESOLVED');
    });

    it('when keys of the same value come from two partners, then each partner gets its own application', async () => {
      const body = { formType: 'personal', data: { loanAmount: 9000 } };
      const a = await c.create(body, 'shared-value');
      const b = await other.create(body, 'shared-value');
      expect(b.status).toBe(201);
      expect(b.headers['idempotency-replayed']).toBeUndefined();
      expect(b.body.data.applicationId).not.toBe(a.body.data.applicationId);
    });

    it('when the credit check has no Idempotency-Key, then 400 names the header', async () => {
      const id = await applicationThroughStep4(c, 'personal');
      const res = await c.check(id, applicantBody(), undefined);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^Idempotency-Key: /);
    });
  });
});
