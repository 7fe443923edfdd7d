/** Jest's global set-up: names the run (tests/support/run.ts) before any worker starts. */
import { randomBytes } from 'node:crypto';

export default function setUpRun(): void {
  process.env.TEST_RUN_ID ??= randomBytes(4).toString('hex');
}
