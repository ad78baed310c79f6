/**
 * @module bench/support/cpu-accounting
 * Interference control (stack.md §3.1): around each measured run, read the busy time of every CPU
 * from `/proc/stat` and the CPU time of the server and of this process from `/proc/<pid>/stat`.
 * What the CPUs did beyond those two is "foreign" work by other tenants of the machine. The
 * server's own CPU time also gives CPU per request, which is far less sensitive to interference
 * than requests per second. Linux only; elsewhere every figure is null.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Kernel clock ticks per second (`getconf CLK_TCK`, 100 on practically every Linux). */
export const CLOCK_TICKS: number = (() => {
  const result = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const value = Number(result.stdout.trim());
  return result.status === 0 && Number.isFinite(value) && value > 0 ? value : 100;
})();

interface CpuTimes {
  /** user + nice + system ticks (interrupt time is left out: it is mostly our own loopback I/O). */
  busy: number;
  steal: number;
}

/** Counters at one instant. */
export interface CpuSnapshot {
  atMs: number;
  cpus: Map<number, CpuTimes>;
  /** pid → utime + stime ticks. */
  processes: Map<number, number>;
}

/** CPU use between two snapshots, in CPU-seconds. */
export interface CpuUse {
  wallSeconds: number;
  /** CPU time of the server process. */
  serverSeconds: number;
  /** CPU time of this process (the load generator). */
  benchSeconds: number;
  /** Busy time of all CPUs minus server and load generator: other tenants' work. */
  foreignSeconds: number;
  /** Busy time on the server's CPU that was not the server (null when unpinned). */
  foreignOnServerCpuSeconds: number | null;
  /** Busy time on the load generator's CPU that was not the bench process (null when unpinned). */
  foreignOnLoadCpuSeconds: number | null;
  /** Time the hypervisor took away from this VM, all CPUs. */
  stealSeconds: number;
}

function readCpuTimes(): Map<number, CpuTimes> | null {
  let text: string;
  try {
    text = readFileSync('/proc/stat', 'utf8');
  } catch {
    return null;
  }
  const cpus = new Map<number, CpuTimes>();
  for (const line of text.split('\n')) {
    const match = /^cpu(\d+)\s+(.*)$/.exec(line);
    if (match?.[1] === undefined || match[2] === undefined) continue;
    const [user = 0, nice = 0, system = 0, , , , , steal = 0] = match[2].split(/\s+/).map(Number);
    cpus.set(Number(match[1]), { busy: user + nice + system, steal });
  }
  return cpus;
}

function readProcessTicks(pid: number | 'self'): number | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at field 3 (state);
    // utime and stime are fields 14 and 15.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/** Snapshot the CPUs, the server `serverPid` and this process; null off Linux. */
export function snapshot(serverPid: number): CpuSnapshot | null {
  const cpus = readCpuTimes();
  const server = readProcessTicks(serverPid);
  const self = readProcessTicks('self');
  if (cpus === null || server === null || self === null) return null;
  return {
    atMs: performance.now(),
    cpus,
    processes: new Map([
      [serverPid, server],
      [process.pid, self],
    ]),
  };
}

/**
 * CPU use between `before` and `after` for the server `serverPid` pinned to `serverCpu`, with this
 * process pinned to `loadCpu` (null: unpinned).
 */
export function cpuUse(
  before: CpuSnapshot | null,
  after: CpuSnapshot | null,
  serverPid: number,
  serverCpu: number | null,
  loadCpu: number | null,
): CpuUse | null {
  if (before === null || after === null) return null;
  const delta = (pid: number) =>
    ((after.processes.get(pid) ?? 0) - (before.processes.get(pid) ?? 0)) / CLOCK_TICKS;
  let busy = 0;
  let steal = 0;
  for (const [cpu, end] of after.cpus) {
    const start = before.cpus.get(cpu);
    if (start === undefined) continue;
    busy += end.busy - start.busy;
    steal += end.steal - start.steal;
  }
  const serverSeconds = delta(serverPid);
  const benchSeconds = delta(process.pid);
  const foreignOn = (cpu: number | null, own: number): number | null => {
    if (cpu === null) return null;
    const start = before.cpus.get(cpu);
    const end = after.cpus.get(cpu);
    if (start === undefined || end === undefined) return null;
    return Math.max(0, (end.busy - start.busy) / CLOCK_TICKS - own);
  };
  return {
    wallSeconds: (after.atMs - before.atMs) / 1000,
    serverSeconds,
    benchSeconds,
    foreignSeconds: Math.max(0, busy / CLOCK_TICKS - serverSeconds - benchSeconds),
    foreignOnServerCpuSeconds: foreignOn(serverCpu, serverSeconds),
    foreignOnLoadCpuSeconds: foreignOn(loadCpu, benchSeconds),
    stealSeconds: steal / CLOCK_TICKS,
  };
}
