/**
 * `linkguard feeds import|list|status|remove`, `check --offline` and `history` as child processes
 * on one temp SQLite file, the way an operator uses them: import every feed format of
 * test/fixtures/feeds, see the feeds and the index they make, judge URLs against them, and read
 * the history `check` left. Each process costs about two seconds of CPU, so `beforeAll` runs them
 * once, a few at a time, in three batches (imports and bad imports; check and removals; listings
 * and history), and the tests read the results. RDAP is off and `check` is offline: nothing leaves
 * the machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { type CliResult, jsonLines, jsonOut, PACKAGE_ROOT, runCli } from '../helpers/run-cli.js';

const FIXTURES = join(PACKAGE_ROOT, 'test', 'fixtures', 'feeds');
const fixture = (name: string) => join(FIXTURES, name);

/** What `feeds import --json` and `feeds list --json` print for a feed. */
interface FeedView {
  name: string;
  format: string;
  url: string | null;
  threat: string | null;
  entries: number;
  imported_at: string | null;
  checked_at: string | null;
  last_error: string | null;
  skipped?: number;
}

interface IndexStats {
  hostDeny: number;
  hostAllow: number;
  prefixDeny: number;
  prefixAllow: number;
  fuzzy: number;
  invalid: number;
  platformHosts: number;
  protectedHosts: number;
}

interface CheckLine {
  url: string;
  verdict: 'safe' | 'caution' | 'danger';
  reason: string;
  threat_types: string[];
  signals: { known_threat: boolean };
  details: { matched_patterns: string[] };
}

interface DomainHistoryView {
  domain: string;
  history: {
    domain: string;
    firstSeen: number;
    lastSeen: number;
    count: number;
    worstVerdict: 'caution' | 'danger';
    threatTypes: string[];
    sources: string[];
  } | null;
}

/**
 * One import per format, with the counts the fixture gives (test/fixtures/feeds/SOURCES.md names
 * the merged duplicates and the deliberately broken rows; src/intel/feeds/parse-feed.test.ts
 * checks them row by row). `json` imports print the feed record, the others a sentence.
 */
const IMPORTS = [
  {
    name: 'phishtank',
    args: ['phishtank-verified-online.csv', '--format', 'phishtank-csv', '--source', 'phishtank'],
    json: false,
    entries: 15,
    skipped: 1,
    format: 'phishtank-csv',
    threat: 'credential_phishing',
  },
  {
    name: 'polkadot',
    args: ['polkadot-all.json', '--format', 'polkadot-json', '--source', 'polkadot'],
    json: true,
    entries: 14,
    skipped: 3,
    format: 'polkadot-json',
    threat: 'crypto_scam',
  },
  {
    name: 'metamask',
    args: ['metamask-config.json', '--format', 'metamask-json', '--source', 'metamask'],
    json: true,
    entries: 8,
    skipped: 0,
    format: 'metamask-json',
    threat: 'crypto_scam',
  },
  {
    // No --source: the feed is named after the file.
    name: 'scamsniffer-domains',
    args: ['scamsniffer-domains.json', '--format', 'scamsniffer-json'],
    json: true,
    entries: 13,
    skipped: 3,
    format: 'scamsniffer-json',
    threat: 'crypto_scam',
  },
  {
    // URLhaus implies no threat type by default; the operator names one.
    name: 'urlhaus',
    args: [
      'urlhaus-csv-recent.csv',
      '--format',
      'urlhaus-csv',
      '--source',
      'urlhaus',
      '--threat',
      'fake_captcha',
    ],
    json: true,
    entries: 13,
    skipped: 3,
    format: 'urlhaus-csv',
    threat: 'fake_captcha',
  },
  {
    name: 'openphish',
    args: ['openphish-feed.txt', '--format', 'openphish', '--source', 'openphish'],
    json: false,
    entries: 11,
    skipped: 1,
    format: 'openphish',
    threat: 'credential_phishing',
  },
  {
    name: 'cryptoscamdb',
    args: ['cryptoscamdb-urls.yaml', '--format', 'cryptoscamdb-yaml', '--source', 'cryptoscamdb'],
    json: true,
    entries: 9,
    skipped: 3,
    format: 'cryptoscamdb-yaml',
    threat: 'crypto_scam',
  },
  {
    name: 'discord',
    args: ['plain-hosts.txt', '--format', 'plain', '--source', 'discord'],
    json: false,
    entries: 13,
    skipped: 4,
    format: 'plain',
    threat: null,
  },
  {
    name: 'scamsniffer-dated',
    args: [
      'scamsniffer-domains-first-seen.csv',
      '--format',
      'csv',
      '--csv-value',
      'domain',
      '--csv-date',
      'first_seen',
      '--source',
      'scamsniffer-dated',
    ],
    json: true,
    entries: 15,
    skipped: 3,
    format: 'csv',
    threat: null,
  },
] as const;

/** CLI processes at once (each is CPU-bound for about two seconds). */
const CONCURRENCY = 4;

/** The feed removed in the second batch (no checked URL depends on it). */
const REMOVED = 'openphish';

/** URLs judged by one `check --offline --json`, in this order. */
const CHECKED = {
  /** polkadot deny host, with a lure path. */
  polkadotDeny: 'https://0xarb.xyz/claim',
  /** In both ScamSniffer feeds (the CSV one dated 2025-04-18). */
  scamsnifferDeny: 'https://absportal.xyz/',
  /**
   * polkadot allow entry `*.fleek.co`: an allow entry vouches for the host it names, never for
   * tenants below it (decision 37), so the apex is allowed and `app.fleek.co` is not.
   */
  polkadotAllow: 'https://fleek.co/',
  /** In no feed. */
  unrelated: 'https://example.org/',
};

interface Results {
  imports: CliResult[];
  unreadable: CliResult;
  wrongFormat: CliResult;
  csvWithoutColumn: CliResult;
  check: CliResult;
  removed: CliResult;
  removeUnknown: CliResult;
  list: CliResult;
  status: CliResult;
  history: CliResult;
  noHistory: CliResult;
}

let dir = '';
let results: Results;

/**
 * Run `tasks` at most `limit` at a time, results in order. The processes are CPU-bound: more at
 * once only makes each one slower (and closer to run-cli's 30 s limit on a busy machine).
 */
async function limited<T>(limit: number, tasks: readonly (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < tasks.length; i = next++) {
      const task = tasks[i];
      if (task !== undefined) out[i] = await task();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return out;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'linkguard-feeds-cli-'));
  const path = join(dir, 'lg.db');
  // Migrate first so that the concurrent processes only read the schema.
  await openSqliteStore(path).close();
  const env = { DATABASE_URL: `sqlite:${path}`, RDAP_ENABLED: 'false' };
  const cli = (...args: string[]) => runCli(args, env);
  const importArgs = (file: string, ...rest: string[]) => [
    'feeds',
    'import',
    fixture(file),
    ...rest,
  ];

  const [unreadable, wrongFormat, csvWithoutColumn, ...imports] = await limited(CONCURRENCY, [
    () => cli(...importArgs('no-such-feed.txt', '--format', 'plain', '--source', 'missing')),
    // A PhishTank CSV announced as polkadot-js JSON.
    () =>
      cli(
        ...importArgs(
          'phishtank-verified-online.csv',
          '--format',
          'polkadot-json',
          '--source',
          'mislabelled',
        ),
      ),
    () =>
      cli(
        ...importArgs(
          'scamsniffer-domains-first-seen.csv',
          '--format',
          'csv',
          '--source',
          'nocolumn',
        ),
      ),
    ...IMPORTS.map((i) => () => {
      const [file, ...rest] = i.args;
      return cli(...importArgs(file, ...rest), ...(i.json ? ['--json'] : []));
    }),
  ]);
  if (unreadable === undefined || wrongFormat === undefined || csvWithoutColumn === undefined) {
    throw new Error('an import did not run');
  }
  const [check, removed, removeUnknown] = await Promise.all([
    cli('check', '--offline', '--json', ...Object.values(CHECKED)),
    cli('feeds', 'remove', REMOVED),
    cli('feeds', 'remove', 'never-imported'),
  ]);
  // `check` wrote its history when it closed the store.
  const [list, status, history, noHistory] = await Promise.all([
    cli('feeds', 'list', '--json'),
    cli('feeds', 'status', '--json'),
    cli('history', '0xarb.xyz', '--json'),
    cli('history', 'never-judged-here.org'),
  ]);
  results = {
    imports,
    unreadable,
    wrongFormat,
    csvWithoutColumn,
    check,
    removed,
    removeUnknown,
    list,
    status,
    history,
    noHistory,
  };
}, 120_000);

afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

function expectOk(result: CliResult): CliResult {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result;
}

function checked(url: string): CheckLine {
  // Feed hits are `danger`: `check` exits 5 (src/cli/exit-codes.ts).
  expect(results.check.stderr).toBe('');
  expect(results.check.code).toBe(5);
  const line = (jsonLines(results.check) as CheckLine[]).find((l) => l.url === url);
  if (line === undefined) throw new Error(`check printed no line for ${url}`);
  return line;
}

describe('feeds import', () => {
  it.each(IMPORTS.map((spec, index) => ({ ...spec, index })))(
    'imports the $format fixture as feed $name and prints its counts',
    (spec) => {
      const result = results.imports[spec.index];
      if (result === undefined) throw new Error(`no result for import ${spec.name}`);
      expectOk(result);
      if (!spec.json) {
        const [stored, used] = result.stdout.split('\n');
        expect(stored).toMatch(
          new RegExp(`^Imported feed ${spec.name}: \\d+ rows read, ${spec.entries} entries stored`),
        );
        if (spec.skipped > 0) expect(stored).toContain(`; ${spec.skipped} unreadable rows skipped`);
        else expect(stored).not.toContain('unreadable');
        expect(used).toMatch(new RegExp(`^Used by the index: \\d+ of ${spec.entries}[.;]`));
        return;
      }
      const view = jsonOut(result) as FeedView;
      expect(view).toEqual({
        name: spec.name,
        format: spec.format,
        url: null,
        threat: spec.threat,
        entries: spec.entries,
        skipped: spec.skipped,
        rows: expect.any(Number) as number,
        dropped: expect.any(Number) as number,
        duplicates: expect.any(Number) as number,
        indexed: expect.any(Number) as number,
        not_indexed: expect.any(Object) as object,
        imported_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as string,
        checked_at: view.imported_at,
        last_error: null,
      });
    },
  );

  it('refuses an unreadable file with exit 2 and a message naming it', () => {
    const { code, stdout, stderr } = results.unreadable;
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('cannot read');
    expect(stderr).toContain('no-such-feed.txt');
  });

  it('refuses content that is not the named format with exit 2, importing nothing', () => {
    const { code, stdout, stderr } = results.wrongFormat;
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/not a polkadot-json feed/);
    const names = (jsonLines(results.list) as FeedView[]).map((f) => f.name);
    expect(names).not.toContain('mislabelled');
  });

  it('refuses --format csv without --csv-value with exit 2, importing nothing', () => {
    const { code, stdout, stderr } = results.csvWithoutColumn;
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('--csv-value');
    const names = (jsonLines(results.list) as FeedView[]).map((f) => f.name);
    expect(names).not.toContain('nocolumn');
  });
});

describe('feeds list, status and remove', () => {
  it('remove deletes a feed (exit 0); an unknown name exits 1', () => {
    expect(expectOk(results.removed).stdout).toContain(REMOVED);
    expect(results.removeUnknown.code).toBe(1);
    expect(results.removeUnknown.stderr).toContain('never-imported');
  });

  it('list --json prints one line per remaining feed, by name, with its entry count', () => {
    const lines = jsonLines(expectOk(results.list)) as FeedView[];
    const expected = IMPORTS.filter((i) => i.name !== REMOVED)
      .map((i) => ({ name: i.name, format: i.format, threat: i.threat, entries: i.entries }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    expect(
      lines.map(({ name, format, threat, entries }) => ({ name, format, threat, entries })),
    ).toEqual(expected);
    for (const line of lines) {
      expect(line).toMatchObject({ url: null, last_error: null });
      expect(line.imported_at).not.toBeNull();
    }
  });

  it('status --json shows the feeds and what the index made of them', () => {
    const { feeds, index } = jsonOut(expectOk(results.status)) as {
      feeds: FeedView[];
      index: IndexStats;
    };
    expect(feeds.map((f) => f.name)).toEqual(
      (jsonLines(results.list) as FeedView[]).map((f) => f.name),
    );
    // Deny hosts from every host list; URL prefixes from PhishTank URLs on shared hosts; allow
    // entries from polkadot and MetaMask; MetaMask's fuzzy list is not indexed.
    expect(index.hostDeny).toBeGreaterThan(0);
    expect(index.prefixDeny).toBeGreaterThan(0);
    expect(index.hostAllow).toBeGreaterThan(0);
    expect(index.fuzzy).toBe(2);
  });
});

describe('check --offline against the imported feeds', () => {
  it('judges a host of a deny list danger, naming the feed', () => {
    const line = checked(CHECKED.polkadotDeny);
    expect(line.verdict).toBe('danger');
    expect(line.signals.known_threat).toBe(true);
    expect(line.details.matched_patterns).toContain('intel:polkadot');
    expect(line.reason).toContain('polkadot');
    expect(line.threat_types).toContain('crypto_scam');
  });

  it('names every feed that lists a host', () => {
    const line = checked(CHECKED.scamsnifferDeny);
    expect(line.verdict).toBe('danger');
    expect(line.signals.known_threat).toBe(true);
    expect(line.details.matched_patterns).toEqual(
      expect.arrayContaining(['intel:scamsniffer-domains', 'intel:scamsniffer-dated']),
    );
    expect(line.reason).toContain('scamsniffer-domains');
    // The first-seen date comes from the CSV feed's --csv-date column (earliest of its two rows).
    expect(line.reason).toContain('since 2025-04-18');
  });

  it('judges a host of an allow list safe, naming the list', () => {
    const line = checked(CHECKED.polkadotAllow);
    expect(line.verdict).toBe('safe');
    expect(line.signals.known_threat).toBe(false);
    expect(line.details.matched_patterns).toContain('allowlist:polkadot');
  });

  it('finds nothing for a URL in no feed', () => {
    const line = checked(CHECKED.unrelated);
    expect(line.signals.known_threat).toBe(false);
    expect(line.details.matched_patterns.filter((p) => p.startsWith('intel:'))).toEqual([]);
  });

  it('lists each threat type once', () => {
    for (const url of Object.values(CHECKED)) {
      const types = checked(url).threat_types;
      expect(types, url).toEqual([...new Set(types)]);
    }
  });
});

describe('history', () => {
  it('shows the record check left for a dangerous domain', () => {
    const view = jsonOut(expectOk(results.history)) as DomainHistoryView;
    expect(view.domain).toBe('0xarb.xyz');
    expect(view.history).toMatchObject({ domain: '0xarb.xyz', worstVerdict: 'danger' });
    expect(view.history?.count).toBeGreaterThanOrEqual(1);
    expect(view.history?.sources).toContain('polkadot');
    expect(view.history?.threatTypes).toContain('crypto_scam');
  });

  it('says there is no record for an unknown domain, and that this does not mean safe', () => {
    const { stdout } = expectOk(results.noHistory);
    expect(stdout).toContain('No record for never-judged-here.org');
    expect(stdout).toMatch(/does not mean it is safe/);
  });
});
