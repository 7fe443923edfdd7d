/** Variant B's credit check: the security token, consent, date of birth, idempotency and sandbox scores. */
import request from 'supertest';
import { CURRENT_CONSENT_TEXTS, readApplicantDetails } from '@loanmatch/domain';
import { STORAGES, countRows, storedRows, storedRow } from '../../../../tests/support';
import { BASE, variantBSuite, type ClientB, type VariantB } from './helpers';

describe.each(STORAGES)('Variant B on %s', (storage) => {
  let { t, counting, app, appA, mine, other, c, otherClient } = {} as VariantB;
  const { viaA, created, throughStep4 } = variantBSuite(storage, (made) => {
    ({ t, counting, app, appA, mine, other, c, otherClient } = made);
  });

  describe('credit check', () => {
    const check = (client: ClientB, id: string, body: object, options: { key?: string; score?: string } = {}) =>
      client.check(id, body, options);

    it('when steps 2-4 are saved through A and the token and date of birth are sent, then the check runs on the names from create and A sees it', async () => {
      const app = await throughStep4();
      const calls = counting.state.calls;
      const res = await check(
        c,
        app.applicationId,
        { securityToken: app.securityToken, dateOfBirth: '14/07/1988' },
        { score: 'good' },
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: { applicationId: app.applicationId, creditCheckComplete: true, degraded_mode: false, sandbox_mode: true },
      });
      expect(counting.state.calls).toBe(calls + 1);
      expect(counting.state.last!.applicant).toMatchObject({
        firstName: 'Jordan',
        lastName: 'Citizen',
        email: 'jordan.citizen@example.com',
        mobileNumber: '0412345678',
        dateOfBirth: '1988-07-14',
      });
      const got = await viaA().get(app.applicationId);
      expect(got.body.data).toMatchObject({ status: 'credit_checked', lastStep: 5, creditCheckComplete: true });
      expect(got.text).not.toContain('Jordan');
      const kept = await readApplicantDetails(t.ctx, app.applicationId);
      const details = kept.state === 'kept' ? kept.details : {};
      expect(details).toMatchObject({
        firstName: 'Jordan',
        mobileNumber: '0412345678',
        dateOfBirth: '1988-07-14',
        consentCreditCheck: true,
      });
      expect(details.loanPurpose).toBeUndefined();
    });

    it('when the check names an unknown consent wording version, then 400 VALIDATION_ERROR, the bureau is not asked and nothing is stored; the known one is recorded', async () => {
      const app = await created();
      const calls = counting.state.calls;
      const body = { securityToken: app.securityToken, consentTextVersion: 'au-1999-01-01' };
      const refused = await check(c, app.applicationId, body, { key: `consent-${app.applicationId}` });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        success: false,
        error: 'VALIDATION_ERROR',
        message: `consentTextVersion: must be one of ${CURRENT_CONSENT_TEXTS.version}`,
      });
      expect(counting.state.calls).toBe(calls);
      expect(await countRows(t.db, 'credit_checks', { applicationId: app.applicationId })).toBe(0);
      expect(await countRows(t.db, 'consent_records', { applicationId: app.applicationId })).toBe(0);

      const fixed = { ...body, consentTextVersion: CURRENT_CONSENT_TEXTS.version, consentReference: 'b-42' };
      expect((await check(c, app.applicationId, fixed, { key: `consent-${app.applicationId}` })).status).toBe(200);
      expect(await storedRows(t.db, 'consent_records', { applicationId: app.applicationId })).toEqual([
        expect.objectContaining({
          partnerId: mine.partnerId,
          textVersion: CURRENT_CONSENT_TEXTS.version,
          partnerReference: 'b-42',
        }),
      ]);
    });

    it('when GET /consents is asked with an access token, then it answers the wording by version; without one, 401', async () => {
      const res = await request(app).get(`${BASE}/consents`).set('Authorization', c.authorization);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        currentVersion: CURRENT_CONSENT_TEXTS.version,
        versions: [expect.objectContaining({ version: CURRENT_CONSENT_TEXTS.version, current: true })],
      });
      expect((await request(app).get(`${BASE}/consents`)).status).toBe(401);
    });

    it('when the application is another partner’s, unknown or malformed, then 404 whatever the token', async () => {
      const theirs = await throughStep4({}, other.apiKey, otherClient);
      for (const [id, token] of [
        [theirs.applicationId, theirs.securityToken],
        [theirs.applicationId, 'st_wrong'],
        ['6f1c1a52-2b1e-4c55-9d0e-3b8f5e1a2c3d', theirs.securityToken],
        ['not-a-uuid', theirs.securityToken],
      ]) {
        const res = await check(c, id, { securityToken: token, dateOfBirth: '1988-07-14' });
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ success: false, error: 'NOT_FOUND' });
      }
      expect((await viaA(other.apiKey).get(theirs.applicationId)).body.data.status).toBe('in_progress');
    });

    it('when the token is wrong, another application’s, or the application was made through A, then 403 INVALID_SECURITY_TOKEN, no check and nothing changed', async () => {
      const app = await throughStep4();
      const second = await created();
      const madeThroughA = await request(appA)
        .post('/api/partner/v1/applications')
        .set('Authorization', `Bearer ${mine.apiKey}`)
        .send({ formType: 'personal', data: { loanAmount: 5000 } });
      const calls = counting.state.calls;
      for (const [id, token] of [
        [app.applicationId, `st_${'x'.repeat(43)}`],
        [app.applicationId, second.securityToken],
        [app.applicationId, app.securityToken.slice(0, -1)],
        [madeThroughA.body.data.applicationId, app.securityToken],
      ]) {
        // 403 comes before any other check of the body (here: no consent, no date of birth).
        const res = await check(c, id, { securityToken: token, consentCreditCheck: false });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({
          success: false,
          error: 'INVALID_SECURITY_TOKEN',
          message: 'securityToken: is not the security token of this application',
        });
        expect(res.text).not.toContain(app.securityToken);
      }
      expect(counting.state.calls).toBe(calls);
      expect((await viaA().get(app.applicationId)).body.data).toMatchObject({
        status: 'in_progress',
        lastStep: 4,
        creditCheckComplete: false,
      });
    });

    it('when the token is missing or not a string, then 400 VALIDATION_ERROR names it', async () => {
      const app = await throughStep4();
      expect((await check(c, app.applicationId, { dateOfBirth: '1988-07-14' })).body).toMatchObject({
        error: 'VALIDATION_ERROR',
        message: 'securityToken: is required',
      });
      expect((await check(c, app.applicationId, { securityToken: 42 })).body).toMatchObject({
        error: 'VALIDATION_ERROR',
        message: 'securityToken: must be a string',
      });
    });

    it('when consent was given neither at create nor in the body, then 400 and no check runs; given in the body, the check runs', async () => {
      const app = await throughStep4({ consentCreditCheck: undefined });
      const calls = counting.state.calls;
      const refused = await check(c, app.applicationId, {
        securityToken: app.securityToken,
        dateOfBirth: '1988-07-14',
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        error: 'VALIDATION_ERROR',
        message: expect.stringMatching(/^consentCreditCheck: credit check consent is required/),
      });
      expect(counting.state.calls).toBe(calls);
      const stringy = await check(c, app.applicationId, {
        securityToken: app.securityToken,
        dateOfBirth: '1988-07-14',
        consentCreditCheck: 'true',
      });
      expect(stringy.body.message).toBe('consentCreditCheck: must be a JSON boolean (true or false)');
      const ok = await check(c, app.applicationId, {
        securityToken: app.securityToken,
        dateOfBirth: '1988-07-14',
        consentCreditCheck: true,
      });
      expect(ok.status).toBe(200);
    });

    it('when consent given at create is withdrawn in the body, then 400 and no check runs', async () => {
      const app = await throughStep4();
      const res = await check(c, app.applicationId, {
        securityToken: app.securityToken,
        dateOfBirth: '1988-07-14',
        consentCreditCheck: false,
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^consentCreditCheck: credit check consent is required/);
    });

    it('when consent given under one of its fields is withdrawn under another, by PATCH or in the body, then 400 and no check runs; given again, it runs', async () => {
      const calls = counting.state.calls;
      const patched = await throughStep4({ consentCreditCheck: undefined, creditCheckConsent: true });
      const token = { securityToken: patched.securityToken, dateOfBirth: '1988-07-14' };
      expect((await c.patch(patched.applicationId, { ...token, consentCreditCheck: false })).status).toBe(200);
      const refused = await check(c, patched.applicationId, token);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^consentCreditCheck: credit check consent is required/);
      const viaPrivacy = await throughStep4({ consentCreditCheck: undefined, privacyConsent: true });
      const body = { securityToken: viaPrivacy.securityToken, dateOfBirth: '1988-07-14', consentCreditCheck: false };
      expect((await check(c, viaPrivacy.applicationId, body)).status).toBe(400);
      expect(counting.state.calls).toBe(calls);
      expect((await check(c, viaPrivacy.applicationId, { ...body, consentCreditCheck: true })).status).toBe(200);
      expect(counting.state.calls).toBe(calls + 1);
    });

    it('when one request gives a consent under one field and withdraws it under another, at create, by PATCH or in the body, then 400 and no check runs', async () => {
      const calls = counting.state.calls;
      const refusedAfter = async (app: { applicationId: string; securityToken: string }, body: object = {}) => {
        const res = await check(c, app.applicationId, { securityToken: app.securityToken, ...body });
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(/^consentCreditCheck: credit check consent is required/);
      };
      await refusedAfter(await throughStep4({ consentCreditCheck: true, creditCheckConsent: false }));
      const patched = await throughStep4({ consentCreditCheck: undefined });
      const both = { consentCreditCheck: true, privacyConsent: false };
      expect((await c.patch(patched.applicationId, { securityToken: patched.securityToken, ...both })).status).toBe(
        200,
      );
      await refusedAfter(patched);
      await refusedAfter(await throughStep4({ consentCreditCheck: undefined }), both);
      expect(counting.state.calls).toBe(calls);
    });

    it("when an application made on A has no applicant yet, then the check's 400 names B's fields", async () => {
      const made = await request(appA)
        .post('/api/partner/v1/applications')
        .set('Authorization', `Bearer ${mine.apiKey}`)
        .send({ formType: 'personal', data: { loanAmount: 15000 } });
      const id = made.body.data.applicationId;
      const issued = await request(app)
        .post(`${BASE}/applications/${id}/security-token`)
        .set('Authorization', c.authorization);
      const res = await check(c, id, { securityToken: issued.body.data.securityToken, consentCreditCheck: true });
      expect(res.status).toBe(400);
      const fields = res.body.details.map((v: { field: string }) => v.field);
      expect(fields).toContain('phone');
      expect(fields).not.toContain('mobileNumber');
      expect(res.body.details.find((v: { field: string }) => v.field === 'phone').message).toBe('phone: is required');
    });

    it('when the date of birth is under 18 or no real date, then 400 names it; names sent in the body do not replace those of create', async () => {
      const app = await throughStep4();
      const young = new Date();
      const dob = `${young.getUTCFullYear() - 10}-01-01`;
      expect(
        (await check(c, app.applicationId, { securityToken: app.securityToken, dateOfBirth: dob })).body.message,
      ).toBe('dateOfBirth: applicant must be at least 18 years old');
      expect(
        (await check(c, app.applicationId, { securityToken: app.securityToken, dateOfBirth: '31/02/1988' })).body
          .message,
      ).toBe('dateOfBirth: must be a real date written YYYY-MM-DD or DD/MM/YYYY');
      const res = await check(c, app.applicationId, {
        securityToken: app.securityToken,
        dateOfBirth: '1988-07-14',
        firstName: 'Somebody',
        phone: '0499999999',
      });
      expect(res.status).toBe(200);
      expect(counting.state.last!.applicant).toMatchObject({ firstName: 'Jordan', mobileNumber: '0412345678' });
    });

    it("when neither the date of birth nor steps 2-4 are given, then the check runs all the same (Variant B's minimal flow has neither), and Variant A's own check still needs steps 1-4", async () => {
      const app = await created();
      const calls = counting.state.calls;
      const res = await check(c, app.applicationId, { securityToken: app.securityToken });
      expect(res.status).toBe(200);
      expect(counting.state.calls).toBe(calls + 1);
      expect(counting.state.last!.applicant).not.toHaveProperty('dateOfBirth');
      expect((await viaA().get(app.applicationId)).body.data).toMatchObject({
        status: 'credit_checked',
        lastStep: 5,
        steps: { '1': { loanAmount: 15000 } },
      });
      const throughA = await request(appA)
        .post('/api/partner/v1/applications')
        .set('Authorization', `Bearer ${mine.apiKey}`)
        .send({ formType: 'personal', data: { loanAmount: 5000 } });
      const checkA = await request(appA)
        .post(`/api/partner/v1/applications/${throughA.body.data.applicationId}/credit-check`)
        .set('Authorization', `Bearer ${mine.apiKey}`)
        .set('Idempotency-Key', `a-${throughA.body.data.applicationId}`)
        .send({
          data: {
            firstName: 'Ann',
            lastName: 'Lee',
            email: 'ann@example.com',
            mobileNumber: '0412345678',
            dateOfBirth: '1990-01-01',
            consentCreditCheck: true,
          },
        });
      expect(checkA.status).toBe(409);
      expect(checkA.body).toMatchObject({
        error: 'STEPS_INCOMPLETE',
        message: expect.stringContaining('missing step 2, 3, 4'),
      });
    });

    it('when the check is retried with the same Idempotency-Key it is replayed; with none, a second check is 409 and the bureau is not called again', async () => {
      const app = await throughStep4();
      const body = { securityToken: app.securityToken, dateOfBirth: '1988-07-14' };
      const first = await check(c, app.applicationId, body, { key: `check-${app.applicationId}`, score: '700' });
      const calls = counting.state.calls;
      const replay = await check(c, app.applicationId, body, { key: `check-${app.applicationId}`, score: '700' });
      expect(replay.status).toBe(200);
      expect(replay.headers['idempotency-replayed']).toBe('true');
      expect(replay.body).toEqual(first.body);
      const noKey = await check(c, app.applicationId, body);
      expect(noKey.status).toBe(409);
      expect(noKey.body.error).toBe('CREDIT_CHECK_ALREADY_COMPLETED');
      expect(counting.state.calls).toBe(calls);
      const stored = await storedRow(t.db, 'idempotency_keys', {
        partnerId: mine.partnerId,
        key: `check-${app.applicationId}`,
      });
      expect(stored!.state).toBe('completed');
    });

    it('when X-Sandbox-Score is unavailable or bad, then degraded mode, or 400', async () => {
      const app = await throughStep4();
      const bad = await check(
        c,
        app.applicationId,
        { securityToken: app.securityToken, dateOfBirth: '1988-07-14' },
        { score: 'stellar' },
      );
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('VALIDATION_ERROR');
      const degraded = await check(
        c,
        app.applicationId,
        { securityToken: app.securityToken, dateOfBirth: '1988-07-14' },
        { score: 'unavailable' },
      );
      expect(degraded.body.data).toMatchObject({ creditCheckComplete: true, degraded_mode: true });
    });
  });
});
