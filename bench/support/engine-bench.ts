/**
 * @module bench/support/engine-bench
 * The engine alone, in this process: `detectUrl()` over the benchmark URLs, from the same build
 * (`dist/`) the server runs. Three figures:
 * - warm throughput: the list cycled for a fixed time after a warm-up (JIT and the engine's
 *   memo caches hot), in URLs per second on one core;
 * - first-sight throughput: one pass over the list on freshly built engines (caches empty, JIT
 *   warm), closer to traffic where most hosts are new;
 * - cost per URL: each URL repeated on its own, to find the expensive ones.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import type * as CreateEngineModule from '../../src/engine/create-engine.js';
import type * as DetectModule from '../../src/engine/detect.js';
import type * as LoadEngineDataModule from '../../src/engine-data/load-engine-data.js';
import { median } from './stats.js';

export interface UrlCost {
  url: string;
  microseconds: number;
  verdict: string;
}

export interface EngineResult {
  /** Milliseconds to build the engine from already-loaded data. */
  buildMs: number;
  /** URLs per second, caches warm. */
  warmUrlsPerSecond: number;
  /** Seconds the warm measurement lasted and URLs judged in it. */
  warmSeconds: number;
  warmUrls: number;
  /** Median URLs per second of one pass over the list on fresh engines. */
  firstSightUrlsPerSecond: number;
  firstSightPasses: number;
  /** Each URL's warm cost, most expensive first. */
  costs: UrlCost[];
  /** Verdict tally of the list. */
  verdicts: Record<string, number>;
}

const FIRST_SIGHT_PASSES = 5;
const REPEATS_PER_URL = 50;

/**
 * Measure the engine built in `distDir` over `urls`.
 *
 * @throws when a URL is refused by `normalizeUrl()`: every benchmark URL must be judged.
 */
export async function benchEngine(
  distDir: string,
  urls: readonly string[],
  seconds: number,
): Promise<EngineResult> {
  const load = async <T>(path: string) =>
    (await import(pathToFileURL(join(distDir, path)).href)) as T;
  const { detectUrl } = await load<typeof DetectModule>('src/engine/detect.js');
  const { createEngine } = await load<typeof CreateEngineModule>('src/engine/create-engine.js');
  const { loadEngineData } = await load<typeof LoadEngineDataModule>(
    'src/engine-data/load-engine-data.js',
  );

  const data = loadEngineData();
  let started = performance.now();
  const engine = createEngine(data);
  const buildMs = performance.now() - started;

  const verdicts: Record<string, number> = {};
  const refused: string[] = [];
  for (const url of urls) {
    const outcome = detectUrl(engine, url);
    if (outcome.ok)
      verdicts[outcome.verdict.verdict] = (verdicts[outcome.verdict.verdict] ?? 0) + 1;
    else refused.push(`${url} (${outcome.reason})`);
  }
  if (refused.length > 0) {
    throw new Error(`the engine refused benchmark URLs:\n  ${refused.join('\n  ')}`);
  }

  // Warm-up, then whole passes over the list until the time is up.
  const pass = (target: CreateEngineModule.Engine) => {
    for (const url of urls) detectUrl(target, url);
  };
  started = performance.now();
  while (performance.now() - started < 1000) pass(engine);
  let judged = 0;
  started = performance.now();
  let elapsed = 0;
  while (elapsed < seconds * 1000) {
    pass(engine);
    judged += urls.length;
    elapsed = performance.now() - started;
  }

  const firstSight: number[] = [];
  for (let i = 0; i < FIRST_SIGHT_PASSES; i++) {
    const fresh = createEngine(data);
    const t0 = performance.now();
    pass(fresh);
    firstSight.push((urls.length * 1000) / (performance.now() - t0));
  }

  const costs: UrlCost[] = urls.map((url) => {
    const t0 = process.hrtime.bigint();
    let verdict = '';
    for (let i = 0; i < REPEATS_PER_URL; i++) {
      const outcome = detectUrl(engine, url);
      verdict = outcome.ok ? outcome.verdict.verdict : 'refused';
    }
    const microseconds = Number(process.hrtime.bigint() - t0) / 1000 / REPEATS_PER_URL;
    return { url, microseconds, verdict };
  });
  costs.sort((a, b) => b.microseconds - a.microseconds);

  return {
    buildMs,
    warmUrlsPerSecond: (judged * 1000) / elapsed,
    warmSeconds: elapsed / 1000,
    warmUrls: judged,
    firstSightUrlsPerSecond: median(firstSight),
    firstSightPasses: FIRST_SIGHT_PASSES,
    costs,
    verdicts,
  };
}
