/**
 * What a failed request undoes on its way out (its claim on a credit check, its idempotency key) is
 * waited for briefly: long enough that, with the database answering, it is done before the answer
 * leaves; not so long that a database that stopped answering holds the answer past its 2 s. The
 * statement goes on after the wait, within its own limit; its failure is dropped.
 */
export const CLEANUP_WAIT_MS = 150;

export async function cleanUp(work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLEANUP_WAIT_MS);
    timer.unref();
  });
  try {
    await Promise.race([
      work.then(
        () => undefined,
        () => undefined,
      ),
      waited,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
