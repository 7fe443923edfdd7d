import { CLEANUP_WAIT_MS, cleanUp } from '../src/cleanup';

describe('the cleanup of a failed request', () => {
  it('when the cleanup is done within the wait, then it is done before the request goes on', async () => {
    let done = false;
    const work = new Promise<void>((resolve) =>
      setTimeout(() => {
        done = true;
        resolve();
      }, 10),
    );
    await cleanUp(work);
    expect(done).toBe(true);
  });

  it('when the cleanup hangs (the database stopped answering), then the request goes on after the wait', async () => {
    const started = performance.now();
    await cleanUp(new Promise(() => undefined));
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(CLEANUP_WAIT_MS - 5);
    expect(waited).toBeLessThan(CLEANUP_WAIT_MS + 1000);
  });

  it('when the cleanup fails, then the failure is dropped: the request’s own error is what it answers', async () => {
    await expect(cleanUp(Promise.reject(new Error('Query read timeout')))).resolves.toBeUndefined();
  });
});
