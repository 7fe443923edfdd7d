import { runOps } from './cli';

runOps(process.argv.slice(2), {
  env: process.env,
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  fetch,
}).then((code) => process.exit(code));
