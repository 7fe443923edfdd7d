/** Reading an application back with Variant A's GET: its status, last step, steps and credit check must be as the ledger says. */
import { expectedLastStep, expectedStatus } from './ledger';
import type { User } from './user';

/** JSON with keys sorted: the same data, whatever order the database gives the keys in. */
function sorted(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/** GET the application: status, last step, steps and the check as the ledger says. */
export async function readBack(user: User, id: string, auth: Record<string, string>, steps: unknown): Promise<void> {
  const got = await user.rec.send({
    endpoint: 'A GET /applications/:id',
    method: 'GET',
    url: `${user.home.a}/applications/${id}`,
    headers: auth,
  });
  if (!user.expect('GET application', got, 200)) return;
  const app = user.ledger.get(id);
  const data = got.body?.data ?? {};
  const want = {
    status: expectedStatus(app),
    lastStep: expectedLastStep(app),
    creditCheckComplete: app.check !== undefined,
  };
  const seen = { status: data.status, lastStep: data.lastStep, creditCheckComplete: data.creditCheckComplete };
  if (JSON.stringify(want) !== JSON.stringify(seen))
    user.rec.anomaly(`GET application: expected ${JSON.stringify(want)}`, got);
  if (steps !== undefined && sorted(data.steps) !== sorted(steps))
    user.rec.anomaly('GET application: steps differ from those last saved', got);
}
