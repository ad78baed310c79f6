/**
 * The real `linkguard` CLI as child processes on a temp SQLite file: key provisioning (spec §5
 * "provisioning is not an API", DESIGN §4.15–4.16), `check`, `eval` and configuration errors.
 * Independent processes run concurrently; each test has its own database.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { monthOf } from '../../src/clock.js';
import { openStore } from '../../src/store/open-store.js';
import { detectWithKey } from '../helpers/detect-request.js';
import { createEnterpriseKey } from '../helpers/enterprise-key.js';
import { type CliResult, jsonLines, jsonOut, runCli } from '../helpers/run-cli.js';
import { createTestApp, sharedEngine, testClock } from '../helpers/test-app.js';

const KEY_FORMAT = /^sk_live_[0-9A-Za-z]{43}$/;

interface KeyView {
  id: string;
  name: string;
  prefix: string;
  expires_at: string | null;
  revoked_at: string | null;
  rate_limit_per_minute: number | null;
  monthly_allowance: number | null;
  hard_cap: boolean;
  key?: string;
}

/**
 * A temp directory with a migrated database, for one test; `done()` removes it. Creating the
 * file first (WAL mode, schema) lets several CLI processes then use it at the same time.
 */
async function tempDb(): Promise<{
  path: string;
  env: Record<string, string>;
  done: () => void;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'linkguard-cli-'));
  const path = join(dir, 'lg.db');
  await (await openStore({ kind: 'sqlite', path })).close();
  return {
    path,
    env: { DATABASE_URL: `sqlite:${path}` },
    done: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function expectOk(result: CliResult): CliResult {
  return expectExit(result, 0);
}

/** A run that printed nothing on stderr and exited with `code` (src/cli/exit-codes.ts). */
function expectExit(result: CliResult, code: number): CliResult {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(code);
  return result;
}

/** An expected failure: exactly one line on stderr (no stack trace), nothing on stdout. */
function expectOneLineFailure(result: CliResult, code: number, pattern: RegExp): void {
  expect(result.code, result.stderr).toBe(code);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

/**
 * Each process needs about a second of CPU to start (tsx); on a busy machine a test of several
 * sequential processes can take longer than the default 30 s, so the suites allow more.
 */
const SUITE_TIMEOUT_MS = 120_000;

describe.concurrent('keys', { timeout: SUITE_TIMEOUT_MS }, () => {
  it('create prints the key once; list never shows it nor its hash; limits are stored', async ({
    expect,
  }) => {
    const db = await tempDb();
    try {
      const limits = ['--rate-limit', '5', '--monthly-allowance', '100', '--hard-cap'];
      const [plain, capped] = await Promise.all([
        runCli(['keys', 'create', '--name', 'Acme', '--json'], db.env),
        runCli(
          ['keys', 'create', '--name', 'Globex', ...limits, '--expires', '2099-12-31', '--json'],
          db.env,
        ),
      ]);
      const created = jsonOut(expectOk(plain)) as KeyView;
      const limited = jsonOut(expectOk(capped)) as KeyView;
      expect(created.key).toMatch(KEY_FORMAT);
      expect(limited.key).toMatch(KEY_FORMAT);
      expect(created).toMatchObject({ name: 'Acme', hard_cap: false, revoked_at: null });
      expect(created.prefix).toBe(created.key?.slice(0, 12));
      const list = expectOk(await runCli(['keys', 'list', '--json'], db.env));
      const raw = created.key ?? '';
      const hash = createHash('sha256').update(raw).digest();
      for (const secret of [raw, raw.slice(8), hash.toString('hex'), hash.toString('base64')])
        expect(list.stdout).not.toContain(secret);
      expect(list.stdout).not.toContain(limited.key ?? 'missing');
      const views = JSON.parse(list.stdout) as KeyView[];
      expect(views.map((v) => v.name).sort()).toEqual(['Acme', 'Globex']);
      for (const view of views) {
        expect(view).not.toHaveProperty('key');
        expect(view).not.toHaveProperty('hash');
      }
      expect(views.find((v) => v.id === limited.id)).toMatchObject({
        rate_limit_per_minute: 5,
        monthly_allowance: 100,
        hard_cap: true,
        expires_at: '2100-01-01T00:00:00.000Z',
      });
      // What the server will read: the same record in the store.
      const store = await openStore({ kind: 'sqlite', path: db.path });
      try {
        expect(await store.keys.findKeyById(limited.id)).toMatchObject({
          rateLimitPerMinute: 5,
          monthlyAllowance: 100,
          hardCap: true,
          expiresAt: Date.UTC(2100, 0, 1),
          revokedAt: null,
        });
        // Only the hash is stored, and it is the hash of the key that was printed.
        expect((await store.keys.findKeyByHash(hash))?.id).toBe(created.id);
      } finally {
        await store.close();
      }
    } finally {
      db.done();
    }
  });

  it('refuses invalid flags with a message and a non-zero exit, creating nothing', async ({
    expect,
  }) => {
    const db = await tempDb();
    try {
      const runs = await Promise.all(
        [
          ['--expires', '2020-01-01'],
          ['--expires', '2099-02-30'],
          ['--hard-cap'],
          ['--rate-limit', '0'],
        ].map((flags) => runCli(['keys', 'create', '--name', 'Bad', ...flags], db.env)),
      );
      for (const [i, run] of runs.entries()) {
        expect(run.code, `run ${i}`).not.toBe(0);
        expect(run.stdout, `run ${i}`).not.toMatch(/sk_live_/);
      }
      expect(runs[0]?.stderr).toMatch(/past/i);
      expect(runs[1]?.stderr).toMatch(/YYYY-MM-DD/);
      expect(runs[2]?.stderr).toMatch(/--monthly-allowance/);
      expect(runs[3]?.stderr).toMatch(/--rate-limit/);
      const store = await openStore({ kind: 'sqlite', path: db.path });
      try {
        expect(await store.keys.listKeys()).toEqual([]);
      } finally {
        await store.close();
      }
    } finally {
      db.done();
    }
  });

  it('revoke: revoked in the list, a second revoke says so, an unknown id exits 1', async ({
    expect,
  }) => {
    const db = await tempDb();
    try {
      // The key is provisioned in process; creation through the CLI is covered above.
      const store = await openStore({ kind: 'sqlite', path: db.path });
      const { id } = await createEnterpriseKey(store, { name: 'Initech' }).finally(() =>
        store.close(),
      );
      const revoked = expectOk(await runCli(['keys', 'revoke', id], db.env));
      expect(revoked.stdout).toMatch(/revoked/i);
      expect(revoked.stdout).not.toMatch(/already/i);
      const [list, again, unknown] = await Promise.all([
        runCli(['keys', 'list', '--json'], db.env),
        runCli(['keys', 'revoke', id], db.env),
        runCli(['keys', 'revoke', 'key_doesnotexist'], db.env),
      ]);
      const [view] = JSON.parse(expectOk(list).stdout) as KeyView[];
      expect(view?.id).toBe(id);
      expect(view?.revoked_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(expectOk(again).stdout).toMatch(/already revoked/i);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('key_doesnotexist');
    } finally {
      db.done();
    }
  });

  it('usage counts requests the server made on the same database file', async ({ expect }) => {
    // The server side runs in this process on the file the CLI writes: one store, two doors.
    const clock = testClock(Date.now());
    const ctx = await createTestApp(sharedEngine(), { clock });
    try {
      const env = { DATABASE_URL: `sqlite:${ctx.dbPath}` };
      const created = jsonOut(
        expectOk(await runCli(['keys', 'create', '--name', 'Umbrella', '--json'], env)),
      ) as KeyView;
      const bearer = `Bearer ${created.key ?? ''}`;
      expect((await detectWithKey(ctx.app, 'https://paypal.com', bearer)).statusCode).toBe(200);
      const url = 'https://metamask-restore-wallet.com';
      expect((await detectWithKey(ctx.app, url, bearer)).statusCode).toBe(200);
      const month = monthOf(clock.now());
      const usage = jsonOut(
        expectOk(await runCli(['keys', 'usage', '--month', month, '--json'], env)),
      ) as Record<string, unknown>[];
      expect(usage).toEqual([
        {
          id: created.id,
          name: 'Umbrella',
          month,
          requests: 2,
          safe: 1,
          caution: 0,
          danger: 1,
          monthly_allowance: null,
        },
      ]);
    } finally {
      await ctx.cleanup();
    }
  });
});

interface CheckLine {
  url: string;
  verdict?: string;
  brand?: string | null;
  reason?: string;
  signals?: Record<string, unknown>;
  error?: string;
  message?: string;
}

interface EvalCounts {
  rows: number;
  invalid: number;
  safe: number;
  caution: number;
  danger: number;
}
interface EvalReport {
  malicious: EvalCounts & {
    brandRows: number;
    brandCorrect: number;
    recall: number;
    danger_recall: number;
    brand_accuracy: number | null;
  };
  benign: EvalCounts & { false_positive_rate: number; danger_false_positive_rate: number };
}

const MALICIOUS = [
  ['https://metamask-restore-wallet.com', 'MetaMask'],
  ['https://paypal.com.account-check.example.top', 'PayPal'],
  ['http://secure-account-verify-login.top/signin', ''],
] as const;
const BENIGN = ['https://paypal.com', 'https://metamask.io', 'https://www.coinbase.com'];
const INVALID = 'http://127.0.0.1/';

describe.concurrent('check and eval', { timeout: SUITE_TIMEOUT_MS }, () => {
  let dir = '';
  let checked: CliResult;
  let fromFile: CliResult;
  let offline: CliResult;
  let evaluated: CliResult;
  let configError: CliResult;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkguard-cli-check-'));
    // No RDAP: tests never leave loopback.
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'lg.db')}`,
      RDAP_ENABLED: 'false',
      PAGE_ANALYSIS: 'off',
    };
    const urlFile = join(dir, 'urls.txt');
    writeFileSync(urlFile, `https://paypal.com\n\n   \n${INVALID}\r\nmetamask.io\n\n`);
    const malicious = join(dir, 'm.csv');
    const benign = join(dir, 'b.csv');
    writeFileSync(malicious, `url,brand\n${MALICIOUS.map((row) => row.join(',')).join('\n')}\n`);
    writeFileSync(benign, `url\n${BENIGN.join('\n')}\n`);
    const inputs = [MALICIOUS[0][0], INVALID, ...BENIGN, MALICIOUS[1][0], MALICIOUS[2][0]];
    [checked, fromFile, offline, evaluated, configError] = await Promise.all([
      runCli(['check', '--json', ...inputs], env),
      runCli(['check', '--file', urlFile, '--json'], env),
      runCli(['check', '--offline', '--json', MALICIOUS[0][0]], env),
      runCli(['eval', '--malicious', malicious, '--benign', benign, '--json'], env),
      runCli(['keys', 'list'], { ...env, PORT: 'abc' }),
    ]);
  }, SUITE_TIMEOUT_MS);

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const byUrl = (): Map<string, CheckLine> =>
    new Map((jsonLines(checked) as CheckLine[]).map((line) => [line.url, line]));

  it('check --json: one line per input, in input order, verdict body or invalid_url', () => {
    const lines = jsonLines(expectExit(checked, 5)) as CheckLine[];
    const order = [MALICIOUS[0][0], INVALID, ...BENIGN, MALICIOUS[1][0], MALICIOUS[2][0]];
    expect(lines.map((l) => l.url)).toEqual(order);
    expect(lines[0]).toMatchObject({ verdict: 'danger', brand: 'MetaMask' });
    expect(Object.keys(lines[0]?.signals ?? {})).toHaveLength(23);
    expect(lines[1]).toEqual({
      url: INVALID,
      error: 'invalid_url',
      message: expect.any(String) as string,
      reason: 'private_address',
    });
    expect(lines[2]).toMatchObject({ verdict: 'safe' });
    expect(lines[5]).toMatchObject({ verdict: 'danger', brand: 'PayPal' });
    expect(lines[0]?.reason).not.toMatch(/offline/i);
  });

  it('check --file reads one URL per line and skips blank lines', () => {
    // No danger, but an input without a verdict: 4, never the 0 of "all safe".
    expect(fromFile.code).toBe(4);
    // With --json the summary goes to stderr, so stdout stays JSON Lines.
    expect(fromFile.stderr).toMatch(
      /^Checked 3 URLs in \d+\.\d s \(concurrency 8\):\n2 safe, 0 caution, 0 danger; 1 without a verdict \(1 invalid_url\)\.\n$/,
    );
    const lines = jsonLines(fromFile) as CheckLine[];
    expect(lines.map((l) => l.url)).toEqual(['https://paypal.com', INVALID, 'metamask.io']);
    expect(lines.map((l) => l.verdict ?? l.error)).toEqual(['safe', 'invalid_url', 'safe']);
  });

  it('check --offline works and says so in the reason', () => {
    const [line] = jsonLines(expectExit(offline, 5)) as CheckLine[];
    expect(line).toMatchObject({ url: MALICIOUS[0][0], verdict: 'danger', brand: 'MetaMask' });
    expect(line?.reason).toMatch(/offline/i);
  });

  it('eval reports recall, false positives and brand accuracy consistent with the verdicts', () => {
    const report = jsonOut(expectOk(evaluated)) as EvalReport;
    const verdicts = byUrl();
    const count = (urls: readonly string[], v: string): number =>
      urls.filter((u) => verdicts.get(u)?.verdict === v).length;
    const bad = MALICIOUS.map(([url]) => url);
    expect(count(bad, 'danger')).toBeGreaterThanOrEqual(2);
    expect(report.malicious).toMatchObject({
      rows: 3,
      invalid: 0,
      safe: count(bad, 'safe'),
      caution: count(bad, 'caution'),
      danger: count(bad, 'danger'),
      brandRows: 2,
      brandCorrect: MALICIOUS.filter(([u, b]) => b !== '' && verdicts.get(u)?.brand === b).length,
    });
    expect(report.malicious.recall).toBeCloseTo((3 - count(bad, 'safe')) / 3, 10);
    expect(report.malicious.danger_recall).toBeCloseTo(count(bad, 'danger') / 3, 10);
    expect(report.malicious.brand_accuracy).toBeCloseTo(report.malicious.brandCorrect / 2, 10);
    expect(report.benign).toMatchObject({
      rows: 3,
      invalid: 0,
      safe: count(BENIGN, 'safe'),
      caution: count(BENIGN, 'caution'),
      danger: count(BENIGN, 'danger'),
    });
    expect(report.benign.false_positive_rate).toBeCloseTo((3 - count(BENIGN, 'safe')) / 3, 10);
    expect(report.benign.danger_false_positive_rate).toBeCloseTo(count(BENIGN, 'danger') / 3, 10);
  });

  it('a configuration error exits 2 with "Configuration error" and names the variable', () => {
    expect(configError.code).toBe(2);
    expect(configError.stderr).toContain('Configuration error');
    expect(configError.stderr).toContain('PORT');
    expect(configError.stdout).toBe('');
  });
});

describe.concurrent('exit codes and expected failures', { timeout: SUITE_TIMEOUT_MS }, () => {
  // Offline, no RDAP, no page: the verdicts come from the URL alone and never leave the machine.
  const offline = ['check', '--offline', '--json'];

  it('check exits 0 when every input is safe, 4 for caution or no verdict, 5 for any danger', async ({
    expect,
  }) => {
    const db = await tempDb();
    try {
      const env = { ...db.env, RDAP_ENABLED: 'false', PAGE_ANALYSIS: 'off' };
      // One at a time: each process builds the engine, and a busy machine must not time them out.
      const safe = await runCli([...offline, 'paypal.com', 'https://metamask.io/'], env);
      const caution = await runCli([...offline, 'paypal.com', 'apple-id.top'], env);
      const invalid = await runCli([...offline, 'paypal.com', 'http://127.0.0.1/'], env);
      const danger = await runCli(
        [...offline, 'apple-id.top', 'metamask-restore-wallet.com', 'paypal.com'],
        env,
      );
      const verdicts = (result: CliResult): unknown[] =>
        (jsonLines(result) as CheckLine[]).map((line) => line.verdict ?? line.error);
      expect(verdicts(safe)).toEqual(['safe', 'safe']);
      expect(safe.code).toBe(0);
      expect(verdicts(caution)).toEqual(['safe', 'caution']);
      expect(caution.code).toBe(4);
      expect(verdicts(invalid)).toEqual(['safe', 'invalid_url']);
      expect(invalid.code).toBe(4);
      expect(verdicts(danger)).toEqual(['caution', 'danger', 'safe']);
      expect(danger.code).toBe(5);
    } finally {
      db.done();
    }
  });

  it('check --file with a missing file: one line, exit 2', async () => {
    const db = await tempDb();
    try {
      const missing = join(dirname(db.path), 'no-such-urls.txt');
      const absent = await runCli(['check', '--offline', '--file', missing], db.env);
      expectOneLineFailure(absent, 2, /cannot read --file .*no-such-urls\.txt: ENOENT/);
    } finally {
      db.done();
    }
  });

  it('a store that cannot be opened: one line naming it, exit 3', async () => {
    const db = await tempDb();
    try {
      // A regular file where the database's directory should be.
      const blocker = join(dirname(db.path), 'not-a-directory');
      writeFileSync(blocker, '');
      const env = { DATABASE_URL: `sqlite:${join(blocker, 'lg.db')}`, RDAP_ENABLED: 'false' };
      const runs = [
        await runCli(['keys', 'list'], env),
        await runCli(['check', '--offline', 'paypal.com'], env),
        // A directory where the database file should be.
        await runCli(['migrate'], { DATABASE_URL: `sqlite:${dirname(db.path)}` }),
      ];
      for (const run of runs) expectOneLineFailure(run, 3, /^Cannot open the store \(sqlite:/);
    } finally {
      db.done();
    }
  });

  it('PostgreSQL out of reach: one line without the password, exit 3', async () => {
    // Port 1 on loopback: refused at once, nothing listens there.
    const env = { DATABASE_URL: 'postgres://linkguard:s3cret-pw@127.0.0.1:1/linkguard' };
    const run = await runCli(['keys', 'list'], env);
    expectOneLineFailure(
      run,
      3,
      /^Cannot open the store \(postgres:\/\/127\.0\.0\.1:1\/linkguard\)/,
    );
    expect(run.stderr).not.toContain('s3cret-pw');
  });

  it('usage errors exit 2; --help documents the exit codes', async ({ expect }) => {
    const db = await tempDb();
    try {
      const [unknownOption, missingArgument, checkHelp] = await Promise.all([
        runCli(['check', '--bogus'], db.env),
        runCli(['keys', 'revoke'], db.env),
        runCli(['check', '--help'], db.env),
      ]);
      expect(unknownOption.code).toBe(2);
      expect(unknownOption.stderr).toMatch(/unknown option '--bogus'/);
      expect(missingArgument.code).toBe(2);
      for (const run of [checkHelp]) {
        expect(run.code).toBe(0);
        expect(run.stdout).toMatch(/Exit codes:/);
        expect(run.stdout).toMatch(/4 +check: the worst verdict is caution/);
        expect(run.stdout).toMatch(/5 +check: at least one input is danger/);
      }
    } finally {
      db.done();
    }
  });
});

describe('check --file in batch', { timeout: SUITE_TIMEOUT_MS }, () => {
  /** A page host that accepts requests and never answers (reached through NET_RESOLVE only). */
  const HANG = 'hang.linkguard-test.net';
  let dir = '';
  const server = createServer();
  let active = 0;
  let maxActive = 0;
  let requests = 0;
  let hangUrls: string[] = [];
  let batch: CliResult;
  let table: CliResult;
  let badConcurrency: CliResult;
  let badTimeout: CliResult;
  const longUrl = `https://paypal.com/${'account/'.repeat(12)}`;

  beforeAll(async () => {
    server.on('request', (_request, response) => {
      requests++;
      active++;
      maxActive = Math.max(maxActive, active);
      // Never answered: the page fetch gives up at its budget and closes the connection.
      response.on('close', () => {
        active--;
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    dir = mkdtempSync(join(tmpdir(), 'linkguard-cli-batch-'));
    hangUrls = ['a', 'b', 'c', 'd'].map((path) => `http://${HANG}:${port}/${path}`);
    const batchFile = join(dir, 'batch.txt');
    // Fast inputs between slow ones: the output keeps this order whatever order they finish in.
    writeFileSync(
      batchFile,
      [
        hangUrls[0],
        'paypal.com',
        hangUrls[1],
        '10.0.0.1',
        hangUrls[2],
        hangUrls[3],
        'https://metamask.io/',
      ].join('\n'),
    );
    const tableFile = join(dir, 'table.txt');
    writeFileSync(
      tableFile,
      ['paypal.com', longUrl, 'http://127.0.0.1/', 'metamask.io'].join('\n'),
    );
    // No RDAP; pages only from the loopback server (allowlisted sites are never fetched).
    const env = {
      DATABASE_URL: `sqlite:${join(dir, 'lg.db')}`,
      RDAP_ENABLED: 'false',
      PAGE_ANALYSIS: 'on',
      PAGE_BUDGET_MS: '1500',
      NET_RESOLVE: `${HANG}:${port}:127.0.0.1`,
    };
    [batch, table, badConcurrency, badTimeout] = await Promise.all([
      runCli(
        ['check', '--file', batchFile, '--json', '--concurrency', '2', '--timeout', '300'],
        env,
      ),
      runCli(['check', '--file', tableFile, '--progress'], { ...env, COLUMNS: '80' }),
      runCli(['check', '--file', tableFile, '--concurrency', '0'], env),
      runCli(['check', '--file', tableFile, '--timeout', 'soon'], env),
    ]);
  }, SUITE_TIMEOUT_MS);

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
    rmSync(dir, { recursive: true, force: true });
  });

  it('results in input order; a URL past --timeout is a timeout without a verdict (exit 4)', () => {
    expect(batch.code, batch.stderr).toBe(4);
    const lines = jsonLines(batch) as CheckLine[];
    expect(lines.map((l) => l.url)).toEqual([
      hangUrls[0],
      'paypal.com',
      hangUrls[1],
      '10.0.0.1',
      hangUrls[2],
      hangUrls[3],
      'https://metamask.io/',
    ]);
    expect(lines.map((l) => l.verdict ?? l.error)).toEqual([
      'timeout',
      'safe',
      'timeout',
      'invalid_url',
      'timeout',
      'timeout',
      'safe',
    ]);
    expect(lines[0]).toEqual({
      url: hangUrls[0],
      error: 'timeout',
      message: 'not judged within 300 ms',
    });
  });

  it('--concurrency bounds the requests in flight, also after a timeout frees no slot early', () => {
    expect(requests).toBe(hangUrls.length);
    expect(maxActive).toBeLessThanOrEqual(2);
    expect(maxActive).toBeGreaterThanOrEqual(1);
  });

  it('the summary counts verdicts and inputs without one, by error', () => {
    expect(batch.stderr).toMatch(
      /Checked 7 URLs in \d+\.\d s \(concurrency 2\):\n2 safe, 0 caution, 0 danger; 5 without a verdict \(1 invalid_url, 4 timeout\)\.\n$/,
    );
  });

  it('COLUMNS=80 and no terminal: the progress bar, the table and the summary fit 80 columns', () => {
    expect(table.code, table.stderr).toBe(4);
    const barLines = table.stderr.split('\n').filter((line) => line !== '');
    // --progress without a terminal: a line at the start and one at the end.
    expect(barLines[0]).toMatch(/^checking -+ 0\/4 · 0 danger, 0 caution, 0 no verdict$/);
    expect(barLines.at(-1)).toMatch(/^checking =+ 4\/4 · 0 danger, 0 caution, 1 no verdict$/);
    for (const line of [...barLines, ...table.stdout.split('\n')]) {
      expect(line.length, line).toBeLessThanOrEqual(80);
    }
    // The long URL and the reasons were cut, with an ellipsis; --json would have them whole.
    expect(table.stdout).toContain('https://paypal.com/account/');
    expect(table.stdout).not.toContain(longUrl);
    expect(table.stdout).toMatch(/…/);
    expect(table.stdout).toMatch(/\n\nChecked 4 URLs in \d+\.\d s \(concurrency 8\):\n3 safe/);
  });

  it('refuses --concurrency 0 and a --timeout that is not a number: exit 2, one line', () => {
    for (const run of [badConcurrency, badTimeout]) {
      expectOneLineFailure(run, 2, /an integer from/);
    }
  });
});
