/**
 * @module bench/support/cpu-profile
 * Summarise a V8 `.cpuprofile` (written by `node --cpu-prof`): self time per function, self time
 * per area (linkguard module folder, npm package, Node internals, GC), and inclusive time of
 * linkguard's own functions.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfileJson {
  /** CLOCK_MONOTONIC microseconds, the clock of `process.hrtime()`. */
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Time of one function or area, in ms and as a share of the non-idle time. */
export interface ProfileEntry {
  name: string;
  /** Where: `dist/src/…:line`, `node_modules/<pkg>/…:line`, `node:…` or `(native)`. */
  location: string;
  ms: number;
  percent: number;
}

export interface ProfileSummary {
  /** Non-idle sampled time, ms. */
  busyMs: number;
  /** Idle time (event loop waiting), ms. */
  idleMs: number;
  topSelf: ProfileEntry[];
  byArea: ProfileEntry[];
  /** linkguard functions (code under `dist/src/`) by inclusive time. */
  topInclusiveOwn: ProfileEntry[];
}

function shortLocation(frame: ProfileNode['callFrame']): string {
  const { url, lineNumber } = frame;
  if (url === '') return '(native)';
  const line = lineNumber >= 0 ? `:${lineNumber + 1}` : '';
  const distAt = url.indexOf('/dist/src/');
  if (distAt >= 0) return url.slice(distAt + 1) + line;
  const modulesAt = url.lastIndexOf('/node_modules/');
  if (modulesAt >= 0) return url.slice(modulesAt + 1) + line;
  return url.replace(/^file:\/\//, '') + line;
}

function areaOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (url === '') {
    if (functionName.startsWith('(')) return functionName; // (garbage collector), (program)…
    return 'native (V8 builtins, C++ bindings)';
  }
  const distAt = url.indexOf('/dist/src/');
  if (distAt >= 0) {
    const folder = url.slice(distAt + '/dist/src/'.length).split('/')[0] ?? '';
    return `linkguard src/${folder.endsWith('.js') ? folder.replace(/\.js$/, '.ts') : folder}`;
  }
  const modulesAt = url.lastIndexOf('/node_modules/');
  if (modulesAt >= 0) {
    const parts = url.slice(modulesAt + '/node_modules/'.length).split('/');
    const name = parts[0]?.startsWith('@') === true ? `${parts[0]}/${parts[1] ?? ''}` : parts[0];
    return `npm ${name ?? '?'}`;
  }
  if (url.startsWith('node:')) return 'Node.js internals (node:*)';
  return 'other';
}

/** A time window in CLOCK_MONOTONIC microseconds (`process.hrtime.bigint() / 1000n`). */
export interface ProfileWindow {
  fromUs: number;
  toUs: number;
}

/**
 * Summarise the profile at `path`.
 *
 * @param top how many functions to list.
 * @param window only samples taken inside this window count (e.g. the measured run, without
 *   start-up and warm-up); V8 stamps samples with the same monotonic clock as `process.hrtime()`.
 */
export function summariseCpuProfile(
  path: string,
  top = 10,
  window: ProfileWindow | null = null,
): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfileJson;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }

  // Sample i lasts until sample i + 1 (the way DevTools attributes time).
  const selfUs = new Map<number, number>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const id = profile.samples[i];
    const duration = profile.timeDeltas[i + 1] ?? 0;
    if (id === undefined || duration <= 0) continue;
    if (window !== null && (at < window.fromUs || at > window.toUs)) continue;
    selfUs.set(id, (selfUs.get(id) ?? 0) + duration);
  }

  const keyOf = (node: ProfileNode) =>
    `${node.callFrame.functionName || '(anonymous)'}\u0000${shortLocation(node.callFrame)}`;
  const self = new Map<string, number>();
  const area = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let idleUs = 0;
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (node === undefined) continue;
    if (node.callFrame.functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    busyUs += us;
    const key = keyOf(node);
    self.set(key, (self.get(key) ?? 0) + us);
    const areaName = areaOf(node.callFrame);
    area.set(areaName, (area.get(areaName) ?? 0) + us);
    // Inclusive time of own functions: every distinct linkguard frame on the stack.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at);
      if (!frame?.callFrame.url.includes('/dist/src/')) continue;
      const frameKey = keyOf(frame);
      if (seen.has(frameKey)) continue;
      seen.add(frameKey);
      inclusive.set(frameKey, (inclusive.get(frameKey) ?? 0) + us);
    }
  }

  const entries = (map: Map<string, number>, count: number): ProfileEntry[] =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, us]) => {
        const [name = key, location = ''] = key.split('\u0000');
        return { name, location, ms: us / 1000, percent: busyUs > 0 ? (100 * us) / busyUs : 0 };
      });

  return {
    busyMs: busyUs / 1000,
    idleMs: idleUs / 1000,
    topSelf: entries(self, top),
    byArea: entries(area, 15),
    topInclusiveOwn: entries(inclusive, 15),
  };
}
