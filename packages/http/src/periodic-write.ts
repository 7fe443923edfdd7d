/**
 * Counts kept in memory reach their store every `ms` and when asked, one write at a time: `flush` joins
 * the write under way; `stop` ends the timer, waits for that write, then writes what came in meanwhile.
 */
export function periodicWrite(write: () => Promise<void>, ms: number) {
  let writing: Promise<void> | undefined;
  const flush = () => (writing ??= write().finally(() => (writing = undefined)));
  const timer = setInterval(() => void flush(), ms);
  timer.unref();
  return {
    flush,
    async stop() {
      clearInterval(timer);
      await writing;
      await flush();
    },
  };
}
