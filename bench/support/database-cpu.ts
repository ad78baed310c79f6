/**
 * @module bench/support/database-cpu
 * CPU time of the database servers on this machine (every `postgres` and `redis-server`
 * process, read from `/proc/<pid>/stat`), so the PostgreSQL store's cost is counted where it is
 * spent: linkguard's own process does less work per request than with SQLite, and the database
 * server does the rest. Linux only; null elsewhere.
 */
import { readdirSync, readFileSync } from 'node:fs';

import { CLOCK_TICKS } from './cpu-accounting.js';

const DATABASE_COMMANDS = new Set(['postgres', 'redis-server']);

/**
 * CPU ticks (utime + stime) of every database server process by pid; null off Linux. Compare two
 * readings with {@link databaseCpuSecondsBetween}: backends come and go during a run.
 */
export function databaseCpuTicks(): Map<number, number> | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const ticks = new Map<number, number>();
  for (const pid of entries) {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const command = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
      if (!DATABASE_COMMANDS.has(command)) continue;
      // utime and stime are fields 14 and 15; fields after the command start at field 3.
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      ticks.set(Number(pid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ticks;
}

/**
 * CPU-seconds the database servers used between two readings: for each process alive at the end,
 * its ticks minus those at the start (all of them for a process started since). A backend that
 * ended during the run is not counted (pooled connections stay open, so this is rare).
 */
export function databaseCpuSecondsBetween(
  before: Map<number, number> | null,
  after: Map<number, number> | null,
): number | null {
  if (before === null || after === null) return null;
  let ticks = 0;
  for (const [pid, end] of after) ticks += end - (before.get(pid) ?? 0);
  return ticks / CLOCK_TICKS;
}
