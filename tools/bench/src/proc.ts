/**
 * What Linux says about a process (/proc): its CPU time so far and its resident size. The bench reads a
 * server's CPU time before and after a phase rather than timing it from outside, so that a busy machine
 * (other processes, the load generator itself) does not count as the server's work.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

/** CPU time (user + system) of the process so far, in µs; undefined when it is gone or this is not Linux. */
export function cpuUs(pid: number | undefined): number | undefined {
  try {
    // After the command name, which may hold spaces: utime and stime are fields 14 and 15 of the line.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** Resident size now (VmRSS) and at its highest so far (VmHWM), in MB. */
export function residentMb(pid: number | undefined): { now: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
    return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}
