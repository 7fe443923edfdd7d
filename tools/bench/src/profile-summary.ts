/**
 * `pnpm bench:profile <file.cpuprofile> [top] [--last S]`: where a server's busy time went, from a
 * profile written by `pnpm bench -- --cpu-prof DIR` (profile.ts). `--last S` keeps the last S seconds only.
 */
import { formatSummary, readProfile, summarize } from './profile';

const args = process.argv.slice(2).filter((a) => a !== '--');
const lastAt = args.indexOf('--last');
const lastS = lastAt >= 0 ? Number(args.splice(lastAt, 2)[1]) : undefined;
const [file, topArg] = args;
if (!file) {
  process.stderr.write('usage: pnpm bench:profile <file.cpuprofile> [top] [--last S]\n');
  process.exit(2);
}
const profile = readProfile(file);
const fromUs = lastS === undefined ? undefined : profile.endTime - lastS * 1e6;
process.stdout.write(`${file}\n${formatSummary(summarize(profile, { fromUs, top: Number(topArg ?? 25) }))}\n`);
