/**
 * Bad input to `linkguard reports …` and `linkguard overrides …` (built CLI, `npm run build`
 * first, on a temp SQLite file): each is one line on stderr, nothing on stdout, the exit code of
 * src/cli/exit-codes.ts (1 unknown id, 2 refused request), and nothing is recorded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { emptySignals, type Verdict } from '../../src/engine/verdict.js';
import { openStore } from '../../src/store/open-store.js';
import type { ReportRecord } from '../../src/store/ports/correction-store.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import type { CliResult } from '../helpers/run-cli.js';

const REPORT_ID = 'rpt_0123456789abcdef';

/** A false positive as the ReportService would have stored it (a `danger` verdict disputed). */
function storedReport(): ReportRecord {
  const verdict: Verdict = {
    verdict: 'danger',
    trust_score: 6,
    brand: 'Coinbase',
    confidence: 0.9,
    reason: 'Looks like Coinbase.',
    threat_types: ['brand_impersonation'],
    signals: { ...emptySignals(), brand_impersonation: true },
    details: {
      matched_brand: 'Coinbase',
      official_domain: 'coinbase.com',
      domain_matches_brand: false,
      target_country: null,
      page_language: null,
      tld: 'com',
      domain_age_days: null,
      matched_patterns: ['combosquat:coinbase+rewards'],
    },
  };
  return {
    id: REPORT_ID,
    createdAt: Date.now(),
    url: 'https://acme-coinbase-rewards.com/',
    kind: 'false_positive',
    comment: null,
    contact: null,
    source: 'key',
    sourceId: 'key_0123456789ab',
    verdict,
    engineVersion: '1.0.0',
    dataVersion: 'test',
    status: 'open',
    resolvedAt: null,
    resolvedBy: null,
    resolutionNote: null,
    overrideId: null,
    redactedAt: null,
    redactedBy: null,
  };
}

let dir = '';
let env: Record<string, string> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'linkguard-corrections-errors-'));
  const path = join(dir, 'lg.db');
  const store = await openStore({ kind: 'sqlite', path });
  try {
    await store.reports.createReport(storedReport());
  } finally {
    await store.close();
  }
  env = { DATABASE_URL: `sqlite:${path}`, RDAP_ENABLED: 'false', PAGE_ANALYSIS: 'off' };
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: readonly string[]): Promise<CliResult> => runBuiltCli(args, env);

/** One line on stderr matching `pattern`, nothing on stdout, exit `code`. */
function expectFailure(result: CliResult, code: number, pattern: RegExp): void {
  expect(result.code, result.stderr).toBe(code);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd()).toMatch(pattern);
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

/** Commander's parse errors print the error line then the help: the first line is the error. */
function expectParseError(result: CliResult, pattern: RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.split('\n')[0]).toMatch(pattern);
}

function oneLine(result: CliResult): void {
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
}

describe.concurrent('operator commands refuse bad input', { timeout: 120_000 }, () => {
  it.each([
    [['overrides', 'remove', 'ovr_000000000000'], /^No override ovr_000000000000$/],
    [['overrides', 'remove', 'not-an-id'], /^No override not-an-id$/],
    [['reports', 'show', 'rpt_0000000000000000'], /^No report rpt_0000000000000000$/],
    [['reports', 'show', '1'], /^No report 1$/],
    [['reports', 'resolve', 'rpt_0000000000000000', '--accept'], /^No report rpt_0{16}$/],
    [['reports', 'redact', 'rpt_0000000000000000', '--by', 'a'], /^No report rpt_0{16}$/],
    [['reports', 'redact', 'not-an-id'], /^No report not-an-id$/],
  ])('unknown id: %j exits 1', async (args, pattern) => {
    const result = await run(args);
    expectFailure(result, 1, pattern);
    oneLine(result);
  });

  it.each([
    ['localhost', /^Not a host or URL prefix: "localhost" is a special-use name/],
    ['com', /^Not a host or URL prefix: A top-level domain alone is not a web site/],
    ['10.0.0.1', /^Not a host or URL prefix: .*non-public address/],
    ['ftp://example.com/', /^Not a host or URL prefix: Only http and https/],
    ['*.example.com', /^Not a host or URL prefix: Host name is not a valid DNS name/],
  ])('invalid target %s exits 2', async (target, pattern) => {
    const result = await run(['overrides', 'add', 'allow', target, '--reason', 'x', '--by', 'a']);
    expectFailure(result, 2, pattern);
    oneLine(result);
  });

  it.each([
    [
      ['overrides', 'add', 'allow', 'example.com', '--reason', '   '],
      /^An override needs a reason$/,
    ],
    [
      ['overrides', 'add', 'deny', 'example.com', '--reason', 'x'.repeat(501)],
      /^The reason is longer than 500 characters$/,
    ],
    [
      ['overrides', 'add', 'allow', 'example.com', '--reason', 'x', '--expires', '2020-01-01'],
      /^--expires 2020-01-01 is not in the future$/,
    ],
    [
      ['overrides', 'add', 'allow', 'example.com', '--reason', 'x', '--expires', '2026-02-30'],
      /^--expires 2026-02-30 is not a date$/,
    ],
    [
      ['overrides', 'add', 'allow', 'example.com', '--reason', 'x', '--expires', '3w'],
      /^--expires 3w: expected a duration \(30d, 12h, 45m\)/,
    ],
    [
      ['overrides', 'add', 'allow', 'example.com', '--reason', 'x', '--expires', '0h'],
      /^--expires 0h: a duration must be at least 1h$/,
    ],
    [['overrides', 'add', 'allow', 'example.com', '--reason', 'x', '--by', ' '], /^--by must be/],
    [['reports', 'redact', REPORT_ID, '--by', ' '], /^--by must be/],
    [['reports', 'resolve', REPORT_ID, '--by', 'a'], /^Give exactly one of --accept and --reject$/],
    [
      ['reports', 'resolve', REPORT_ID, '--accept', '--reject', '--by', 'a'],
      /^Give exactly one of --accept and --reject$/,
    ],
    [
      ['reports', 'resolve', REPORT_ID, '--accept', '--reason', 'x', '--by', 'a'],
      /^--reason needs --override$/,
    ],
    [
      ['reports', 'resolve', REPORT_ID, '--accept', '--target', 'example.com', '--by', 'a'],
      /^--target needs --override$/,
    ],
    [
      ['reports', 'resolve', REPORT_ID, '--accept', '--override', 'allow', '--by', 'a'],
      /^An override needs a reason$/,
    ],
    [
      ['reports', 'resolve', REPORT_ID, '--accept', '--override', 'deny', '--reason', 'x'],
      /^--override deny contradicts the resolution: a false_positive report accepted says the URL is benign; use --override allow$/,
    ],
    [
      ['reports', 'resolve', REPORT_ID, '--reject', '--override', 'allow', '--reason', 'x'],
      /^--override allow contradicts the resolution: .* says the URL is malicious/,
    ],
    [
      [
        ...['reports', 'resolve', REPORT_ID, '--accept', '--override', 'allow', '--reason', 'x'],
        ...['--target', 'localhost'],
      ],
      /^Not a host or URL prefix: "localhost"/,
    ],
    [
      [
        ...['reports', 'resolve', REPORT_ID, '--accept', '--override', 'allow', '--reason', 'x'],
        ...['--expires', '2020-01-01T00:00:00Z'],
      ],
      /^--expires 2020-01-01T00:00:00Z is not in the future$/,
    ],
    [
      ['reports', 'resolve', REPORT_ID, '--accept', '--note', 'n'.repeat(501), '--by', 'a'],
      /^The note is longer than 500 characters$/,
    ],
    [
      ['reports', 'export', '--malicious', 'same.csv', '--benign', './same.csv'],
      /^--malicious and --benign must be different files$/,
    ],
  ])('refused request %j exits 2', async (args, pattern) => {
    const result = await run(args);
    expectFailure(result, 2, pattern);
    oneLine(result);
  });

  it('an export file that cannot be written exits 2 and names it', async () => {
    const missing = join(dir, 'no-such-dir', 'm.csv');
    const result = await run([
      ...['reports', 'export', '--malicious', missing],
      ...['--benign', join(dir, 'b.csv')],
    ]);
    expectFailure(result, 2, /^cannot write --malicious .*m\.csv: ENOENT$/);
    oneLine(result);
  });

  it.each([
    [
      ['reports', 'list', '--kind', 'spam'],
      /argument 'spam' is invalid\. Allowed choices are false_positive, false_negative/,
    ],
    [
      ['reports', 'list', '--status', 'closed'],
      /argument 'closed' is invalid\. Allowed choices are open, accepted, rejected, resolved, all/,
    ],
    [['reports', 'list', '--limit', '0'], /--limit.*an integer from 1 to 100000/],
    [
      ['overrides', 'add', 'block', 'example.com', '--reason', 'x'],
      /value 'block' is invalid for argument 'action'\. Allowed choices are allow, deny/,
    ],
    [
      ['overrides', 'add', 'allow', 'example.com'],
      /required option '--reason <text>' not specified/,
    ],
    [
      ['reports', 'resolve', REPORT_ID, '--accept', '--override', 'maybe'],
      /argument 'maybe' is invalid/,
    ],
    [
      ['reports', 'export', '--malicious', 'm.csv'],
      /required option '--benign <csv>' not specified/,
    ],
    [['reports', 'redact'], /missing required argument 'id'/],
  ])('parse error %j exits 2', async (args, pattern) => {
    expectParseError(await run(args), pattern);
  });
});

describe('after the refusals', { timeout: 60_000 }, () => {
  it('nothing was recorded: the report is open and no override exists', async () => {
    const shown = await run(['reports', 'show', REPORT_ID, '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      status: 'open',
      override: null,
      redacted_at: null,
      redacted_by: null,
    });
    const overrides = await run(['overrides', 'list', '--all', '--json']);
    expect(overrides.code, overrides.stderr).toBe(0);
    expect(JSON.parse(overrides.stdout)).toEqual([]);
  });
});
