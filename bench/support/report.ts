/**
 * @module bench/support/report
 * Turn the measurements into the console summary and docs/bench.md. Every statement in the
 * interpretation is computed from the numbers of this run; nothing is written in advance.
 */
import type { CpuUse } from './cpu-accounting.js';
import type { ProfileEntry, ProfileSummary } from './cpu-profile.js';
import type { EngineResult } from './engine-bench.js';
import { median } from './stats.js';

/**
 * `linkguard` runs on the embedded SQLite store; `linkguard-postgres` (with `--store postgres`)
 * on PostgreSQL and Redis.
 */
export type ServerKind = 'baseline' | 'linkguard' | 'linkguard-postgres';

/** Budget of the scale-out store: per-request CPU on PostgreSQL ≤ 1.5 × SQLite. */
const TARGET_POSTGRES_CPU_RATIO = 1.5;

/** A run is clean when other tenants used less than this share of one CPU (shared machines; see docs/bench.md). */
export const CLEAN_FOREIGN_SHARE = 0.15;

/** The budgets the README lists under 'Accuracy and speed'. */
const TARGET_RATIO = 0.25;
const TARGET_P99_MS = 10;
const TARGET_ENGINE_URLS_PER_SECOND = 20_000;
/**
 * Budgets of the MCP connector (issue 15, "The connector at the API's speed"): `tools/call
 * check_url` answers at least half the requests/s of `POST /v1/detect` on the same process, with
 * a p99 latency at most twice detect's.
 */
const TARGET_CONNECTOR_RATIO = 0.5;
const TARGET_CONNECTOR_P99_RATIO = 2;

/** What one load phase measured (latencies in ms, from the client's histogram). */
export interface LoadResult {
  requestsPerSecond: number;
  totalRequests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  statusCounts: Record<string, number>;
  errors: number;
  timeouts: number;
}

export interface RunMeasurement extends LoadResult {
  kind: ServerKind;
  round: number;
  cpu: CpuUse | null;
  /** Server CPU time per completed request, µs. */
  serverUsPerRequest: number | null;
  /** Null when CPU accounting is unavailable. */
  clean: boolean | null;
  /** CPU time of the PostgreSQL and Redis servers per completed request, µs (null: not read). */
  databaseUsPerRequest: number | null;
}

export interface BuildInfo {
  commit: string;
  /** Files under src/ that differ from the commit (the lead's work in progress, if any). */
  dirtySourceFiles: number;
  builtAt: string;
  newestSourceChange: string;
}

export interface MachineInfo {
  cpuModel: string;
  cpuCount: number;
  totalMemoryGiB: number;
  node: string;
  os: string;
  loadBefore: number[];
  loadAfter: number[];
  uptimeBefore: string | null;
  uptimeAfter: string | null;
  pinning: string;
}

export interface BenchReport {
  startedAt: Date;
  command: string;
  options: {
    rounds: number;
    duration: number;
    connections: number;
    warmup: number;
    engineSeconds: number;
    /** Every request carried a URL never sent before, so no verdict came from the cache. */
    freshUrls: boolean;
    /** `postgres`: a third server on PostgreSQL + Redis is measured in every round. */
    store: 'sqlite' | 'postgres';
  };
  build: BuildInfo;
  notes: string[];
  machine: MachineInfo;
  urlCategories: Record<string, number>;
  urlCount: number;
  httpVerdicts: Record<string, number>;
  engine: EngineResult;
  runs: RunMeasurement[];
  /**
   * The MCP connector on the same server process as `/v1/detect`, back to back with the same URL
   * mix and connections: `tools/call check_url` with the key in the header and with an OAuth
   * access token for it, vs `POST /v1/detect` (null when not measured).
   */
  connector: { detect: LoadResult; toolsCall: LoadResult; toolsCallOAuth: LoadResult } | null;
  profile: {
    summary: ProfileSummary;
    file: string;
    requestsPerSecond: number;
    /** Requests served in the profiled window (the measured run, warm-up excluded). */
    requests: number;
    /** Sampling interval, µs. */
    intervalUs: number;
  } | null;
}

interface ServerSummary {
  runs: number;
  requestsPerSecond: number;
  cleanRequestsPerSecond: number | null;
  p50Ms: number;
  p99Ms: number;
  usPerRequest: number | null;
  busyShare: number | null;
  /** Share of the load generator's core used by the bench process. */
  loadShare: number | null;
  /** Share of the server's core used by other processes (pinned runs only). */
  foreignOnServerShare: number | null;
  /** Share of the load generator's core used by other processes (pinned runs only). */
  foreignOnLoadShare: number | null;
  clean: number | null;
}

function summarise(runs: readonly RunMeasurement[], kind: ServerKind): ServerSummary {
  const mine = runs.filter((run) => run.kind === kind);
  const known = <T>(values: (T | null)[]) => values.filter((v): v is T => v !== null);
  const perRequest = known(mine.map((run) => run.serverUsPerRequest));
  const share = (pick: (cpu: CpuUse) => number | null) => {
    const values = known(
      mine.map((run) => {
        if (run.cpu === null || run.cpu.wallSeconds === 0) return null;
        const value = pick(run.cpu);
        return value === null ? null : value / run.cpu.wallSeconds;
      }),
    );
    return values.length === 0 ? null : median(values);
  };
  const cleanRuns = mine.filter((run) => run.clean === true);
  const accounted = mine.filter((run) => run.clean !== null);
  return {
    runs: mine.length,
    requestsPerSecond: median(mine.map((run) => run.requestsPerSecond)),
    cleanRequestsPerSecond:
      cleanRuns.length === 0 ? null : median(cleanRuns.map((run) => run.requestsPerSecond)),
    p50Ms: median(mine.map((run) => run.p50Ms)),
    p99Ms: median(mine.map((run) => run.p99Ms)),
    usPerRequest: perRequest.length === 0 ? null : median(perRequest),
    busyShare: share((cpu) => cpu.serverSeconds),
    loadShare: share((cpu) => cpu.benchSeconds),
    foreignOnServerShare: share((cpu) => cpu.foreignOnServerCpuSeconds),
    foreignOnLoadShare: share((cpu) => cpu.foreignOnLoadCpuSeconds),
    clean: accounted.length === 0 ? null : cleanRuns.length,
  };
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => n.toFixed(2);
const pct = (share: number) => `${(100 * share).toFixed(1)} %`;
const orNa = <T>(value: T | null, format: (v: T) => string) =>
  value === null ? 'n/a' : format(value);
const load3 = (values: number[]) => values.map((v) => v.toFixed(2)).join(' / ');

interface Budget {
  name: string;
  target: string;
  measured: string;
  met: boolean;
}

interface Derived {
  base: ServerSummary;
  lg: ServerSummary;
  ratio: number;
  cpuRatio: number | null;
  budgets: Budget[];
}

function derive(report: BenchReport): Derived {
  const base = summarise(report.runs, 'baseline');
  const lg = summarise(report.runs, 'linkguard');
  const ratio = lg.requestsPerSecond / base.requestsPerSecond;
  const cpuRatio =
    base.usPerRequest === null || lg.usPerRequest === null
      ? null
      : base.usPerRequest / lg.usPerRequest;
  const budgets: Budget[] = [
    {
      name: 'linkguard req/s relative to the hello-world baseline',
      target: `≥ ${pct(TARGET_RATIO)}`,
      measured: pct(ratio),
      met: ratio >= TARGET_RATIO,
    },
    {
      name: 'linkguard p99 latency (at saturation: 50 connections, no pause between requests)',
      target: `≤ ${TARGET_P99_MS} ms`,
      measured: `${ms(lg.p99Ms)} ms`,
      met: lg.p99Ms <= TARGET_P99_MS,
    },
    {
      name: 'engine alone, URL layer, one core (warm)',
      target: `≥ ${int(TARGET_ENGINE_URLS_PER_SECOND)} URLs/s`,
      measured: `${int(report.engine.warmUrlsPerSecond)} URLs/s`,
      met: report.engine.warmUrlsPerSecond >= TARGET_ENGINE_URLS_PER_SECOND,
    },
  ];
  return { base, lg, ratio, cpuRatio, budgets };
}

function resultRows(report: BenchReport, d: Derived): string[][] {
  const { base, lg, ratio, cpuRatio } = d;
  const rows = [
    [
      `requests/s (median of ${report.options.rounds} round${report.options.rounds === 1 ? '' : 's'})`,
      int(base.requestsPerSecond),
      int(lg.requestsPerSecond),
      pct(ratio),
    ],
  ];
  if (
    base.cleanRequestsPerSecond !== null &&
    lg.cleanRequestsPerSecond !== null &&
    (base.clean !== base.runs || lg.clean !== lg.runs)
  ) {
    rows.push([
      'requests/s (median of clean runs only)',
      int(base.cleanRequestsPerSecond),
      int(lg.cleanRequestsPerSecond),
      pct(lg.cleanRequestsPerSecond / base.cleanRequestsPerSecond),
    ]);
  }
  rows.push(
    ['p50 latency, ms', ms(base.p50Ms), ms(lg.p50Ms), ''],
    ['p99 latency, ms', ms(base.p99Ms), ms(lg.p99Ms), ''],
    [
      'server CPU per request, µs',
      orNa(base.usPerRequest, (v) => v.toFixed(1)),
      orNa(lg.usPerRequest, (v) => v.toFixed(1)),
      orNa(cpuRatio, (v) => `${pct(v)} (capacity per core)`),
    ],
    [
      'server core busy during the run',
      orNa(base.busyShare, (v) => `${Math.round(100 * v)} %`),
      orNa(lg.busyShare, (v) => `${Math.round(100 * v)} %`),
      '',
    ],
    [
      'clean runs',
      orNa(base.clean, (v) => `${v}/${base.runs}`),
      orNa(lg.clean, (v) => `${v}/${lg.runs}`),
      '',
    ],
  );
  return rows;
}

function markdownTable(header: string[], rows: string[][], align?: ('l' | 'r')[]): string {
  const sep = header.map((_, i) => ((align?.[i] ?? 'l') === 'r' ? '---:' : '---'));
  const line = (cells: string[]) => `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(header), `|${sep.join('|')}|`, ...rows.map(line)].join('\n');
}

function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const RESULT_HEADER = ['', 'hello-world baseline', 'linkguard', 'linkguard / baseline'];
const BUDGET_HEADER = ['budget', 'target', 'measured', 'verdict'];
const budgetRows = (budgets: Budget[]) =>
  budgets.map((b) => [b.name, b.target, b.measured, b.met ? 'met' : 'MISSED']);

function storeConsole(report: BenchReport): string[] {
  const store = storeRows(report);
  if (store === null) return [];
  return [
    textTable(STORE_HEADER, store.rows),
    '',
    textTable(BUDGET_HEADER, budgetRows([store.budget])),
    '',
  ];
}

const CONNECTOR_HEADER = [
  'endpoint',
  'req/s',
  'p50 ms',
  'p99 ms',
  'max ms',
  '× detect req/s',
  'p99 × detect',
];
const CONNECTOR_BUDGET_HEADER = ['budget (issue 15)', 'target', 'measured', 'verdict'];

/** The connector table's rows: each endpoint and its ratios to `POST /v1/detect`. */
function connectorRows(connector: NonNullable<BenchReport['connector']>): string[][] {
  const { detect } = connector;
  const row = (name: string, run: LoadResult) => [
    name,
    int(run.requestsPerSecond),
    ms(run.p50Ms),
    ms(run.p99Ms),
    ms(run.maxMs),
    `${(run.requestsPerSecond / detect.requestsPerSecond).toFixed(2)}×`,
    `${(run.p99Ms / detect.p99Ms).toFixed(2)}×`,
  ];
  return [
    row('`POST /v1/detect`', detect),
    row('`tools/call check_url`, enterprise key', connector.toolsCall),
    row('`tools/call check_url`, OAuth access token', connector.toolsCallOAuth),
  ];
}

/** The connector's budgets, on the call with the enterprise key (the credentials of detect). */
function connectorBudgets(connector: NonNullable<BenchReport['connector']>): Budget[] {
  const { detect, toolsCall } = connector;
  const ratio = toolsCall.requestsPerSecond / detect.requestsPerSecond;
  const p99Ratio = toolsCall.p99Ms / detect.p99Ms;
  return [
    {
      name: '`tools/call check_url` req/s relative to `POST /v1/detect`, same process',
      target: `≥ ${TARGET_CONNECTOR_RATIO.toFixed(2)}×`,
      measured: `${ratio.toFixed(2)}× (${int(toolsCall.requestsPerSecond)} / ${int(detect.requestsPerSecond)})`,
      met: ratio >= TARGET_CONNECTOR_RATIO,
    },
    {
      name: '`tools/call check_url` p99 latency relative to `POST /v1/detect`',
      target: `≤ ${TARGET_CONNECTOR_P99_RATIO.toFixed(2)}×`,
      measured: `${p99Ratio.toFixed(2)}× (${ms(toolsCall.p99Ms)} / ${ms(detect.p99Ms)} ms)`,
      met: p99Ratio <= TARGET_CONNECTOR_P99_RATIO,
    },
  ];
}

function connectorConsole(report: BenchReport): string[] {
  if (report.connector === null) return [];
  return [
    'MCP connector on one process, back to back with POST /v1/detect:',
    textTable(CONNECTOR_HEADER, connectorRows(report.connector)).replaceAll('`', ''),
    '',
    textTable(CONNECTOR_BUDGET_HEADER, budgetRows(connectorBudgets(report.connector))).replaceAll(
      '`',
      '',
    ),
    '',
  ];
}

/** The short summary printed at the end of a run. */
/**
 * Which detection layers the measured server runs (bench/run.ts sets its environment), stated
 * next to every figure: a reader must not take these rates for those of a fresh URL with RDAP
 * and its page.
 */
export const LAYERS_MEASURED =
  `**Layers measured:** layer 1 (URL rules and the learned URL model) and the layer-2 feed ` +
  `index, empty here (a fresh store holds no feed); RDAP off (\`RDAP_ENABLED=false\`: the bench ` +
  `stays on loopback), page analysis off (\`PAGE_ANALYSIS=off\`), no Web Risk key, no LLM judge. ` +
  `A fresh verdict with those on waits for a registry (≤ 800 ms) and fetches its page (≤ 4 s ` +
  `budget): see "Layer 3: page analysis" for that path.`;

export function renderConsole(report: BenchReport): string {
  const d = derive(report);
  return [
    textTable(RESULT_HEADER, resultRows(report, d)),
    '',
    textTable(BUDGET_HEADER, budgetRows(d.budgets)),
    '',
    ...storeConsole(report),
    ...connectorConsole(report),
    `engine alone: ${int(report.engine.warmUrlsPerSecond)} URLs/s warm, ` +
      `${int(report.engine.firstSightUrlsPerSecond)} URLs/s at first sight (fresh engine), ` +
      `median ${median(report.engine.costs.map((c) => c.microseconds)).toFixed(1)} µs/URL, ` +
      `slowest ${report.engine.costs[0]?.microseconds.toFixed(1) ?? '?'} µs`,
    ...(report.profile === null
      ? []
      : ['', profileText(report.profile.summary, d.lg.usPerRequest)]),
  ].join('\n');
}

/**
 * A profile entry's cost per request, estimated at the unprofiled speed: its share of the profiled
 * busy time times the median server CPU per request of the normal linkguard runs (profiling itself
 * slows the server, so raw profiled µs would overstate every entry).
 */
const perRequest = (entry: ProfileEntry, usPerRequest: number | null) =>
  usPerRequest === null ? 'n/a' : ((entry.percent / 100) * usPerRequest).toFixed(1);

function profileText(summary: ProfileSummary, usPerRequest: number | null): string {
  const rows = (entries: ProfileEntry[]) =>
    entries.map((e) => [
      e.name,
      e.location,
      e.ms.toFixed(0),
      perRequest(e, usPerRequest),
      `${e.percent.toFixed(1)} %`,
    ]);
  return [
    'CPU profile of the measured run, top 10 functions by self time (µs/req: share × unprofiled CPU per request):',
    textTable(['function', 'location', 'self ms', '≈ µs/req', 'share'], rows(summary.topSelf)),
    '',
    'CPU profile by area (self time):',
    textTable(['area', '', 'self ms', '≈ µs/req', 'share'], rows(summary.byArea)),
  ].join('\n');
}

function interpretation(report: BenchReport, d: Derived): string[] {
  const { base, lg, ratio, cpuRatio } = d;
  const out: string[] = [];
  const gap = Math.abs(ratio - TARGET_RATIO) * 100;
  out.push(
    `linkguard answered ${int(lg.requestsPerSecond)} requests/s, ${pct(ratio)} of the ` +
      `${int(base.requestsPerSecond)} requests/s of the bare Fastify baseline on the same core, so ` +
      `the ≥ ${pct(TARGET_RATIO)} budget is ${ratio >= TARGET_RATIO ? `met with ${gap.toFixed(1)} points to spare` : `missed by ${gap.toFixed(1)} points`}.`,
  );
  const littleMs = (1000 * report.options.connections) / lg.requestsPerSecond;
  out.push(
    `Its p99 latency of ${ms(lg.p99Ms)} ms is ${lg.p99Ms <= TARGET_P99_MS ? 'within' : 'over'} the ` +
      `${TARGET_P99_MS} ms budget. With ${report.options.connections} connections kept busy, the mean ` +
      `latency is set by throughput (${report.options.connections} / ${int(lg.requestsPerSecond)} req/s ≈ ` +
      `${ms(littleMs)} ms; p50 measured ${ms(lg.p50Ms)} ms), so at saturation latency and throughput are the same budget.`,
  );
  if (base.usPerRequest !== null && lg.usPerRequest !== null && cpuRatio !== null) {
    const extra = lg.usPerRequest - base.usPerRequest;
    const engineUs = 1e6 / report.engine.warmUrlsPerSecond;
    const firstUs = 1e6 / report.engine.firstSightUrlsPerSecond;
    const rest = extra - engineUs;
    out.push(
      `Per request the linkguard server spent ${lg.usPerRequest.toFixed(1)} µs of CPU against ` +
        `${base.usPerRequest.toFixed(1)} µs for the baseline: per core, linkguard has ` +
        `${pct(cpuRatio)} of the baseline's capacity, which ${cpuRatio >= TARGET_RATIO ? 'meets' : 'misses'} ` +
        `the ${pct(TARGET_RATIO)} budget and is less exposed to interference than the requests/s ratio. So ` +
        `linkguard's own work costs about ${extra.toFixed(1)} µs per request. The engine's URL layer ` +
        `alone takes ${engineUs.toFixed(1)} µs per URL with warm caches (${firstUs.toFixed(1)} µs at ` +
        `first sight), ${pct(engineUs / lg.usPerRequest)} of the server's per-request CPU; the other ` +
        `≈ ${rest.toFixed(1)} µs go to the request pipeline around the engine (key authentication, ` +
        `rate limiting, the SQLite usage writes, validation and serialization of the verdict, and the kernel's network work). ` +
        `A tight loop keeps the engine's caches and JIT state hot, so inside the server the engine ` +
        `usually costs more than this; \`--profile\` measures the split in the server itself.`,
    );
  }
  for (const [name, summary] of [
    ['baseline', base],
    ['linkguard', lg],
  ] as const) {
    if (summary.busyShare !== null && summary.busyShare < 0.9) {
      const facts = [
        summary.foreignOnServerShare === null
          ? null
          : `other processes used ${Math.round(100 * summary.foreignOnServerShare)} % of that core`,
        summary.loadShare === null
          ? null
          : `the load generator used ${Math.round(100 * summary.loadShare)} % of its own core` +
            (summary.foreignOnLoadShare === null
              ? ''
              : ` and other processes ${Math.round(100 * summary.foreignOnLoadShare)} %`),
      ].filter((fact) => fact !== null);
      const cause =
        summary.loadShare !== null && summary.loadShare >= 0.9
          ? 'so the load generator, not the server, limited its requests/s'
          : summary.foreignOnLoadShare !== null && summary.foreignOnLoadShare >= 0.1
            ? "so interference on the load generator's core kept the server from being saturated"
            : summary.foreignOnServerShare !== null && summary.foreignOnServerShare >= 0.05
              ? 'so interference on its own core cost it throughput'
              : 'so the server spent part of the time waiting (I/O, the kernel) rather than computing';
      out.push(
        `The ${name} server's core was only ${Math.round(100 * summary.busyShare)} % busy` +
          (facts.length === 0 ? '' : ` (${facts.join('; ')})`) +
          `, ${cause}; CPU per request is the better measure of its capacity.`,
      );
    }
  }
  if (report.profile !== null) {
    const { summary } = report.profile;
    const areas = summary.byArea
      .slice(0, 4)
      .map(
        (a) =>
          `${a.name} ${a.percent.toFixed(0)} % (≈ ${perRequest(a, lg.usPerRequest)} µs/request)`,
      )
      .join(', ');
    const top = summary.topSelf
      .slice(0, 3)
      .map((e) => `\`${e.name}\` (${e.percent.toFixed(1)} %)`)
      .join(', ');
    out.push(
      `In the profiled run the largest shares of the server's busy CPU time were ${areas}; the ` +
        `hottest functions by self time were ${top}.`,
    );
  }
  const accounted = report.runs.filter((run) => run.clean !== null);
  const clean = accounted.filter((run) => run.clean === true).length;
  const [before] = report.machine.loadBefore;
  const [after] = report.machine.loadAfter;
  out.push(
    accounted.length === 0
      ? 'Interference could not be measured on this system (no /proc), so the numbers carry the ' +
          'usual caveat of a shared machine.'
      : `Interference: ${clean} of ${accounted.length} runs were clean (other tenants used less than ` +
          `${pct(CLEAN_FOREIGN_SHARE)} of a CPU); the 1-minute load average was ` +
          `${before?.toFixed(2) ?? '?'} before and ${after?.toFixed(2) ?? '?'} after. ` +
          (clean === accounted.length
            ? 'Run-to-run differences under about 15 % are still noise.'
            : 'Noisy runs are marked below; their requests/s are likely understated, and differences ' +
              'under about 15 % are not significant even between clean runs.'),
  );
  return out;
}

/** docs/bench.md. */
/**
 * The PostgreSQL + Redis server next to the SQLite one (medians over rounds), with the budget on
 * per-request CPU; empty when `--store postgres` was not given.
 */
function storeRows(report: BenchReport): { rows: string[][]; budget: Budget } | null {
  const postgresRuns = report.runs.filter((run) => run.kind === 'linkguard-postgres');
  if (postgresRuns.length === 0) return null;
  const sqlite = summarise(report.runs, 'linkguard');
  const postgres = summarise(report.runs, 'linkguard-postgres');
  const databaseUs = (kind: ServerKind) => {
    const values = report.runs
      .filter((run) => run.kind === kind)
      .map((run) => run.databaseUsPerRequest)
      .filter((v): v is number => v !== null);
    return values.length === 0 ? null : median(values);
  };
  const sqliteDb = databaseUs('linkguard');
  const postgresDb = databaseUs('linkguard-postgres');
  const ratio = (a: number | null, b: number | null) =>
    a === null || b === null || a === 0 ? 'n/a' : `${(b / a).toFixed(2)}×`;
  const us = (v: number | null) => orNa(v, (n) => n.toFixed(1));
  const total = (own: number | null, db: number | null) =>
    own === null || db === null ? null : own + db;
  const cpuRatio =
    sqlite.usPerRequest === null || postgres.usPerRequest === null
      ? null
      : postgres.usPerRequest / sqlite.usPerRequest;
  return {
    rows: [
      [
        'requests/s',
        int(sqlite.requestsPerSecond),
        int(postgres.requestsPerSecond),
        ratio(sqlite.requestsPerSecond, postgres.requestsPerSecond),
      ],
      [
        'p50 latency (ms)',
        ms(sqlite.p50Ms),
        ms(postgres.p50Ms),
        ratio(sqlite.p50Ms, postgres.p50Ms),
      ],
      [
        'p99 latency (ms)',
        ms(sqlite.p99Ms),
        ms(postgres.p99Ms),
        ratio(sqlite.p99Ms, postgres.p99Ms),
      ],
      [
        'linkguard process CPU per request (µs)',
        us(sqlite.usPerRequest),
        us(postgres.usPerRequest),
        ratio(sqlite.usPerRequest, postgres.usPerRequest),
      ],
      ['PostgreSQL + Redis server CPU per request (µs)', us(sqliteDb), us(postgresDb), '—'],
      [
        'all CPU per request (µs)',
        us(total(sqlite.usPerRequest, sqliteDb)),
        us(total(postgres.usPerRequest, postgresDb)),
        ratio(total(sqlite.usPerRequest, sqliteDb), total(postgres.usPerRequest, postgresDb)),
      ],
    ],
    budget: {
      name: 'linkguard CPU per request on PostgreSQL + Redis relative to SQLite',
      target: `≤ ${TARGET_POSTGRES_CPU_RATIO.toFixed(1)}×`,
      measured: cpuRatio === null ? 'n/a' : `${cpuRatio.toFixed(2)}×`,
      met: cpuRatio !== null && cpuRatio <= TARGET_POSTGRES_CPU_RATIO,
    },
  };
}

const STORE_HEADER = ['', 'SQLite (embedded)', 'PostgreSQL + Redis', 'PostgreSQL / SQLite'];

/** The store comparison as markdown, or '' when only SQLite was measured. */
function storeSection(report: BenchReport): string {
  const store = storeRows(report);
  if (store === null) return '';
  return (
    `## Store: PostgreSQL + Redis next to SQLite\n\n` +
    `\`--store postgres\` measures a third server in every round, the same build and requests on a ` +
    `fresh PostgreSQL database (\`DATABASE_URL=postgres://…\`, 127.0.0.1) with Redis ` +
    `(\`REDIS_URL\`) for rate limits and the shared verdict cache. The database servers run on ` +
    `this machine, unpinned; their CPU is read from /proc for every \`postgres\` and ` +
    `\`redis-server\` process during each measured run (with SQLite it is the idle baseline of ` +
    `those servers).\n\n` +
    markdownTable(STORE_HEADER, store.rows, ['l', 'r', 'r', 'r']) +
    '\n\n' +
    markdownTable(BUDGET_HEADER, budgetRows([store.budget]))
  );
}

export function renderMarkdown(report: BenchReport): string {
  const d = derive(report);
  const { machine, options, engine, build } = report;
  const costs = engine.costs;
  const costValues = costs.map((c) => c.microseconds);
  const sortedAsc = [...costValues].sort((a, b) => a - b);
  const p90 = sortedAsc[Math.min(sortedAsc.length - 1, Math.ceil(0.9 * sortedAsc.length) - 1)] ?? 0;
  const verdicts = (tally: Record<string, number>) =>
    Object.entries(tally)
      .sort((a, b) => b[1] - a[1])
      .map(([verdict, count]) => `${count} ${verdict}`)
      .join(', ');
  const sections: string[] = [];

  sections.push(
    `# Performance benchmark: POST /v1/detect${options.freshUrls ? ', URLs never seen before' : ''}\n\n` +
      `_Written by \`${report.command}\` on ${report.startedAt.toISOString()}. Every run of the ` +
      `bench overwrites this file; the figures come from that one run on a shared machine._\n\n` +
      `It checks the performance budgets the README lists with the framework-benchmark method: the real service and a bare Fastify hello-world are measured alternately ` +
      `on the same CPU core, so the ratio between them cancels most of the machine's speed.\n\n` +
      LAYERS_MEASURED,
  );

  sections.push(
    `## Result\n\n` +
      markdownTable(RESULT_HEADER, resultRows(report, d), ['l', 'r', 'r', 'r']) +
      '\n\n' +
      markdownTable(BUDGET_HEADER, budgetRows(d.budgets)) +
      (report.notes.length === 0
        ? ''
        : `\n\n${report.notes.map((n) => `> **Note:** ${n}`).join('\n>\n')}`),
  );

  sections.push(`## Interpretation\n\n${interpretation(report, d).join(' ')}`);

  const store = storeSection(report);
  if (store !== '') sections.push(store);

  sections.push(
    `## Engine alone\n\n` +
      `\`detectUrl()\` from \`dist/\` in the bench process, on one core, over the ${report.urlCount} ` +
      `benchmark URLs (verdicts: ${verdicts(engine.verdicts)}).\n\n` +
      markdownTable(
        ['measure', 'value'],
        [
          [
            `warm throughput (${engine.warmSeconds.toFixed(1)} s, ${int(engine.warmUrls)} URLs, after a 1 s warm-up)`,
            `${int(engine.warmUrlsPerSecond)} URLs/s`,
          ],
          [
            `first-sight throughput (one pass on a freshly built engine, median of ${engine.firstSightPasses})`,
            `${int(engine.firstSightUrlsPerSecond)} URLs/s`,
          ],
          [
            'cost per URL, warm: median / p90 / max',
            `${median(costValues).toFixed(1)} / ${p90.toFixed(1)} / ${(costs[0]?.microseconds ?? 0).toFixed(1)} µs`,
          ],
          ['engine build from loaded data', `${engine.buildMs.toFixed(0)} ms`],
        ],
        ['l', 'r'],
      ) +
      `\n\nThe ten most expensive URLs (each repeated 50 times on a warm engine):\n\n` +
      markdownTable(
        ['µs', 'verdict', 'URL'],
        costs
          .slice(0, 10)
          .map((c) => [
            c.microseconds.toFixed(1),
            c.verdict,
            `\`${c.url.length > 110 ? `${c.url.slice(0, 107)}…` : c.url}\``,
          ]),
        ['r', 'l', 'l'],
      ),
  );

  if (report.profile !== null) {
    const p = report.profile;
    const rows = (entries: ProfileEntry[]) =>
      entries.map((e) => [
        `\`${e.name}\``,
        e.location === '' ? '' : `\`${e.location}\``,
        e.ms.toFixed(0),
        perRequest(e, d.lg.usPerRequest),
        `${e.percent.toFixed(1)} %`,
      ]);
    const idleShare = p.summary.idleMs / (p.summary.idleMs + p.summary.busyMs);
    const header = ['function', 'location', 'self ms', '≈ µs/request', 'share'];
    const align: ('l' | 'r')[] = ['l', 'l', 'r', 'r', 'r'];
    sections.push(
      `## CPU profile of the linkguard server\n\n` +
        `One extra linkguard run under \`node --cpu-prof --cpu-prof-interval ${p.intervalUs}\`, ` +
        `not part of the medians. Only samples from its measured ${report.options.duration} s count ` +
        `(start-up and warm-up excluded): ${int(p.requests)} requests at ` +
        `${int(p.requestsPerSecond)} requests/s (the profiler slows the server), busy time ` +
        `${(p.summary.busyMs / 1000).toFixed(1)} s, idle ${pct(idleShare)} of the samples. Shares are ` +
        `of the busy time. "≈ µs/request" is the share times the ${orNa(d.lg.usPerRequest, (v) => v.toFixed(1))} µs ` +
        `of server CPU per request measured without the profiler above, an estimate of what each ` +
        `entry costs in normal operation. Locations are in \`dist/\` (line numbers of the built ` +
        `JavaScript). Native frames (\`writev\`, C++ bindings such as better-sqlite3) include the ` +
        `kernel time of their system calls; on loopback, \`writev\` also pays for delivering the ` +
        `response to the client's socket and waking the load generator.\n\n` +
        `Top 10 functions by self time:\n\n` +
        markdownTable(header, rows(p.summary.topSelf), align) +
        `\n\nSelf time by area:\n\n` +
        markdownTable(
          ['area', 'self ms', '≈ µs/request', 'share'],
          rows(p.summary.byArea).map(([name = '', , msCell = '', us = '', share = '']) => [
            name.replaceAll('`', ''),
            msCell,
            us,
            share,
          ]),
          ['l', 'r', 'r', 'r'],
        ) +
        `\n\nlinkguard functions by inclusive time (callees included):\n\n` +
        markdownTable(
          ['function', 'location', 'inclusive ms', '≈ µs/request', 'share'],
          rows(p.summary.topInclusiveOwn),
          align,
        ),
    );
  }

  sections.push(
    `## Method\n\n` +
      [
        `**Command:** \`${report.command}\` (\`npm run build\` first: the servers run \`dist/\`). ` +
          `Options: \`--rounds\` (3), \`--duration\` s (10), \`--connections\` (50), \`--warmup\` s (3), ` +
          `\`--engine-seconds\` (3), \`--out\` (docs/bench.md), \`--profile\` (adds one linkguard run ` +
          `under \`node --cpu-prof\` and a CPU-profile section).`,
        `**Code:** commit \`${build.commit}\`` +
          (build.dirtySourceFiles === 0
            ? ', no uncommitted changes under src/'
            : ` plus ${build.dirtySourceFiles} uncommitted file(s) under src/`) +
          `; dist/ built ${build.builtAt}, newest src/ change ${build.newestSourceChange}.`,
        `**Pinning:** ${machine.pinning}.`,
        `**Servers:** each run starts its server fresh. *Baseline*: \`bench/hello-world-server.mjs\`, ` +
          `Fastify 5 with no logger and no schema; \`POST /v1/detect\` parses the JSON body and answers ` +
          `\`{"url":…,"verdict":"safe","score":0}\`. *linkguard*: \`npm start\`'s command (\`node --max-semi-space-size=32 dist/src/cli/main.js serve\`) with ` +
          `\`HOST=127.0.0.1\`, \`LOG_LEVEL=warn\` and a fresh SQLite database (\`DATABASE_URL=sqlite:<tmp>/bench.db\`) ` +
          `holding one enterprise key made with \`keys create --rate-limit 10000000\`; every request ` +
          `carries \`Authorization: Bearer <key>\`, so it is authenticated, rate-limited, judged and ` +
          `written to the usage log like a customer's.`,
        `**Load:** autocannon 9 in the bench process, ${options.connections} connections, no pipelining, ` +
          `${options.warmup} s warm-up (discarded) then ${options.duration} s measured, per run. ` +
          `${options.rounds} round(s); in each round both servers run once, and the order flips every ` +
          `round. Both servers get the identical request stream. Every linkguard response must be 200 ` +
          `or the bench fails. Requests/s is autocannon's mean of per-second samples; latencies are ` +
          `taken from autocannon's per-response timings at 10 µs resolution (autocannon's own ` +
          `histogram keeps whole milliseconds). Reported values are medians over rounds.`,
        `**URL mix:** ${report.urlCount} invented URLs that need no network (\`bench/bench-urls.ts\`), ` +
          `cycled in order by every connection: ` +
          Object.entries(report.urlCategories)
            .map(([name, count]) => `${count} ${name}`)
            .join(', ') +
          `. linkguard's verdicts on them: ${verdicts(report.httpVerdicts)}. ` +
          (options.freshUrls
            ? `**Fresh URLs (\`--fresh-urls\`):** every request appended a unique query parameter ` +
              `(\`?bench=<n>\`), so the service's verdict cache never answered and every request ` +
              `paid URL parsing and the engine; label readings still repeat, as in real traffic.`
            : `Each URL repeats, so after the warm-up the service's verdict cache answers; ` +
              `\`--fresh-urls\` measures URLs never seen before.`),
        `**Interference control:** around each measured run the bench reads \`/proc/stat\` and the ` +
          `server's and its own CPU time. Busy time (user + nice + system) of all CPUs minus those ` +
          `two is other tenants' work ("foreign"); a run is clean when foreign work stayed under ` +
          `${pct(CLEAN_FOREIGN_SHARE)} of one CPU. Server CPU per request divides the server's CPU ` +
          `time by the requests completed and is much less sensitive to interference than ` +
          `requests/s. The machine is shared: other jobs can slow either server in any run, which ` +
          `is why the servers alternate and medians are reported.`,
      ]
        .map((line) => `- ${line}`)
        .join('\n'),
  );

  sections.push(
    `## Machine\n\n` +
      markdownTable(
        ['', ''],
        [
          ['CPU', `${machine.cpuModel}, ${machine.cpuCount} logical CPUs`],
          ['memory', `${machine.totalMemoryGiB.toFixed(1)} GiB`],
          ['OS', machine.os],
          ['Node.js', machine.node],
          ['load average (1/5/15 min) before', load3(machine.loadBefore)],
          ['load average (1/5/15 min) after', load3(machine.loadAfter)],
          ...(machine.uptimeBefore === null ? [] : [['`uptime` before', machine.uptimeBefore]]),
          ...(machine.uptimeAfter === null ? [] : [['`uptime` after', machine.uptimeAfter]]),
        ],
      ),
  );

  sections.push(
    `## Every run\n\n` +
      markdownTable(
        [
          'round',
          'server',
          'req/s',
          'p50 ms',
          'p99 ms',
          'max ms',
          'server µs/req',
          'server core busy',
          'foreign CPU-s',
          'foreign on server CPU',
          'foreign on load CPU',
          'steal CPU-s',
          'clean',
          'statuses',
        ],
        report.runs.map((run) => [
          String(run.round),
          run.kind,
          int(run.requestsPerSecond),
          ms(run.p50Ms),
          ms(run.p99Ms),
          ms(run.maxMs),
          orNa(run.serverUsPerRequest, (v) => v.toFixed(1)),
          orNa(run.cpu, (c) => `${Math.round((100 * c.serverSeconds) / c.wallSeconds)} %`),
          orNa(run.cpu, (c) => c.foreignSeconds.toFixed(2)),
          orNa(run.cpu?.foreignOnServerCpuSeconds ?? null, (v) => v.toFixed(2)),
          orNa(run.cpu?.foreignOnLoadCpuSeconds ?? null, (v) => v.toFixed(2)),
          orNa(run.cpu, (c) => c.stealSeconds.toFixed(2)),
          run.clean === null ? 'n/a' : run.clean ? 'yes' : 'no',
          Object.entries(run.statusCounts)
            .map(([status, count]) => `${status}: ${int(count)}`)
            .join(', ') + (run.errors > 0 ? `; errors: ${run.errors}` : ''),
        ]),
        ['r', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'l'],
      ),
  );

  if (report.connector !== null) {
    sections.push(
      [
        '## MCP connector: `tools/call check_url` next to `POST /v1/detect`',
        '',
        'One linkguard process, the same URL mix, key and connections, measured back to back: the',
        'detect endpoint, then the connector (`POST /mcp`, JSON-RPC `tools/call` of `check_url`,',
        'stateless: each call borrows one of the SDK servers built at start and goes straight to it,',
        'docs/decisions.md, decisions 171–174) with the key in the header, then with an `mcp_at_`',
        'access token for the same key, obtained through the sign-in page (the token, its grant and',
        'the key are looked up on every call). The ratios compare with detect in this run only.',
        '',
        markdownTable(CONNECTOR_HEADER, connectorRows(report.connector), [
          'l',
          'r',
          'r',
          'r',
          'r',
          'r',
          'r',
        ]),
        '',
        markdownTable(CONNECTOR_BUDGET_HEADER, budgetRows(connectorBudgets(report.connector))),
      ].join('\n'),
    );
  }

  return `${sections.join('\n\n')}\n`;
}
