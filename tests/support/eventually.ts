/**
 * Reads again every 20 ms until `done` holds of the reading or `withinMs` has passed, and answers the last
 * reading: the test then states what it expects of it, so a condition that never came fails there, with
 * what was read. Tests wait on a condition this way rather than sleeping for a guessed time.
 */
export async function eventually<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  withinMs = 5000,
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}
