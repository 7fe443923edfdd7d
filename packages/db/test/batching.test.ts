/**
 * `batching`: the reads asked for in one turn of the event loop go as one statement, and each caller
 * gets its own rows, and its own failure only, as if it had read alone. Against a recording driver;
 * the real statements run on both storages in packages/domain/test/batched-reads.test.ts.
 */
import { BATCH_LIMIT, batchedRead, batching, type Statement } from '../src/sql';

const READ = batchedRead('test_read', 'SELECT $1::int AS k, $2::text AS v', 'SELECT ... unnest($1::int[], $2::text[]) ...');
const OTHER = batchedRead('test_other', 'SELECT $1::int AS k', 'SELECT ... unnest($1::int[]) ...');

interface Sent {
  name: string;
  values: readonly unknown[];
}

/**
 * A driver that answers `one` with the read's own row and `many` with one row per read, in reverse order
 * (a statement's rows come in no promised order), each with its `batch_index`; `fail` decides a failure.
 */
function recordingDriver(fail: (s: Statement, values: readonly unknown[]) => Error | undefined = () => undefined) {
  const sent: Sent[] = [];
  const rows = async <R>(s: Statement, values: readonly unknown[]): Promise<R[]> => {
    sent.push({ name: s.name, values });
    await new Promise((resolve) => setImmediate(resolve));
    const failure = fail(s, values);
    if (failure) throw failure;
    if (!s.name.endsWith('_many')) return [{ k: values[0], v: values[1] }] as R[];
    const keys = values[0] as unknown[];
    return keys.map((k, i) => ({ batch_index: String(i + 1), k, v: (values[1] as unknown[] | undefined)?.[i] })).reverse() as R[];
  };
  return { sent, batched: batching(rows) };
}

const dataException = () => Object.assign(new Error('invalid input syntax for type integer'), { code: '22P02' });

describe('batching', () => {
  it('when reads are asked for in one turn, then one statement takes every read, and each caller gets its own row without the index', async () => {
    const d = recordingDriver();
    const answers = await Promise.all([1, 2, 3].map((k) => d.batched(READ, [k, `v${k}`])));
    expect(d.sent).toEqual([{ name: 'lm_test_read_many', values: [[1, 2, 3], ['v1', 'v2', 'v3']] }]);
    expect(answers).toEqual([[{ k: 1, v: 'v1' }], [{ k: 2, v: 'v2' }], [{ k: 3, v: 'v3' }]]);
  });

  it('when a read is alone in its turn, then it is the single statement, not the batched one', async () => {
    const d = recordingDriver();
    expect(await d.batched(READ, [7, 'seven'])).toEqual([{ k: 7, v: 'seven' }]);
    expect(d.sent).toEqual([{ name: 'lm_test_read', values: [7, 'seven'] }]);
  });

  it('when a read finds nothing, then its caller gets no rows while the others get theirs', async () => {
    const rows = async <R>(_s: Statement, values: readonly unknown[]): Promise<R[]> =>
      (values[0] as number[]).flatMap((k, i) => (k === 2 ? [] : [{ batch_index: i + 1, k }])) as R[];
    const batched = batching(rows);
    expect(await Promise.all([1, 2, 3].map((k) => batched(READ, [k, 'x'])))).toEqual([[{ k: 1 }], [], [{ k: 3 }]]);
  });

  it('when reads come in different turns, then each turn sends its own statement', async () => {
    const d = recordingDriver();
    const first = Promise.all([d.batched(READ, [1, 'a']), d.batched(READ, [2, 'b'])]);
    await new Promise((resolve) => setImmediate(resolve));
    const second = d.batched(READ, [3, 'c']);
    await Promise.all([first, second]);
    expect(d.sent.map((s) => s.name)).toEqual(['lm_test_read_many', 'lm_test_read']);
  });

  it('when two kinds of reads are asked for in one turn, then each kind is its own statement', async () => {
    const d = recordingDriver();
    await Promise.all([d.batched(READ, [1, 'a']), d.batched(OTHER, [2]), d.batched(READ, [3, 'c']), d.batched(OTHER, [4])]);
    expect(d.sent).toEqual([
      { name: 'lm_test_read_many', values: [[1, 3], ['a', 'c']] },
      { name: 'lm_test_other_many', values: [[2, 4]] },
    ]);
  });

  it(`when more than ${BATCH_LIMIT} reads are asked for in one turn, then they go in statements of at most ${BATCH_LIMIT}`, async () => {
    const d = recordingDriver();
    const keys = Array.from({ length: BATCH_LIMIT * 2 + 1 }, (_, i) => i);
    const answers = await Promise.all(keys.map((k) => d.batched(OTHER, [k])));
    expect(d.sent.map((s) => (Array.isArray(s.values[0]) ? (s.values[0] as unknown[]).length : 'one'))).toEqual([BATCH_LIMIT, BATCH_LIMIT, 'one']);
    expect(answers.map((rows) => (rows[0] as { k: number }).k)).toEqual(keys);
  });

  it('when the batched statement refuses a value (data exception), then each read runs alone and only the bad one fails', async () => {
    const d = recordingDriver((s, values) => (s.name.endsWith('_many') || values[0] === 'bad' ? dataException() : undefined));
    const answers = await Promise.allSettled([d.batched(OTHER, [1]), d.batched(OTHER, ['bad']), d.batched(OTHER, [3])]);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((answers[1] as PromiseRejectedResult).reason).toMatchObject({ code: '22P02' });
    expect(d.sent.map((s) => s.name)).toEqual(['lm_test_other_many', 'lm_test_other', 'lm_test_other', 'lm_test_other']);
  });

  it('when the batched statement fails otherwise (a timeout, a lost server), then every read fails with that error, once', async () => {
    const lost = new Error('Connection terminated unexpectedly');
    const d = recordingDriver(() => lost);
    const answers = await Promise.allSettled([1, 2, 3].map((k) => d.batched(OTHER, [k])));
    expect(answers).toEqual([1, 2, 3].map(() => ({ status: 'rejected', reason: lost })));
    expect(d.sent).toHaveLength(1);
  });
});
