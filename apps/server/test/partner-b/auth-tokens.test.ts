/** Variant B's authentication: exchanging an API key for an access token, and which bearer tokens are served. */
import { createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { revokeKey } from '@loanmatch/domain';
import { jwtKeyId } from '@loanmatch/http';
import { STORAGES, silentLogger } from '../../../../tests/support';
import { JWT_AUDIENCE, createPartnerBApp, jwtIssuer } from '@loanmatch/partner-b';
import {
  BASE,
  JWT_SECRET,
  accessTokenFor,
  clientB,
  exchange,
  flatApplication,
  newPartner,
  variantBSuite,
  type VariantB,
} from './helpers';

const ADMIN_TOKEN = 'lm_admin_not-an-access-token-0123456789abcdef';
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT signed by hand, for tokens jsonwebtoken would refuse to make. */
function handSigned(header: object, payload: object, secret: string, hash: 'sha256' | 'sha512' = 'sha256'): string {
  const data = `${b64(header)}.${b64(payload)}`;
  return `${data}.${createHmac(hash, secret).update(data).digest('base64url')}`;
}

describe.each(STORAGES)('Variant B on %s', (storage) => {
  let { t, app, mine, other } = {} as VariantB;
  const { countApplications } = variantBSuite(storage, (made) => {
    ({ t, app, mine, other } = made);
  });

  describe('token exchange', () => {
    it('when a valid key is exchanged with grantType api_key, then a 15-minute HS256 JWT for the partner, not cached', async () => {
      const res = await exchange(app, mine.apiKey);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: { accessToken: expect.any(String), tokenType: 'Bearer', expiresIn: 900 },
      });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-request-id']).toBeTruthy();
      const decoded = jwt.decode(res.body.data.accessToken, { complete: true })!;
      expect(decoded.header).toMatchObject({ alg: 'HS256', typ: 'JWT', kid: jwtKeyId(JWT_SECRET) });
      const payload = decoded.payload as jwt.JwtPayload;
      expect(payload).toMatchObject({
        sub: mine.partnerId,
        iss: 'loanmatch/sandbox',
        aud: JWT_AUDIENCE,
        api_key_id: mine.keyId,
        jti: expect.any(String),
      });
      expect(payload.exp! - payload.iat!).toBe(900);
      expect(JSON.stringify(decoded)).not.toContain(mine.apiKey);
    });

    it.each([
      [{ grantType: 'password' }, 'grantType: must be one of api_key'],
      [{}, 'grantType: is required'],
      [{ grantType: ['api_key'] }, 'grantType: must be one of api_key'],
    ])('when the body is %j, then 400 VALIDATION_ERROR "%s"', async (body, message) => {
      const res = await exchange(app, mine.apiKey, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: 'VALIDATION_ERROR', message });
    });

    it('when the body is not JSON, then 400 INVALID_JSON', async () => {
      const res = await request(app)
        .post(`${BASE}/auth/token`)
        .set('X-API-Key', mine.apiKey)
        .set('Content-Type', 'application/json')
        .send('{"grantType":');
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('INVALID_JSON');
    });

    it('when X-API-Key is missing, malformed, unknown, revoked, of the live environment, or sent as a bearer token, then 401 naming no key', async () => {
      const revoked = await newPartner(t.ctx, { name: 'Revoked' });
      await revokeKey(t.ctx, { keyId: revoked.keyId });
      const live = await newPartner(t.ctx, { name: 'Live', environment: 'live' });
      const unknown = `lm_sandbox_${'A'.repeat(43)}`;
      const cases = [
        exchange(app, undefined),
        exchange(app, 'not-a-key'),
        exchange(app, unknown),
        exchange(app, revoked.apiKey),
        exchange(app, live.apiKey),
        request(app)
          .post(`${BASE}/auth/token`)
          .set('Authorization', `Bearer ${mine.apiKey}`)
          .send({ grantType: 'api_key' }),
      ];
      for (const res of await Promise.all(cases)) {
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ success: false, error: 'UNAUTHORIZED', message: expect.any(String) });
        for (const key of [mine.apiKey, revoked.apiKey, live.apiKey, unknown]) expect(res.text).not.toContain(key);
      }
      expect((await exchange(app, live.apiKey)).body.message).toBe(
        'This is a live key; this server is the sandbox environment',
      );
      expect((await exchange(app, undefined)).body.message).toMatch(/X-API-Key/);
    });
  });

  describe('access tokens', () => {
    let token: string;
    let claims: jwt.JwtPayload;
    let header: jwt.JwtHeader;
    const sign = (payload: object, options: jwt.SignOptions = {}, secret = JWT_SECRET) =>
      jwt.sign(payload, secret, { algorithm: 'HS256', keyid: jwtKeyId(JWT_SECRET), ...options });

    beforeAll(async () => {
      token = await accessTokenFor(app, mine.apiKey);
      const decoded = jwt.decode(token, { complete: true })!;
      header = decoded.header;
      claims = decoded.payload as jwt.JwtPayload;
    });

    const attempt = (authorization: string | undefined) => {
      const req = request(app).post(`${BASE}/applications`);
      if (authorization !== undefined) req.set('Authorization', authorization);
      return req.send(flatApplication());
    };

    it('when a valid access token is sent, then the request is served', async () => {
      expect((await attempt(`Bearer ${token}`)).status).toBe(201);
    });

    it.each<[string, () => string | undefined, RegExp]>([
      ['no Authorization header', () => undefined, /access token is required/],
      ['a garbage bearer token', () => 'Bearer not.a.jwt', /not valid/],
      ['a Basic credential', () => `Basic ${Buffer.from('a:b').toString('base64')}`, /access token is required/],
      ['the API key as a bearer token', () => `Bearer ${mine.apiKey}`, /API key is not an access token/],
      ['the admin token as a bearer token', () => `Bearer ${ADMIN_TOKEN}`, /not valid/],
      [
        'alg: none without a signature',
        () => `Bearer ${b64({ alg: 'none', typ: 'JWT', kid: header.kid })}.${b64(claims)}.`,
        /not valid/,
      ],
      [
        'alg: none with the real signature',
        () => `Bearer ${b64({ alg: 'none', typ: 'JWT', kid: header.kid })}.${b64(claims)}.${token.split('.')[2]}`,
        /not valid/,
      ],
      [
        'HS256 signed with another secret under our kid',
        () => `Bearer ${handSigned(header, claims, 'another-secret-of-enough-length-0123456789')}`,
        /not valid/,
      ],
      [
        'HS512 signed with our own secret',
        () => `Bearer ${handSigned({ ...header, alg: 'HS512' }, claims, JWT_SECRET, 'sha512')}`,
        /not valid/,
      ],
      [
        'a payload changed after signing (another partner)',
        () => `Bearer ${token.split('.')[0]}.${b64({ ...claims, sub: other.partnerId })}.${token.split('.')[2]}`,
        /not valid/,
      ],
      [
        'a payload changed after signing (a later expiry)',
        () => `Bearer ${token.split('.')[0]}.${b64({ ...claims, exp: claims.exp! + 86_400 })}.${token.split('.')[2]}`,
        /not valid/,
      ],
      [
        'another audience',
        () =>
          `Bearer ${sign({ api_key_id: mine.keyId }, { subject: mine.partnerId, issuer: jwtIssuer('sandbox'), audience: 'someone-else', expiresIn: 900 })}`,
        /not valid/,
      ],
      [
        'another issuer (the live server)',
        () =>
          `Bearer ${sign({ api_key_id: mine.keyId }, { subject: mine.partnerId, issuer: jwtIssuer('live'), audience: JWT_AUDIENCE, expiresIn: 900 })}`,
        /not valid/,
      ],
      [
        'an unknown kid',
        () =>
          `Bearer ${sign({ api_key_id: mine.keyId }, { subject: mine.partnerId, issuer: jwtIssuer('sandbox'), audience: JWT_AUDIENCE, expiresIn: 900, keyid: 'unknown-kid' })}`,
        /not valid/,
      ],
      [
        'no expiry',
        () =>
          `Bearer ${sign({ api_key_id: mine.keyId }, { subject: mine.partnerId, issuer: jwtIssuer('sandbox'), audience: JWT_AUDIENCE })}`,
        /not valid/,
      ],
      [
        'an expired token',
        () =>
          `Bearer ${sign({ api_key_id: mine.keyId, iat: Math.floor(Date.now() / 1000) - 1000 }, { subject: mine.partnerId, issuer: jwtIssuer('sandbox'), audience: JWT_AUDIENCE, expiresIn: 900 })}`,
        /expired/,
      ],
      [
        'an expiry further out than 15 minutes',
        () =>
          `Bearer ${sign({ api_key_id: mine.keyId, iat: Math.floor(Date.now() / 1000) - 1000 }, { subject: mine.partnerId, issuer: jwtIssuer('sandbox'), audience: JWT_AUDIENCE, expiresIn: 86_400 })}`,
        /expired/,
      ],
      [
        'a token naming another partner’s key',
        () =>
          `Bearer ${sign({ api_key_id: other.keyId }, { subject: mine.partnerId, issuer: jwtIssuer('sandbox'), audience: JWT_AUDIENCE, expiresIn: 900 })}`,
        /no longer valid/,
      ],
    ])(
      'when the request carries %s, then 401 UNAUTHORIZED and nothing is made',
      async (_name, authorization, message) => {
        const before = await countApplications();
        const res = await attempt(authorization());
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({
          success: false,
          error: 'UNAUTHORIZED',
          message: expect.stringMatching(message),
        });
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
        expect(res.text).not.toContain(JWT_SECRET);
        expect(res.text).not.toContain(mine.apiKey);
        expect(await countApplications()).toBe(before);
      },
    );

    it('when the API key a token was exchanged for is revoked, then the live token stops working and no new one is issued', async () => {
      const partner = await newPartner(t.ctx, { name: 'Soon revoked' });
      const live = await accessTokenFor(app, partner.apiKey);
      const cb = clientB(app, live);
      expect((await cb.create(flatApplication())).status).toBe(201);
      await revokeKey(t.ctx, { keyId: partner.keyId });
      const refused = await cb.create(flatApplication());
      expect(refused.status).toBe(401);
      expect(refused.body.message).toMatch(/no longer valid/);
      expect((await exchange(app, partner.apiKey)).status).toBe(401);
    });

    it('when the signing secret is rotated, then tokens of the previous secret work until they expire, and dropping it ends them', async () => {
      const NEW_SECRET = 'rotated-jwt-secret-for-variant-b-9876543210fedcba';
      const oldToken = await accessTokenFor(app, mine.apiKey);
      const rotated = createPartnerBApp({
        ctx: t.ctx,
        logger: silentLogger,
        ping: async () => true,
        jwt: { secret: NEW_SECRET, previousSecrets: [JWT_SECRET] },
      });
      expect((await clientB(rotated, oldToken).create(flatApplication())).status).toBe(201);
      const newToken = await accessTokenFor(rotated, mine.apiKey);
      expect(jwt.decode(newToken, { complete: true })!.header.kid).toBe(jwtKeyId(NEW_SECRET));
      expect((await clientB(rotated, newToken).create(flatApplication())).status).toBe(201);
      // The old process, without the new secret, does not know the new kid.
      expect((await clientB(app, newToken).create(flatApplication())).status).toBe(401);
      const dropped = createPartnerBApp({
        ctx: t.ctx,
        logger: silentLogger,
        ping: async () => true,
        jwt: { secret: NEW_SECRET },
      });
      expect((await clientB(dropped, oldToken).create(flatApplication())).status).toBe(401);
    });

    it("when a token is issued, then it is HS256 over the secret's UTF-8 bytes: jsonwebtoken given the secret as text verifies it, as a process of an earlier version would", async () => {
      const issued = await accessTokenFor(app, mine.apiKey);
      expect(
        jwt.verify(issued, JWT_SECRET, { algorithms: ['HS256'], issuer: jwtIssuer('sandbox'), audience: JWT_AUDIENCE }),
      ).toMatchObject({ sub: mine.partnerId, api_key_id: mine.keyId });
      expect(() => jwt.verify(issued, `${JWT_SECRET}x`, { algorithms: ['HS256'] })).toThrow(/invalid signature/);
    });
  });
});
