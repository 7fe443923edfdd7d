import { openDatabase, type Database } from '@loanmatch/db';
import { KEY_CACHE_MS, authenticateApiKey, createPartner, revokeKey } from '../src';
import { createTestContext, eventually, type TestContext } from '../../../tests/support';

/** Two processes over one PostgreSQL database: `t` serves the revocation, `other` only authenticates. */
describe('API keys remembered per process', () => {
  let t: TestContext & { url?: string };
  let otherDb: Database;
  let other: TestContext['ctx'];

  beforeAll(async () => {
    t = await createTestContext('postgresql');
    otherDb = await openDatabase({ url: t.url, poolSize: 2 });
    other = { ...t.ctx, db: otherDb };
  });
  afterAll(async () => {
    await otherDb.close();
    await t.close();
  });

  async function newKey() {
    const made = await createPartner(t.ctx, { body: { name: 'Cache' } });
    if (!made.ok) throw new Error(made.error.message);
    return made.value;
  }

  it('when a key is revoked, then the process that revoked it refuses it on the next request', async () => {
    const key = await newKey();
    expect((await authenticateApiKey(t.ctx, { apiKey: key.apiKey })).ok).toBe(true);
    await revokeKey(t.ctx, { keyId: key.keyId });
    expect(await authenticateApiKey(t.ctx, { apiKey: key.apiKey })).toMatchObject({
      ok: false,
      error: { code: 'UNAUTHORIZED' },
    });
  });

  it('when a key is revoked through another process, then this one refuses it within KEY_CACHE_MS', async () => {
    const key = await newKey();
    expect((await authenticateApiKey(other, { apiKey: key.apiKey })).ok).toBe(true);
    await revokeKey(t.ctx, { keyId: key.keyId });
    // Asked all along: a key in use is remembered no longer than one that is not.
    const answer = await eventually(
      () => authenticateApiKey(other, { apiKey: key.apiKey }),
      (a) => !a.ok,
      KEY_CACHE_MS + 50,
    );
    expect(answer).toMatchObject({
      ok: false,
      error: { code: 'UNAUTHORIZED' },
    });
  });

  it('when a key is unknown, then nothing is remembered: a refusal never outlives the lookup', async () => {
    const key = await newKey();
    await revokeKey(t.ctx, { keyId: key.keyId });
    for (let i = 0; i < 3; i++) expect((await authenticateApiKey(other, { apiKey: key.apiKey })).ok).toBe(false);
    const fresh = await newKey();
    expect((await authenticateApiKey(other, { apiKey: fresh.apiKey })).ok).toBe(true);
  });
});
