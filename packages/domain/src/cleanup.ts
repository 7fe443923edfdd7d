/** What a failed request undoes on its way out is waited for briefly, so a stalled database cannot hold the answer. */
export const CLEANUP_WAIT_MS = 150;

export async function cleanUp(work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLEANUP_WAIT_MS);
    timer.unref();
  });
  try {
    await Promise.race([work.catch(() => undefined), waited]);
  } finally {
    clearTimeout(timer);
  }
}
