/**
 * @module bench/intel-bench
 * `npm run bench:intel`: what layer 2's threat index costs (DESIGN §9: "intel lookups O(1) per
 * host label"; "≤ 400 MB RSS with 1 million threat-intel entries loaded").
 *
 * Two scenarios, each in a fresh Node process (`node --expose-gc --import tsx`, so `gc()` can be
 * forced before every memory reading and nothing of the other scenario is left in the heap):
 * - `dev`: every development feed of `../shared/data` (the entries of docs/eval.md, layer 2 (a),
 *   via scripts/dev-feeds.ts), added to a `ThreatIndexBuilder` feed by feed, each feed's parsed
 *   entries dropped after it is added (as the service reads the store page by page);
 * - `scale`: the same, plus unique synthetic hosts generated deterministically until 1,000,000
 *   entries have been given to the index.
 * In each: RSS and heap before (engine loaded) and after (index built, parse results dropped; two
 * forced collections, a 1 s pause for V8 to return freed pages, two more); peak RSS; build time (`add` + `build`, file parsing apart); lookups per second over
 * at least 1 s each for URLs that hit (a sample of the feeds' own entries) and URLs that miss (the
 * benign lists of the eval); p50 / p99 of single lookups timed one by one. Lookups take an already
 * normalized URL (`normalizeUrl` is the engine's cost and runs once per request anyway).
 *
 * Writes its section into docs/bench.md between `<!-- intel:start -->` and `<!-- intel:end -->`
 * (`npm run bench` keeps that section when it rewrites the file).
 *
 * Options: --seconds 1 (per lookup measurement), --entries 1000000 (scale target),
 * --out docs/bench.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { DEV_FEEDS, devFeeds } from '../scripts/dev-feeds.js';
import { normalizeUrl, type ParsedUrl } from '../src/engine/url/normalize-url.js';
import { defaultEngine } from '../src/engine-data/load-engine-data.js';
import {
  type IndexedFeed,
  type IndexStats,
  type ThreatIndex,
  ThreatIndexBuilder,
} from '../src/intel/threat-index.js';
import { seededRandom } from '../test/helpers/seeded-random.js';
import { SECTION_END, SECTION_START } from './intel-section.js';
import { writeSection } from './support/doc-sections.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);
const DATA = resolve(process.env.LINKGUARD_SHARED_DIR ?? join(ROOT, '..', 'shared'), 'data');

/** DESIGN §9. */
const RSS_BUDGET_MB = 400;
/** Every n-th feed entry becomes a URL of the "hit" set. */
const HIT_SAMPLE_STRIDE = 5;
/** Single-lookup timings kept per set (enough for a stable p99). */
const MAX_TIMINGS = 2_000_000;
/** The benign lists of the eval (scripts/eval-dev.ts), the "miss" set. */
const BENIGN_LISTS = [
  'majestic_million',
  'cisco_top20k',
  'cloudflare-top10k',
  'moz-top500',
  'bank-website',
  'university_domains',
  'tranco10k',
  'google',
  'microsoft',
];

type Scenario = 'dev' | 'scale';

interface Memory {
  rssMb: number;
  /** Highest RSS of the process so far. */
  peakRssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
}

interface LookupResult {
  urls: number;
  lookupsPerSecond: number;
  seconds: number;
  p50Us: number;
  p99Us: number;
  timed: number;
}

/** What a scenario child prints (one JSON line). */
interface ScenarioResult {
  scenario: Scenario;
  entriesGiven: number;
  realEntries: number;
  syntheticEntries: number;
  indexed: number;
  stats: IndexStats;
  parseMs: number;
  buildMs: number;
  before: Memory;
  after: Memory;
  hits: LookupResult;
  misses: LookupResult;
  timerOverheadUs: number;
}

const MB = 1024 * 1024;
/**
 * Pause between forced collections before a memory reading: V8 sweeps and returns freed pages to
 * the system concurrently, so RSS read right after `gc()` still holds garbage of the build
 * (measured: 455 MB right after, 405–409 MB from half a second on, steady).
 */
const SETTLE_MS = 1000;

/** Memory after two forced collections, a pause and two more (steady state, not transient). */
async function memory(): Promise<Memory> {
  const gc = globalThis.gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  gc();
  gc();
  await sleep(SETTLE_MS);
  gc();
  gc();
  const usage = process.memoryUsage();
  return {
    rssMb: usage.rss / MB,
    peakRssMb: (process.resourceUsage().maxRSS * 1024) / MB,
    heapUsedMb: usage.heapUsed / MB,
    heapTotalMb: usage.heapTotal / MB,
    externalMb: usage.external / MB,
  };
}

const WORDS = [
  'wallet',
  'claim',
  'airdrop',
  'secure',
  'login',
  'verify',
  'dapp',
  'bridge',
  'swap',
  'reward',
  'bonus',
  'mint',
  'connect',
  'support',
  'portal',
  'token',
  'staking',
  'restore',
  'sync',
  'gift',
  'account',
  'update',
  'billing',
  'parcel',
  'delivery',
  'toll',
  'refund',
  'prize',
  'web3',
  'defi',
];
const TLDS = [
  'com',
  'xyz',
  'top',
  'net',
  'online',
  'site',
  'shop',
  'app',
  'io',
  'org',
  'info',
  'vip',
  'click',
  'live',
  'pro',
  'cc',
];
const PREFIXES = ['app.', 'claim.', 'portal.', 'secure.'];

/**
 * The i-th synthetic host: two lure words, a base-36 counter (unique), a TLD; one in five with a
 * subdomain. About 22 characters, like the feeds' hosts.
 */
function syntheticHost(i: number, random: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const prefix = random() < 0.2 ? pick(PREFIXES) : '';
  return `${prefix}${pick(WORDS)}-${pick(WORDS)}-${i.toString(36)}.${pick(TLDS)}`;
}

function benignHosts(): string[] {
  const hosts = new Set<string>();
  for (const list of BENIGN_LISTS) {
    const file = join(DATA, 'misp-warninglists', list, 'list.json');
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { list: string[] };
    for (const raw of parsed.list) {
      const host = raw.replace(/^\.+/, '').toLowerCase();
      if (host !== '' && !host.includes('*') && !host.includes('/')) hosts.add(host);
    }
  }
  return [...hosts];
}

function timerOverheadUs(): number {
  const samples = new Float64Array(100_000);
  for (let i = 0; i < samples.length; i++) {
    const start = process.hrtime.bigint();
    samples[i] = Number(process.hrtime.bigint() - start);
  }
  return (samples.sort()[samples.length >> 1] ?? Number.NaN) / 1000;
}

/** Lookups per second over ≥ `seconds`, then single lookups timed one by one for ≥ `seconds`. */
function measureLookups(
  index: ThreatIndex,
  urls: readonly ParsedUrl[],
  seconds: number,
): LookupResult {
  let sink = 0;
  const pass = (): void => {
    for (const url of urls) sink += index.lookup(url).denied.length;
  };
  // Warm-up: JIT and caches.
  for (let started = performance.now(); performance.now() - started < 200;) pass();

  let lookups = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < seconds * 1000) {
    pass();
    lookups += urls.length;
    elapsed = performance.now() - started;
  }

  const timings = new Float64Array(MAX_TIMINGS);
  let timed = 0;
  const timedStart = performance.now();
  outer: while (performance.now() - timedStart < seconds * 1000) {
    for (const url of urls) {
      const t0 = process.hrtime.bigint();
      sink += index.lookup(url).denied.length;
      timings[timed++] = Number(process.hrtime.bigint() - t0);
      if (timed === MAX_TIMINGS) break outer;
    }
  }
  const sorted = timings.subarray(0, timed).sort();
  const at = (q: number): number =>
    (sorted[Math.min(timed - 1, Math.floor(q * timed))] ?? NaN) / 1000;
  if (sink < 0) console.log('unreachable'); // keeps the lookups observable
  return {
    urls: urls.length,
    lookupsPerSecond: lookups / (elapsed / 1000),
    seconds: elapsed / 1000,
    p50Us: at(0.5),
    p99Us: at(0.99),
    timed,
  };
}

/** One scenario, in this (fresh) process. */
async function runScenario(
  scenario: Scenario,
  target: number,
  seconds: number,
): Promise<ScenarioResult> {
  const engine = defaultEngine();
  const feeds: IndexedFeed[] = [
    ...DEV_FEEDS.map((feed, i) => ({ id: i + 1, name: feed.name, threat: feed.threat })),
    { id: DEV_FEEDS.length + 1, name: 'synthetic', threat: 'crypto_scam' },
  ];
  const before = await memory();

  const builder = new ThreatIndexBuilder(engine, feeds);
  let parseMs = 0;
  let buildMs = 0;
  let realEntries = 0;
  const hitValues: string[] = [];
  let parseStarted = performance.now();
  let id = 0;
  for (const feed of devFeeds(DATA)) {
    id++;
    parseMs += performance.now() - parseStarted;
    const addStarted = performance.now();
    for (const entry of feed.entries) builder.add(id, entry);
    buildMs += performance.now() - addStarted;
    for (let i = 0; i < feed.entries.length; i += HIT_SAMPLE_STRIDE) {
      const entry = feed.entries[i];
      if (entry?.list === 'deny') hitValues.push(entry.value);
    }
    realEntries += feed.entries.length;
    parseStarted = performance.now();
  }

  let syntheticEntries = 0;
  if (scenario === 'scale') {
    const random = seededRandom(20_241_001);
    const firstSeen = Date.UTC(2025, 0, 1);
    const addStarted = performance.now();
    for (let i = 0; realEntries + syntheticEntries < target; i++) {
      builder.add(feeds.length, {
        list: 'deny',
        kind: 'host',
        value: syntheticHost(i, random),
        target: null,
        firstSeen,
      });
      syntheticEntries++;
    }
    buildMs += performance.now() - addStarted;
  }
  const buildStarted = performance.now();
  const index = builder.build();
  buildMs += performance.now() - buildStarted;
  const after = await memory();

  const parsed = (values: readonly string[]): ParsedUrl[] =>
    values.flatMap((value) => {
      const result = normalizeUrl(value);
      return result.ok ? [result.url] : [];
    });
  const hitUrls = parsed(hitValues).filter((url) => index.lookup(url).denied.length > 0);
  const missUrls = parsed(benignHosts()).filter((url) => {
    const match = index.lookup(url);
    return match.denied.length === 0 && match.allowedBy.length === 0;
  });
  return {
    scenario,
    entriesGiven: realEntries + syntheticEntries,
    realEntries,
    syntheticEntries,
    indexed: index.size,
    stats: index.stats,
    parseMs,
    buildMs,
    before,
    after,
    hits: measureLookups(index, hitUrls, seconds),
    misses: measureLookups(index, missUrls, seconds),
    timerOverheadUs: timerOverheadUs(),
  };
}

/** Run a scenario in a fresh child process and read its JSON line. */
function spawnScenario(scenario: Scenario, target: number, seconds: number): ScenarioResult {
  const child = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      SELF,
      '--child',
      scenario,
      '--entries',
      String(target),
      '--seconds',
      String(seconds),
    ],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 * MB },
  );
  if (child.status !== 0) {
    throw new Error(
      `scenario ${scenario} failed (${child.status ?? child.signal}):\n${child.stderr}`,
    );
  }
  const line = child.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as ScenarioResult;
}

/** RSS of an empty Node process without and with the tsx loader the scenarios run under. */
interface Loader {
  nodeMb: number;
  tsxMb: number;
}

const n = (value: number): string => Math.round(value).toLocaleString('en-US');
const mb = (value: number): string => value.toFixed(1);
const us = (value: number): string => value.toFixed(2);

function render(
  dev: ScenarioResult,
  scale: ScenarioResult,
  seconds: number,
  loader: Loader,
): string {
  const both = (pick: (r: ScenarioResult) => string): string => `${pick(dev)} | ${pick(scale)}`;
  const met = scale.after.rssMb <= RSS_BUDGET_MB;
  const tsxMb = loader.tsxMb - loader.nodeMb;
  const withoutLoader = scale.after.rssMb - tsxMb;
  const perEntry = (r: ScenarioResult): string =>
    `${n(((r.after.rssMb - r.before.rssMb) * MB) / r.indexed)} / ${n(((r.after.heapUsedMb - r.before.heapUsedMb) * MB) / r.indexed)}`;
  const lines = [
    SECTION_START,
    '## Threat-intel index (layer 2)',
    '',
    `\`npm run bench:intel\`, ${new Date().toISOString().slice(0, 10)}: every development feed of ../shared/data ` +
      `(${DEV_FEEDS.map((f) => f.name).join(', ')}; the entries of docs/eval.md, layer 2 (a)) added to a ` +
      '`ThreatIndexBuilder`, each scenario in a fresh `node --expose-gc` process; before each memory ' +
      `reading two forced collections, a ${SETTLE_MS / 1000} s pause (V8 returns freed pages concurrently) and two more; ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), load average ` +
      `${loadavg()[0]?.toFixed(2) ?? '?'}, Node ${process.version}. "Before" = the engine loaded, no index; ` +
      '"after" = the index built, parse results dropped. Build time is `add()` + `build()` (normalizing and ' +
      'classifying every entry), file parsing apart. Lookups take a normalized URL; the rate is measured over ' +
      `≥ ${seconds} s per set, then single lookups are timed one by one (process.hrtime.bigint, whose own ` +
      `cost, ${us(dev.timerOverheadUs)} µs, is included in p50/p99). Hits: every ${HIT_SAMPLE_STRIDE}th feed ` +
      'entry as a URL (the ones the index lists); misses: the benign lists of the eval minus the few a feed lists.',
    '',
    '| measure | development feeds | scaled to 1,000,000 entries |',
    '|---|---:|---:|',
    `| entries given to the index (real + synthetic) | ${both((r) => `${n(r.realEntries)} + ${n(r.syntheticEntries)}`)} |`,
    `| entries indexed (deny hosts / deny URL prefixes / allow) | ${both((r) => `${n(r.indexed)} (${n(r.stats.hostDeny)} / ${n(r.stats.prefixDeny)} / ${n(r.stats.hostAllow + r.stats.prefixAllow)})`)} |`,
    `| not indexed (platform names / official or popular / invalid) | ${both((r) => `${n(r.stats.platformHosts)} / ${n(r.stats.protectedHosts)} / ${n(r.stats.invalid)}`)} |`,
    `| feed files parsed, ms | ${both((r) => n(r.parseMs))} |`,
    `| index build, ms | ${both((r) => n(r.buildMs))} |`,
    `| RSS before → after, MB | ${both((r) => `${mb(r.before.rssMb)} → **${mb(r.after.rssMb)}**`)} |`,
    `| peak RSS during the build, MB | ${both((r) => mb(r.after.peakRssMb))} |`,
    `| heap used before → after, MB | ${both((r) => `${mb(r.before.heapUsedMb)} → ${mb(r.after.heapUsedMb)}`)} |`,
    `| heap total after, MB (external) | ${both((r) => `${mb(r.after.heapTotalMb)} (${mb(r.after.externalMb)})`)} |`,
    `| growth per indexed entry, bytes: RSS / heap used | ${both(perEntry)} |`,
    `| lookups/s, URLs that hit | ${both((r) => `${n(r.hits.lookupsPerSecond)} (${n(r.hits.urls)} URLs)`)} |`,
    `| p50 / p99 per hit lookup, µs | ${both((r) => `${us(r.hits.p50Us)} / ${us(r.hits.p99Us)}`)} |`,
    `| lookups/s, URLs that miss | ${both((r) => `${n(r.misses.lookupsPerSecond)} (${n(r.misses.urls)} URLs)`)} |`,
    `| p50 / p99 per miss lookup, µs | ${both((r) => `${us(r.misses.p50Us)} / ${us(r.misses.p99Us)}`)} |`,
    '',
    '| budget | target | measured | verdict |',
    '|---|---|---|---|',
    `| RSS with 1 million threat-intel entries loaded (this process: Node, tsx, engine, index) | ≤ ${RSS_BUDGET_MB} MB | ${mb(scale.after.rssMb)} MB | ${met ? `met, ${mb(RSS_BUDGET_MB - scale.after.rssMb)} MB to spare` : `**MISSED** by ${mb(scale.after.rssMb - RSS_BUDGET_MB)} MB`} |`,
    `| the same without the tsx loader (estimate: minus its ${mb(tsxMb)} MB in an empty process) | ≤ ${RSS_BUDGET_MB} MB | ≈ ${mb(withoutLoader)} MB | ${withoutLoader <= RSS_BUDGET_MB ? 'met (estimate)' : '**MISSED** (estimate)'} |`,
    `| intel lookups O(1) per host label | cost independent of the entry count | p50 hit ${us(dev.hits.p50Us)} → ${us(scale.hits.p50Us)} µs, miss ${us(dev.misses.p50Us)} → ${us(scale.misses.p50Us)} µs from ${n(dev.indexed)} to ${n(scale.indexed)} entries | ${Math.max(scale.hits.p50Us / dev.hits.p50Us, scale.misses.p50Us / dev.misses.p50Us) < 1.5 ? 'met' : '**check**'} |`,
    '',
    `An empty Node process has ${mb(loader.nodeMb)} MB RSS, ${mb(loader.tsxMb)} MB with the tsx loader the ` +
      'scenarios run under; the compiled server (`dist/`) does not load tsx, hence the estimate, which ' +
      'is not a measurement of the server (its TypeScript is compiled ahead, its index is read from the ' +
      'store page by page, and Fastify, the store and caches come on top). ' +
      'A lookup is one `Map.get` per candidate host (the host and each parent up to the site boundary) ' +
      'plus the site-scope decision (hosting platform, protected domain), so its cost follows the number ' +
      'of labels, not the number of entries. The memory figure is this bench process (Node, tsx, the engine ' +
      'and the index); a running server adds Fastify and its caches on top, so keep some headroom. ' +
      'Synthetic hosts: two lure words, a base-36 counter and one of 16 TLDs, one in five with a subdomain, ' +
      "about 22 characters like the feeds' hosts (seeded PRNG: the same hosts every run).",
    SECTION_END,
  ];
  return lines.join('\n');
}

/** RSS (MB) of an empty Node process after two collections, with the given extra flags. */
function emptyProcessRssMb(flags: readonly string[]): number {
  const code = 'globalThis.gc(); globalThis.gc(); console.log(process.memoryUsage().rss)';
  const child = spawnSync(process.execPath, ['--expose-gc', ...flags, '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`empty node process failed:\n${child.stderr}`);
  return Number(child.stdout.trim()) / MB;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      child: { type: 'string' },
      entries: { type: 'string', default: '1000000' },
      seconds: { type: 'string', default: '1' },
      out: { type: 'string', default: 'docs/bench.md' },
    },
  });
  const target = Number(values.entries);
  const seconds = Number(values.seconds);
  if (!Number.isInteger(target) || target <= 0)
    throw new Error('--entries must be a positive integer');
  if (!Number.isFinite(seconds) || seconds < 1) throw new Error('--seconds must be at least 1');
  if (!existsSync(DATA)) {
    throw new Error(
      `${DATA} not found: the development data is only in the maintainers' checkout.`,
    );
  }
  if (values.child === 'dev' || values.child === 'scale') {
    console.log(JSON.stringify(await runScenario(values.child, target, seconds)));
    return;
  }
  const loader: Loader = {
    nodeMb: emptyProcessRssMb([]),
    tsxMb: emptyProcessRssMb(['--import', 'tsx']),
  };
  const results: ScenarioResult[] = [];
  for (const scenario of ['dev', 'scale'] as const) {
    console.log(`${scenario}: building the index in a fresh process…`);
    const result = spawnScenario(scenario, target, seconds);
    console.log(
      `  ${n(result.indexed)} entries indexed in ${n(result.buildMs)} ms; RSS ${mb(result.before.rssMb)} → ` +
        `${mb(result.after.rssMb)} MB, heap used ${mb(result.before.heapUsedMb)} → ${mb(result.after.heapUsedMb)} MB; ` +
        `hits ${n(result.hits.lookupsPerSecond)}/s (p50 ${us(result.hits.p50Us)} µs), ` +
        `misses ${n(result.misses.lookupsPerSecond)}/s (p50 ${us(result.misses.p50Us)} µs)`,
    );
    results.push(result);
  }
  const [dev, scale] = results as [ScenarioResult, ScenarioResult];
  const section = render(dev, scale, seconds, loader);
  console.log(`\n${section}`);
  const out = resolve(ROOT, values.out);
  writeSection(out, { start: SECTION_START, end: SECTION_END }, section);
  console.log(`\nwrote ${relative(ROOT, out)}`);
}

try {
  await main();
} catch (error) {
  process.exitCode = 1;
  console.error(`bench:intel failed: ${error instanceof Error ? error.message : String(error)}`);
}
