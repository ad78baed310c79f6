/**
 * `linkguard eval --intel` and `--cutoff` as child processes on a temp SQLite file: feeds
 * imported from the real fixture files with `linkguard feeds import`, then labelled CSVs judged
 * with the feed index (known threats per feed, the URL layer alongside) and split in time (only
 * entries first seen before the cut-off, only rows first seen on or after it). RDAP is off: the
 * evaluation never leaves the process.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { parseFeed } from '../../src/intel/feeds/parse-feed.js';
import { openStore } from '../../src/store/open-store.js';
import { type CliResult, jsonOut, PACKAGE_ROOT, runCli } from '../helpers/run-cli.js';

const FIXTURES = join(PACKAGE_ROOT, 'test', 'fixtures', 'feeds');
const SCAMSNIFFER = join(FIXTURES, 'scamsniffer-domains-first-seen.csv');
const OPENPHISH = join(FIXTURES, 'openphish-urls-first-seen.csv');
const POLKADOT = join(FIXTURES, 'polkadot-all.json');
const CUTOFF = '2024-10-01';
const CUTOFF_MS = Date.UTC(2024, 9, 1);

/**
 * Malicious rows (url, first_seen) and which feed lists each of them (fixture dates in comments).
 * With the cut-off, rows before it and the undated row are skipped.
 */
const MALICIOUS: [url: string, firstSeen: string][] = [
  ['https://0-gaswap.io/claim', '2022-11-01'], // scamsniffer 2022-10-30; before the cut-off
  ['https://dogecoin20.buzz/', '2024-05-21'], // scamsniffer 2024-05-21; before
  ['https://app.dogecoin20.buzz/airdrop', '2024-11-02'], // parent listed 2024-05-21: known after
  ['https://dogecoin20.app/', '2024-11-15'], // scamsniffer 2024-11-15: not yet listed at the cut-off
  ['http://disponible.temp.swtest.ru/other/path.php', '2024-11-01'], // openphish 2024-10-28: not yet
  ['https://whtasapp-us.com/login', '2024-12-01'], // openphish 2024-07-11: known after
  ['https://never-listed-scam-site.top/wallet', '2024-12-05'], // in no feed
  ['https://0xarb.xyz/', '2024-12-01'], // polkadot (undated): left out of the cut-off index
  ['https://0-chain.com/', ''], // scamsniffer 2024-10-27 and polkadot; the row itself is undated
];
const BENIGN = [
  'https://www.paypal.com/',
  'https://metamask.io/',
  'https://other-tenant.pages.dev/',
];

interface Tally {
  rows: number;
  invalid: number;
  danger: number;
  known_threat: number;
  known_threat_rate: number;
  hits_by_feed: Record<string, number>;
  url_layer: { not_safe_rate: number; danger_rate: number };
}

interface IntelReport {
  intel: {
    feeds: string[];
    indexed: number;
    cutoff: string | null;
    entries_after_cutoff: number;
    entries_undated: number;
  };
  malicious: Tally & { recall: number; rows_before_cutoff: number; rows_undated: number };
  benign: Tally & { false_positive_rate: number; listed: { url: string; feeds: string[] }[] };
}

/** Entries of a fixture the parser reads, for expected counts (the same parser as the import). */
const dated = (file: string, value: string) =>
  parseFeed('csv', readFileSync(file, 'utf8'), { csv: { value, date: 'first_seen' } }).entries;

function expectOk(result: CliResult): CliResult {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result;
}

const SUITE_TIMEOUT_MS = 120_000;

describe('eval --intel and --cutoff', { timeout: SUITE_TIMEOUT_MS }, () => {
  let dir = '';
  let env: Record<string, string> = {};
  let malicious = '';
  let benign = '';
  let intel: CliResult;
  let split: CliResult;
  let splitText: CliResult;
  let emptyStore: CliResult;
  let badCutoff: CliResult;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkguard-eval-intel-'));
    const db = join(dir, 'lg.db');
    await (await openStore({ kind: 'sqlite', path: db })).close();
    const emptyDb = join(dir, 'empty.db');
    await (await openStore({ kind: 'sqlite', path: emptyDb })).close();
    env = { DATABASE_URL: `sqlite:${db}`, RDAP_ENABLED: 'false' };
    malicious = join(dir, 'm.csv');
    benign = join(dir, 'b.csv');
    writeFileSync(
      malicious,
      `url,first_seen\n${MALICIOUS.map(([url, date]) => `${url},${date}`).join('\n')}\n`,
    );
    writeFileSync(benign, `url\n${BENIGN.join('\n')}\n`);

    const imports = await Promise.all([
      runCli(
        [
          'feeds',
          'import',
          SCAMSNIFFER,
          '--format',
          'csv',
          '--csv-value',
          'domain',
          '--csv-date',
          'first_seen',
          '--source',
          'scamsniffer',
        ],
        env,
      ),
      runCli(
        [
          'feeds',
          'import',
          OPENPHISH,
          '--format',
          'csv',
          '--csv-value',
          'url',
          '--csv-date',
          'first_seen',
          '--source',
          'openphish',
        ],
        env,
      ),
      runCli(
        ['feeds', 'import', POLKADOT, '--format', 'polkadot-json', '--source', 'polkadot'],
        env,
      ),
    ]);
    for (const result of imports) expect(result.code, result.stderr).toBe(0);

    const args = ['eval', '--malicious', malicious, '--benign', benign];
    [intel, split, splitText, emptyStore, badCutoff] = await Promise.all([
      runCli([...args, '--intel', '--json'], env),
      runCli([...args, '--cutoff', CUTOFF, '--json'], env),
      runCli(['eval', '--malicious', malicious, '--cutoff', CUTOFF], env),
      runCli([...args, '--intel'], { ...env, DATABASE_URL: `sqlite:${emptyDb}` }),
      runCli([...args, '--cutoff', '2024-13-01'], env),
    ]);
  }, SUITE_TIMEOUT_MS);

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('--intel: every listed row is a known threat, per feed, with the URL layer alongside', () => {
    const report = jsonOut(expectOk(intel)) as IntelReport;
    expect(report.intel.feeds.sort()).toEqual(['openphish', 'polkadot', 'scamsniffer']);
    expect(report.intel.cutoff).toBeNull();
    expect(report.intel.entries_after_cutoff).toBe(0);
    expect(report.malicious).toMatchObject({
      rows: MALICIOUS.length,
      invalid: 0,
      known_threat: MALICIOUS.length - 1,
      rows_before_cutoff: 0,
      rows_undated: 0,
      hits_by_feed: { scamsniffer: 5, openphish: 2, polkadot: 2 },
    });
    expect(report.malicious.danger).toBeGreaterThanOrEqual(MALICIOUS.length - 1);
    expect(report.malicious.url_layer.not_safe_rate).toBeLessThan(report.malicious.recall);
    // A listed tenant of pages.dev does not condemn the platform's other tenants.
    expect(report.benign).toMatchObject({ rows: BENIGN.length, known_threat: 0, listed: [] });
  });

  it('--cutoff: only entries first seen before it, only rows first seen on or after it', () => {
    const report = jsonOut(expectOk(split)) as IntelReport;
    const feeds = [
      dated(SCAMSNIFFER, 'domain'),
      dated(OPENPHISH, 'url'),
      parseFeed('polkadot-json', readFileSync(POLKADOT, 'utf8')).entries,
    ].flat();
    const deny = feeds.filter((e) => e.list === 'deny');
    expect(report.intel).toMatchObject({
      cutoff: CUTOFF,
      entries_after_cutoff: deny.filter((e) => e.firstSeen !== null && e.firstSeen >= CUTOFF_MS)
        .length,
      // The polkadot-js hosts and the ScamSniffer row with the impossible date 2024-13-45.
      entries_undated: deny.filter((e) => e.firstSeen === null).length,
    });
    expect(report.intel.entries_undated).toBeGreaterThan(0);
    expect(report.malicious).toMatchObject({
      rows: 6,
      rows_before_cutoff: 2,
      rows_undated: 1,
      // app.dogecoin20.buzz (parent listed in May) and whtasapp-us.com (listed in July) only.
      known_threat: 2,
      hits_by_feed: { scamsniffer: 1, openphish: 1 },
    });
    expect(report.malicious.known_threat_rate).toBeCloseTo(2 / 6);
    expect(report.benign.known_threat).toBe(0);
  });

  it('prints a table with the known-threat share and what was left out', () => {
    const out = expectOk(splitText).stdout;
    expect(out).toMatch(/known threat \(feed hit\)\s+33\.33 % \(/);
    expect(out).toContain(`first seen before ${CUTOFF}`);
    expect(out).toContain(`skipped: 2 first seen before ${CUTOFF}, 1 undated`);
    expect(out).toMatch(/URL layer alone/);
  });

  it('refuses an empty store and an impossible date with exit code 2', () => {
    expect(emptyStore.code).toBe(2);
    expect(emptyStore.stderr).toContain('no feeds');
    expect(badCutoff.code).toBe(2);
    expect(badCutoff.stderr).toContain('--cutoff 2024-13-01');
    expect(badCutoff.stdout).toBe('');
  });
});
