/**
 * @module bench/overrides-bench
 * `npm run bench:overrides`: what the operator's overrides cost on every verdict served. Each
 * verdict now reads the overrides in force (`OverrideStore.activeOverrides()`, cached by the
 * adapter) and looks the URL up in their index before it is served (docs/decisions.md,
 * decision 191); this measures that against the rest of a cached verdict's path, in one process
 * on one core, on SQLite and on PostgreSQL.
 *
 * For each store and each number of overrides in force (0, 100, 10,000 of other sites; then one
 * override for the host of every benchmark URL, so every verdict is an overridden one): the
 * detection service's `judge()` of the 216 benchmark URLs (`bench/bench-urls.ts`) with their
 * verdicts already cached — the path a repeated URL takes — and the override look-up alone
 * (`VerdictOverrides.match()`), each as µs per call over ≥ 1 s, median of 3. The look-up's share
 * of `judge()` is the overhead in the same run.
 *
 * Writes its section into docs/bench.md between `<!-- overrides:start -->` and
 * `<!-- overrides:end -->` (`npm run bench` keeps it). Options: --seconds 1, --out docs/bench.md.
 * PostgreSQL: a fresh database on 127.0.0.1:5432 (trust auth), dropped afterwards; skipped with a
 * note when the server cannot be reached.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import pg from 'pg';

import { systemClock } from '../src/clock.js';
import { newOverrideId } from '../src/corrections/correction-ids.js';
import { parseOverrideTarget } from '../src/corrections/override-target.js';
import { VerdictOverrides } from '../src/corrections/verdict-overrides.js';
import type { ParsedUrl } from '../src/engine/url/normalize-url.js';
import { defaultEngine } from '../src/engine-data/load-engine-data.js';
import { DetectionService } from '../src/service/detection-service.js';
import type { Store } from '../src/store/ports/store.js';
import { openPostgresStore } from '../src/store/postgres/open-postgres-store.js';
import { openSqliteStore } from '../src/store/sqlite/open-sqlite-store.js';
import { BENCH_URLS } from './bench-urls.js';
import { SECTION_END, SECTION_START } from './overrides-section.js';
import { writeSection } from './support/doc-sections.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PG_ADMIN = 'postgres://postgres@127.0.0.1:5432/postgres';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '1' },
    out: { type: 'string', default: join(ROOT, 'docs/bench.md') },
  },
});
const SECONDS = Number(args.seconds);
const ROUNDS = 3;

interface Row {
  store: string;
  overrides: string;
  judgeUs: number;
  matchUs: number;
}

/** µs per call of `call` over the URLs, cycled for ≥ SECONDS; median of ROUNDS. */
async function microsPerCall(
  urls: readonly ParsedUrl[],
  call: (url: ParsedUrl) => Promise<unknown>,
): Promise<number> {
  const results: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let calls = 0;
    const started = performance.now();
    while (performance.now() - started < SECONDS * 1000) {
      for (const url of urls) await call(url);
      calls += urls.length;
    }
    results.push(((performance.now() - started) * 1000) / calls);
  }
  results.sort((a, b) => a - b);
  return results[Math.floor(ROUNDS / 2)] ?? Number.NaN;
}

/** Add overrides for `hosts` (allow, a reason, no expiry) through the store. */
async function addOverrides(store: Store, hosts: readonly string[]): Promise<void> {
  const now = systemClock.now();
  for (const host of hosts) {
    await store.overrides.addOverride({
      id: newOverrideId(),
      action: 'allow',
      ...parseOverrideTarget(host),
      reason: 'bench',
      createdBy: 'bench',
      createdAt: now,
      expiresAt: null,
      reportId: null,
    });
  }
}

async function measure(name: string, store: Store): Promise<Row[]> {
  const service = new DetectionService(defaultEngine(), store, systemClock);
  const overrides = new VerdictOverrides(store.overrides, systemClock);
  const urls = BENCH_URLS.map((text) => service.parse(text));
  // Twice: the verdict cache admits a URL on its second sighting.
  for (let i = 0; i < 2; i++) for (const url of urls) await service.judge(url);
  const rows: Row[] = [];
  const others = (count: number, from: number) =>
    Array.from({ length: count }, (_, i) => `site-${String(from + i)}.example.com`);
  let inForce = 0;
  for (const target of [0, 100, 10_000]) {
    await addOverrides(store, others(target - inForce, inForce));
    inForce = target;
    rows.push({
      store: name,
      overrides: `${target.toLocaleString('en-US')} of other sites`,
      judgeUs: await microsPerCall(urls, (url) => service.judge(url)),
      matchUs: await microsPerCall(urls, (url) => overrides.match(url)),
    });
  }
  // An IPv6 host is written in brackets, as in a URL.
  const hosts = urls.map((url) => (url.ipVersion === 6 ? `[${url.hostname}]` : url.hostname));
  await addOverrides(store, [...new Set(hosts)]);
  rows.push({
    store: name,
    overrides: '10,000 + one per benchmark host: every verdict overridden',
    judgeUs: await microsPerCall(urls, (url) => service.judge(url)),
    matchUs: await microsPerCall(urls, (url) => overrides.match(url)),
  });
  return rows;
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'lg-overrides-bench-'));
  try {
    const store = openSqliteStore(join(dir, 'bench.db'));
    try {
      rows.push(...(await measure('SQLite', store)));
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  let note = '';
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  const database = `lg_overrides_bench_${String(process.pid)}`;
  try {
    await admin.connect();
  } catch (error) {
    note = `PostgreSQL not measured: ${error instanceof Error ? error.message : String(error)}.`;
  }
  if (note === '') {
    await admin.query(`CREATE DATABASE ${database}`);
    try {
      const store = await openPostgresStore(`postgres://postgres@127.0.0.1:5432/${database}`);
      try {
        rows.push(...(await measure('PostgreSQL', store)));
      } finally {
        await store.close();
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    }
  }
  const table = [
    '| store | overrides in force | `judge()` of a cached verdict, µs | override look-up alone, µs | look-up / `judge()` |',
    '|---|---|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.store} | ${r.overrides} | ${r.judgeUs.toFixed(2)} | ${r.matchUs.toFixed(2)} | ${((100 * r.matchUs) / r.judgeUs).toFixed(1)} % |`,
    ),
  ].join('\n');
  const section = [
    SECTION_START,
    '## Verdict overrides (`npm run bench:overrides`)',
    '',
    `_Written on ${new Date().toISOString()}; one process, sequential calls, median of ${String(ROUNDS)} runs of ≥ ${String(SECONDS)} s each._`,
    '',
    "Every verdict served reads the overrides in force (the adapter's cached snapshot) and looks the URL up in their index (docs/decisions.md, decision 191). Measured on the path of a repeated URL, whose verdict is cached — the cheapest path, where the look-up weighs most: the detection service's `judge()` of the 216 benchmark URLs, and the look-up alone. The override of an overridden verdict is applied to a copy of the cached verdict (last rows).",
    '',
    table,
    ...(note === '' ? [] : ['', note]),
    '',
    SECTION_END,
  ].join('\n');
  console.log(table);
  writeSection(args.out, { start: SECTION_START, end: SECTION_END }, section);
  console.log(`\nwrote ${relative(ROOT, args.out)}`);
}

await main();
