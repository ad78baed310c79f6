/**
 * @module bench/run
 * `npm run bench`: the performance budgets the README lists under 'Accuracy and speed', measured in
 * one run against a bare Fastify hello-world on the same pinned core, written to docs/bench.md.
 *
 * 1. The engine alone: `detectUrl()` over the benchmark URLs in this process (one core).
 * 2. For N rounds, alternately (the order flips every round): a bare Fastify hello-world
 *    `POST /v1/detect` (the ceiling) and the real service (`dist/src/cli/main.js serve` with an
 *    enterprise key), each started fresh, pinned to one CPU, warmed up, then loaded by autocannon
 *    running in this process on the other CPU.
 * 3. Medians over rounds, the ratio linkguard / baseline, and the budgets' verdicts.
 * 4. The MCP connector: `tools/call check_url` and `POST /v1/detect` back to back on one fresh
 *    linkguard process, their req/s and p99 ratios held to the issue 15 budgets (≥ 0.5× detect's
 *    req/s, p99 ≤ 2× detect's; docs/decisions.md, decision 175).
 *
 * Options: --rounds 3, --duration 10 (s), --connections 50, --warmup 3 (s), --engine-seconds 3,
 * --out docs/bench.md, --profile (one more linkguard run under `node --cpu-prof`, summarised),
 * --store postgres (a third server in every round on a fresh PostgreSQL database and Redis,
 * compared with SQLite in its own section).
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem, type as osType } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import autocannon, { type AutocannonInstance, type AutocannonRequest } from 'autocannon';

import { signIn } from '../test/helpers/oauth-request.js';
import {
  createTestDatabase,
  dropTestDatabase,
  postgresUrl,
} from '../test/helpers/postgres-server.js';
import { adminClient, deleteKeysUnder, ensureRedis, uniquePrefix } from '../test/helpers/redis.js';
import { BENCH_URL_CATEGORIES, BENCH_URLS } from './bench-urls.js';
import {
  SECTION_END as INTEL_SECTION_END,
  SECTION_START as INTEL_SECTION_START,
} from './intel-section.js';
import {
  SECTION_END as OVERRIDES_SECTION_END,
  SECTION_START as OVERRIDES_SECTION_START,
} from './overrides-section.js';
import {
  SECTION_END as PAGES_SECTION_END,
  SECTION_START as PAGES_SECTION_START,
} from './page-section.js';
import {
  SECTION_END as PAYMENTS_SECTION_END,
  SECTION_START as PAYMENTS_SECTION_START,
} from './payments-section.js';
import { cpuUse, snapshot } from './support/cpu-accounting.js';
import { summariseCpuProfile } from './support/cpu-profile.js';
import { databaseCpuSecondsBetween, databaseCpuTicks } from './support/database-cpu.js';
import { findSection } from './support/doc-sections.js';
import { benchEngine } from './support/engine-bench.js';
import {
  choosePinning,
  freePort,
  httpPost,
  killAllChildren,
  type Pinning,
  type ServerProcess,
  startServer,
} from './support/processes.js';
import {
  type BenchReport,
  type BuildInfo,
  CLEAN_FOREIGN_SHARE,
  type LoadResult,
  type MachineInfo,
  renderConsole,
  renderMarkdown,
  type RunMeasurement,
  type ServerKind,
} from './support/report.js';
import { LatencyHistogram } from './support/stats.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const MAIN_JS = join(DIST, 'src', 'cli', 'main.js');
const HELLO_WORLD = join(ROOT, 'bench', 'hello-world-server.mjs');

/**
 * The Node flags of `npm start` (package.json `scripts.start`: `node <flags> dist/…`), so the
 * benchmark runs the server exactly as users start it.
 */
const START_NODE_FLAGS: string[] = (() => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.split(/\s+/);
  return words.slice(1).filter((word) => word.startsWith('--'));
})();
/** Sampling interval of the profiled run: Node's default; finer sampling slows the server a lot. */
const PROFILE_INTERVAL_US = 1000;

interface Options {
  rounds: number;
  duration: number;
  connections: number;
  warmup: number;
  engineSeconds: number;
  out: string;
  profile: boolean;
  freshUrls: boolean;
  store: 'sqlite' | 'postgres';
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
      warmup: { type: 'string', default: '3' },
      'engine-seconds': { type: 'string', default: '3' },
      out: { type: 'string', default: 'docs/bench.md' },
      profile: { type: 'boolean', default: false },
      'fresh-urls': { type: 'boolean', default: false },
      store: { type: 'string', default: 'sqlite' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(
      'npm run bench -- [--rounds 3] [--duration 10] [--connections 50] [--warmup 3]\n' +
        '                 [--engine-seconds 3] [--out docs/bench.md] [--profile] [--fresh-urls]\n' +
        '                 [--store sqlite|postgres]\n' +
        '  --store postgres  also measure the service on PostgreSQL + Redis (127.0.0.1, a fresh\n' +
        '                database; REDIS_URL defaults to redis://127.0.0.1:6379) next to SQLite\n' +
        '  --fresh-urls  give every request a unique query parameter, so no verdict is ever\n' +
        '                served from the cache (the cost of URLs the service has not seen)',
    );
    process.exit(0);
  }
  const positive = (name: string, raw: string, integer: boolean): number => {
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
      throw new Error(`--${name} must be a positive ${integer ? 'integer' : 'number'}`);
    }
    return value;
  };
  if (values.store !== 'sqlite' && values.store !== 'postgres') {
    throw new Error('--store must be sqlite or postgres');
  }
  return {
    store: values.store,
    rounds: positive('rounds', values.rounds, true),
    duration: positive('duration', values.duration, true),
    connections: positive('connections', values.connections, true),
    warmup: positive('warmup', values.warmup, true),
    engineSeconds: positive('engine-seconds', values['engine-seconds'], false),
    out: resolve(ROOT, values.out),
    profile: values.profile,
    freshUrls: values['fresh-urls'],
  };
}

/** Run `npm run build` when the build output is missing or older than src/. */
function ensureBuild(notes: string[]): BuildInfo {
  const stale = existsSync(MAIN_JS) && newestMtime(join(ROOT, 'src')) > statSync(MAIN_JS).mtimeMs;
  if (!existsSync(MAIN_JS) || stale) {
    console.log(
      `${relative(ROOT, MAIN_JS)} is ${stale ? 'older than src/' : 'missing'}: running \`npm run build\` first…`,
    );
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (!existsSync(MAIN_JS))
      throw new Error('`npm run build` did not produce dist/src/cli/main.js');
    notes.push(
      build.status === 0
        ? 'dist/ was missing or stale; the bench ran `npm run build` first.'
        : 'dist/ was missing or stale; `npm run build` reported type errors but emitted JavaScript, which was benchmarked.',
    );
  }
  const git = (...args: string[]) =>
    spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  const commit = git('rev-parse', '--short', 'HEAD');
  const dirty = git('status', '--porcelain', '--', 'src').split('\n').filter(Boolean).length;
  const builtAt = statSync(MAIN_JS).mtimeMs;
  const newestSource = newestMtime(join(ROOT, 'src'));
  if (newestSource > builtAt + 1000) {
    notes.push(
      'src/ changed after the last build: the servers ran the older dist/ (run `npm run build`).',
    );
    console.warn(`warning: ${notes.at(-1) ?? ''}`);
  }
  return {
    commit: commit === '' ? 'unknown' : commit,
    dirtySourceFiles: dirty,
    builtAt: new Date(builtAt).toISOString(),
    newestSourceChange: new Date(newestSource).toISOString(),
  };
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

function machineInfo(pinning: Pinning): Omit<MachineInfo, 'loadAfter' | 'uptimeAfter'> {
  const list = cpus();
  const uptime = spawnSync('uptime', [], { encoding: 'utf8' });
  return {
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    cpuCount: list.length,
    totalMemoryGiB: totalmem() / 1024 ** 3,
    node: process.version,
    os: `${osType()} ${release()}`,
    loadBefore: loadavg(),
    uptimeBefore: uptime.status === 0 ? uptime.stdout.trim() : null,
    pinning: pinning.note,
  };
}

/** Create an enterprise key in the benchmark database through the real CLI. */
function createKey(env: NodeJS.ProcessEnv): string {
  const result = spawnSync(
    process.execPath,
    [MAIN_JS, 'keys', 'create', '--name', 'bench', '--rate-limit', '10000000', '--json'],
    { env, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`keys create failed:\n${result.stderr}`);
  const line = result.stdout.split('\n').find((l) => l.startsWith('{'));
  const parsed = JSON.parse(line ?? '{}') as { key?: unknown };
  if (typeof parsed.key !== 'string' || !parsed.key.startsWith('sk_live_')) {
    throw new Error(`keys create printed no key:\n${result.stdout}`);
  }
  return parsed.key;
}

/** State shared with the signal handler. */
const state: {
  servers: Set<ServerProcess>;
  load: AutocannonInstance | null;
  tmp: string | null;
  interrupted: boolean;
  /** The PostgreSQL database made for `--store postgres`, dropped at the end. */
  database: string | null;
  /** The Redis key prefix of `--store postgres`, whose keys are deleted at the end. */
  redisPrefix: string | null;
} = {
  servers: new Set(),
  load: null,
  tmp: null,
  interrupted: false,
  database: null,
  redisPrefix: null,
};

function removeTmp(): void {
  if (state.tmp !== null) rmSync(state.tmp, { recursive: true, force: true });
  state.tmp = null;
}

async function cleanup(): Promise<void> {
  state.load?.stop();
  await Promise.all([...state.servers].map((server) => server.stop(5000)));
  state.servers.clear();
  killAllChildren();
  removeTmp();
  if (state.database !== null) await dropTestDatabase(state.database);
  state.database = null;
  if (state.redisPrefix !== null) {
    const admin = adminClient();
    await deleteKeysUnder(admin, state.redisPrefix);
    admin.disconnect();
  }
  state.redisPrefix = null;
}

async function loadServer(
  port: number,
  seconds: number,
  connections: number,
  requests: AutocannonRequest[],
): Promise<LoadResult> {
  const histogram = new LatencyHistogram();
  const instance = autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests,
  });
  state.load = instance;
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
    histogram.record(ms);
  });
  const result = await instance;
  state.load = null;
  const statusCounts: Record<string, number> = {};
  for (const [status, entry] of Object.entries(result.statusCodeStats)) {
    if (entry !== undefined) statusCounts[status] = entry.count;
  }
  return {
    requestsPerSecond: result.requests.average,
    totalRequests: result.requests.total,
    p50Ms: histogram.percentile(50),
    p99Ms: histogram.percentile(99),
    maxMs: histogram.max,
    statusCounts,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

const describeStatuses = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([status, count]) => `${status}×${count}`)
    .join(', ');

/** Throw when linkguard answered anything but 200 or connections failed. */
function assertAllOk(kind: ServerKind, phase: string, load: LoadResult): void {
  const bad = Object.entries(load.statusCounts).filter(([status]) => status !== '200');
  if (kind !== 'baseline' && (bad.length > 0 || load.errors > 0)) {
    const hint =
      load.statusCounts['429'] === undefined
        ? ''
        : ' (429: the key or public rate limit is too low for this load)';
    throw new Error(
      `linkguard ${phase}: non-200 responses or errors: ${describeStatuses(load.statusCounts)}; ` +
        `errors ${load.errors}, timeouts ${load.timeouts}${hint}`,
    );
  }
  if (bad.length > 0 || load.errors > 0) {
    console.warn(
      `warning: ${kind} ${phase}: ${describeStatuses(load.statusCounts)}; errors ${load.errors}`,
    );
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  const startedAt = new Date();
  const notes: string[] = [];
  const build = ensureBuild(notes);
  const pinning = choosePinning();
  const machine = machineInfo(pinning);
  console.log(`linkguard bench: ${pinning.note}`);
  console.log(
    `${options.rounds} round(s) × 2 servers, ${options.duration} s measured after ${options.warmup} s warm-up, ` +
      `${options.connections} connections, ${BENCH_URLS.length} URLs`,
  );

  state.tmp = mkdtempSync(join(tmpdir(), 'linkguard-bench-'));
  const tmp = state.tmp;
  if (options.store === 'postgres') {
    state.database = await createTestDatabase();
    await ensureRedis();
    state.redisPrefix = `${uniquePrefix()}bench:`;
  }
  const postgresEnv: NodeJS.ProcessEnv =
    state.database === null
      ? {}
      : {
          DATABASE_URL: postgresUrl(state.database),
          REDIS_URL: 'redis://127.0.0.1:6379',
          REDIS_KEY_PREFIX: state.redisPrefix ?? 'linkguard-bench:',
        };
  const serverEnv = (port: number, kind: ServerKind = 'linkguard'): NodeJS.ProcessEnv => ({
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    // The issuer and /mcp resource of the OAuth sign-in the connector measurement makes.
    PUBLIC_BASE_URL: `http://127.0.0.1:${String(port)}`,
    DATABASE_URL: `sqlite:${join(tmp, 'bench.db')}`,
    LOG_LEVEL: 'warn',
    // The bench stays on loopback: no registry lookups (the feed index still runs).
    RDAP_ENABLED: 'false',
    // Throughput of layers 1–2; page analysis has its own bench (bench/page-bench.ts).
    PAGE_ANALYSIS: 'off',
    ...(kind === 'linkguard-postgres' ? postgresEnv : {}),
  });
  const key = createKey(serverEnv(0));
  const postgresKey =
    state.database === null ? null : createKey(serverEnv(0, 'linkguard-postgres'));

  console.log(`engine alone: ${options.engineSeconds} s of detectUrl() in process…`);
  const engine = await benchEngine(DIST, BENCH_URLS, options.engineSeconds);
  console.log(
    `  ${Math.round(engine.warmUrlsPerSecond).toLocaleString('en-US')} URLs/s warm, ` +
      `${Math.round(engine.firstSightUrlsPerSecond).toLocaleString('en-US')} URLs/s at first sight`,
  );

  const headersFor = (apiKey: string) => ({
    authorization: `Bearer ${apiKey}`,
    'content-type': 'application/json',
  });
  const headers = headersFor(key);
  // With --fresh-urls every request carries a URL never sent before (a unique query parameter),
  // so the service's verdict cache never answers: each request pays URL parsing and the engine.
  let sequence = 0;
  const freshBody = (url: string): string =>
    JSON.stringify({ url: `${url}${url.includes('?') ? '&' : '?'}bench=${String(sequence++)}` });
  const requestsWith = (apiKey: string): AutocannonRequest[] =>
    BENCH_URLS.map((url) => ({
      method: 'POST',
      path: '/v1/detect',
      headers: headersFor(apiKey),
      body: JSON.stringify({ url }),
      ...(options.freshUrls
        ? { setupRequest: (request: AutocannonRequest) => ({ ...request, body: freshBody(url) }) }
        : {}),
    }));
  const requests = requestsWith(key);
  const requestsOf = (kind: ServerKind) =>
    kind === 'linkguard-postgres' && postgresKey !== null ? requestsWith(postgresKey) : requests;
  const firstBody = requests[0]?.body ?? '{}';
  const probe = (port: number, kind: ServerKind) =>
    httpPost(
      port,
      '/v1/detect',
      String(firstBody),
      kind === 'linkguard-postgres' && postgresKey !== null ? headersFor(postgresKey) : headers,
    );

  const start = async (kind: ServerKind, extraNodeArgs: string[] = []) => {
    const port = await freePort();
    const server = await startServer({
      name: kind,
      nodeArgs:
        kind === 'baseline'
          ? [HELLO_WORLD]
          : [...START_NODE_FLAGS, ...extraNodeArgs, MAIN_JS, 'serve'],
      env: serverEnv(port, kind),
      port,
      cpu: pinning.serverCpu,
      ready: async () => (await probe(port, kind)).status === 200,
    });
    state.servers.add(server);
    return server;
  };
  const stop = async (server: ServerProcess) => {
    await server.stop();
    state.servers.delete(server);
  };

  // Every benchmark URL must get a 200 with a verdict before anything is measured.
  const httpVerdicts: Record<string, number> = {};
  {
    const server = await start('linkguard');
    try {
      for (const url of BENCH_URLS) {
        const answer = await httpPost(server.port, '/v1/detect', JSON.stringify({ url }), headers);
        if (answer.status !== 200) {
          throw new Error(`linkguard answered ${answer.status} for ${url}: ${answer.body}`);
        }
        const verdict = (JSON.parse(answer.body) as { verdict?: string }).verdict ?? '?';
        httpVerdicts[verdict] = (httpVerdicts[verdict] ?? 0) + 1;
      }
    } finally {
      await stop(server);
    }
  }

  const runs: RunMeasurement[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    const kinds: ServerKind[] =
      options.store === 'postgres'
        ? ['baseline', 'linkguard', 'linkguard-postgres']
        : ['baseline', 'linkguard'];
    const order = round % 2 === 1 ? kinds : [...kinds].reverse();
    for (const kind of order) {
      if (state.interrupted) return;
      const server = await start(kind);
      try {
        const kindRequests = requestsOf(kind);
        const warm = await loadServer(
          server.port,
          options.warmup,
          options.connections,
          kindRequests,
        );
        assertAllOk(kind, 'warm-up', warm);
        const before = snapshot(server.pid);
        const databaseBefore = databaseCpuTicks();
        const load = await loadServer(
          server.port,
          options.duration,
          options.connections,
          kindRequests,
        );
        const after = snapshot(server.pid);
        const databaseAfter = databaseCpuTicks();
        const databaseSeconds = databaseCpuSecondsBetween(databaseBefore, databaseAfter);
        assertAllOk(kind, `round ${round}`, load);
        const cpu = cpuUse(before, after, server.pid, pinning.serverCpu, pinning.loadCpu);
        const run: RunMeasurement = {
          kind,
          round,
          ...load,
          cpu,
          serverUsPerRequest:
            cpu === null || load.totalRequests === 0
              ? null
              : (cpu.serverSeconds * 1e6) / load.totalRequests,
          clean: cpu === null ? null : cpu.foreignSeconds < CLEAN_FOREIGN_SHARE * cpu.wallSeconds,
          databaseUsPerRequest:
            databaseSeconds === null || load.totalRequests === 0
              ? null
              : (databaseSeconds * 1e6) / load.totalRequests,
        };
        runs.push(run);
        console.log(
          `  round ${round} ${kind.padEnd(18)} ${Math.round(run.requestsPerSecond).toLocaleString('en-US').padStart(7)} req/s` +
            `  p50 ${run.p50Ms.toFixed(2)} ms  p99 ${run.p99Ms.toFixed(2)} ms` +
            (cpu === null
              ? ''
              : `  server CPU ${(run.serverUsPerRequest ?? 0).toFixed(1)} µs/req, ` +
                `core ${Math.round((100 * cpu.serverSeconds) / cpu.wallSeconds)} % busy, ` +
                `foreign ${cpu.foreignSeconds.toFixed(2)} CPU-s${run.clean === true ? '' : ' (noisy)'}`),
        );
      } finally {
        await stop(server);
      }
    }
  }

  // The MCP connector next to the detect endpoint, on one server process, back to back.
  let connector: BenchReport['connector'] = null;
  if (!options.freshUrls && !state.interrupted) {
    const mcpRequests: AutocannonRequest[] = BENCH_URLS.map((url, i) => ({
      method: 'POST',
      path: '/mcp',
      headers: { ...headers, accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: { name: 'check_url', arguments: { url } },
      }),
    }));
    const server = await start('linkguard');
    try {
      assertAllOk(
        'linkguard',
        'connector warm-up',
        await loadServer(server.port, options.warmup, options.connections, requests),
      );
      assertAllOk(
        'linkguard',
        'connector warm-up',
        await loadServer(server.port, options.warmup, options.connections, mcpRequests),
      );
      const detect = await loadServer(server.port, options.duration, options.connections, requests);
      assertAllOk('linkguard', 'connector: detect', detect);
      const toolsCall = await loadServer(
        server.port,
        options.duration,
        options.connections,
        mcpRequests,
      );
      assertAllOk('linkguard', 'connector: tools/call', toolsCall);
      // The same calls with an OAuth access token for the same key (signed in on the page).
      const accessToken = await signIn(`http://127.0.0.1:${String(server.port)}`, key);
      const tokenRequests = mcpRequests.map((request) => ({
        ...request,
        headers: { ...request.headers, authorization: `Bearer ${accessToken}` },
      }));
      const toolsCallOAuth = await loadServer(
        server.port,
        options.duration,
        options.connections,
        tokenRequests,
      );
      assertAllOk('linkguard', 'connector: tools/call with an OAuth token', toolsCallOAuth);
      connector = { detect, toolsCall, toolsCallOAuth };
      const times = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
      console.log(
        `  connector: detect ${Math.round(detect.requestsPerSecond)} req/s, p99 ${detect.p99Ms.toFixed(2)} ms; ` +
          `tools/call check_url ${Math.round(toolsCall.requestsPerSecond)} req/s, p99 ${toolsCall.p99Ms.toFixed(2)} ms (key: ` +
          `${times(toolsCall.requestsPerSecond, detect.requestsPerSecond)} detect's req/s, ${times(toolsCall.p99Ms, detect.p99Ms)} its p99); ` +
          `${Math.round(toolsCallOAuth.requestsPerSecond)} req/s (OAuth token: ${times(toolsCallOAuth.requestsPerSecond, detect.requestsPerSecond)})`,
      );
    } finally {
      await stop(server);
    }
  }

  let profile: BenchReport['profile'] = null;
  if (options.profile) {
    console.log('profiling one more linkguard run with node --cpu-prof…');
    const dir = join(tmp, 'profile');
    const server = await start('linkguard', [
      '--cpu-prof',
      '--cpu-prof-dir',
      dir,
      '--cpu-prof-interval',
      String(PROFILE_INTERVAL_US),
    ]);
    let load: LoadResult;
    const window = { fromUs: 0, toUs: 0 };
    const nowUs = () => Number(process.hrtime.bigint() / 1000n);
    try {
      const warm = await loadServer(server.port, options.warmup, options.connections, requests);
      assertAllOk('linkguard', 'profile warm-up', warm);
      window.fromUs = nowUs();
      load = await loadServer(server.port, options.duration, options.connections, requests);
      window.toUs = nowUs();
      assertAllOk('linkguard', 'profile run', load);
    } finally {
      await stop(server);
    }
    const file = existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('.cpuprofile')) : null;
    if (file === undefined || file === null) throw new Error('node --cpu-prof wrote no profile');
    const kept = join(tmpdir(), `linkguard-bench-${startedAt.getTime()}.cpuprofile`);
    copyFileSync(join(dir, file), kept);
    profile = {
      summary: summariseCpuProfile(kept, 10, window),
      file: kept,
      requestsPerSecond: load.requestsPerSecond,
      requests: load.totalRequests,
      intervalUs: PROFILE_INTERVAL_US,
    };
  }

  const uptimeAfter = spawnSync('uptime', [], { encoding: 'utf8' });
  const report: BenchReport = {
    startedAt,
    command,
    options,
    build,
    notes,
    machine: {
      ...machine,
      loadAfter: loadavg(),
      uptimeAfter: uptimeAfter.status === 0 ? uptimeAfter.stdout.trim() : null,
    },
    urlCategories: Object.fromEntries(
      Object.entries(BENCH_URL_CATEGORIES).map(([name, list]) => [name, list.length]),
    ),
    urlCount: BENCH_URLS.length,
    httpVerdicts,
    engine,
    runs,
    connector,
    profile,
  };
  console.log(`\n${renderConsole(report)}`);
  mkdirSync(dirname(options.out), { recursive: true });
  // The payments and intel sections come from `npm run bench:payments` and `npm run bench:intel`;
  // keep them when rewriting the file.
  const payments = paymentsSection(options.out);
  writeFileSync(options.out, renderMarkdown(report) + payments);
  console.log(`\nwrote ${relative(ROOT, options.out)}`);
  if (profile !== null) console.log(`CPU profile kept at ${profile.file}`);
  if (!options.freshUrls && options.out === resolve(ROOT, 'docs/bench.md')) {
    // Layer 2's index (build time, lookup rate, RSS with every development feed) is part of the
    // same report: bench/intel-bench.ts writes its own section of docs/bench.md.
    console.log('\nthreat-intel index: bench/intel-bench.ts …');
    const intel = spawnSync('npx', ['tsx', join(ROOT, 'bench/intel-bench.ts')], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (intel.status !== 0) process.exitCode = intel.status ?? 1;
    // Layer 3 (page analysis of a 1 MB page, fresh-URL latency) writes its own section too.
    console.log('\npage analysis: bench/page-bench.ts …');
    const pages = spawnSync('npx', ['tsx', join(ROOT, 'bench/page-bench.ts')], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (pages.status !== 0) process.exitCode = pages.status ?? 1;
    // And what the operator's overrides cost on every verdict (SQLite and PostgreSQL).
    console.log('\nverdict overrides: bench/overrides-bench.ts …');
    const overrides = spawnSync('npx', ['tsx', join(ROOT, 'bench/overrides-bench.ts')], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (overrides.status !== 0) process.exitCode = overrides.status ?? 1;
  }
}

/**
 * The `npm run bench:payments`, `bench:intel`, `bench:pages` and `bench:overrides` sections of `file` (each with a leading
 * newline), or ''.
 */
function paymentsSection(file: string): string {
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  return [
    { start: PAYMENTS_SECTION_START, end: PAYMENTS_SECTION_END },
    { start: INTEL_SECTION_START, end: INTEL_SECTION_END },
    { start: PAGES_SECTION_START, end: PAGES_SECTION_END },
    { start: OVERRIDES_SECTION_START, end: OVERRIDES_SECTION_END },
  ]
    .map((markers) => findSection(previous, markers))
    .map((section) => (section === null ? '' : `\n${section}\n`))
    .join('');
}

let signalled = false;
const onSignal = (signal: NodeJS.Signals) => {
  if (signalled) return;
  signalled = true;
  state.interrupted = true;
  console.error(`\n${signal}: stopping servers and cleaning up…`);
  void cleanup().finally(() => process.exit(130));
};
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);
// Last resort for any other exit path: no server outlives the bench, no temp dir is left.
process.on('exit', () => {
  killAllChildren();
  removeTmp();
});

try {
  await main();
} catch (error) {
  process.exitCode = 1;
  console.error(`\nbench failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await cleanup();
}
