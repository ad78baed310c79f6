/**
 * `linkguard feeds catalog` and `feeds add` as child processes on one temp SQLite file, the way an
 * operator uses them: read the catalog, be refused a feed whose terms were not accepted, register
 * the free ones in one command and keyed ones with their terms accepted, and see them in `feeds
 * list` with their catalog URL (never a key). Nothing is downloaded here: `serve` does that
 * (test/intel/feed-catalog.test.ts downloads every catalog format from a loopback copy).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CliResult, jsonLines, PACKAGE_ROOT, runCli } from '../helpers/run-cli.js';

interface CatalogLine {
  name: string;
  url: string;
  format: string;
  all_free: boolean;
  commercial_use: string;
  key: { env: string } | null;
  terms_url: string;
}

interface AddedLine {
  name: string;
  format: string;
  url: string;
  entries: number;
  key_env: string | null;
  key_set: boolean | null;
}

interface ListLine {
  name: string;
  url: string | null;
  entries: number;
}

const PHISHTANK_KEY = 'cli-test-app-key-0001';

describe('feeds catalog and feeds add', { timeout: 120_000 }, () => {
  let dir: string;
  let env: Record<string, string>;
  let catalog: CliResult;
  let catalogText: CliResult;
  let noName: CliResult;
  let unknown: CliResult;
  let refused: CliResult;
  let both: CliResult;
  let allFree: CliResult;
  let keyed: CliResult;
  let unkeyed: CliResult;
  let listed: CliResult;
  let imported: CliResult;
  let relisted: CliResult;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkguard-cli-catalog-'));
    env = { DATABASE_URL: `sqlite:${join(dir, 'feeds.db')}`, RDAP_ENABLED: 'false' };
    delete process.env.URLHAUS_AUTH_KEY;
    delete process.env.PHISHTANK_APP_KEY;
    [catalog, catalogText, noName, unknown, refused, both] = await Promise.all([
      runCli(['feeds', 'catalog', '--json'], env),
      runCli(['feeds', 'catalog'], env),
      runCli(['feeds', 'add'], env),
      runCli(['feeds', 'add', 'polkadot', 'no-such-feed'], env),
      runCli(['feeds', 'add', 'polkadot', 'openphish'], env),
      runCli(['feeds', 'add', 'polkadot', '--all-free'], env),
    ]);
    // Writes one after the other: each registers in the same store.
    allFree = await runCli(['feeds', 'add', '--all-free', '--json'], env);
    keyed = await runCli(['feeds', 'add', 'phishtank', '--accept-terms', '--json'], {
      ...env,
      PHISHTANK_APP_KEY: PHISHTANK_KEY,
    });
    unkeyed = await runCli(['feeds', 'add', 'urlhaus', 'openphish', '--accept-terms'], env);
    listed = await runCli(['feeds', 'list', '--json'], env);
    // A file imported under a registered name replaces it: a file feed is not refreshed.
    imported = await runCli(
      [
        'feeds',
        'import',
        join(PACKAGE_ROOT, 'test', 'fixtures', 'feeds', 'polkadot-all.json'),
        '--format',
        'polkadot-json',
        '--source',
        'polkadot',
      ],
      env,
    );
    relisted = await runCli(['feeds', 'list', '--json'], env);
  }, 120_000);

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('feeds catalog --json prints every entry with its format, terms and key variable', () => {
    expect(catalog.code).toBe(0);
    const lines = jsonLines(catalog) as CatalogLine[];
    expect(lines.map((l) => l.name)).toEqual([
      'polkadot',
      'metamask',
      'scamsniffer',
      'openphish',
      'phishtank',
      'urlhaus',
      'discord-antiscam',
      'cryptoscamdb',
    ]);
    for (const line of lines) expect(line.terms_url).toMatch(/^https:\/\//);
  });

  it('feeds catalog prints a table and the terms, each line within 80 columns in the table', () => {
    expect(catalogText.code).toBe(0);
    const [table] = catalogText.stdout.split('\n\n');
    for (const line of (table ?? '').split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(catalogText.stdout).toContain(
      'openphish: OpenPhish Terms of Use; commercial use forbidden',
    );
  });

  it('refuses, exit 2, no name, an unknown name, names with --all-free, unaccepted terms', () => {
    for (const run of [noName, unknown, refused, both]) {
      expect(run.code).toBe(2);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    expect(unknown.stderr).toContain('no catalog feed named no-such-feed');
    expect(refused.stderr).toContain('--accept-terms');
    expect(refused.stderr).toContain('https://openphish.com/faq.html');
    expect(both.stderr).toContain('not both');
  });

  it('--all-free registers the permissive keyless feeds with their catalog URLs, no entries yet', () => {
    expect(allFree.code).toBe(0);
    const lines = jsonLines(allFree) as AddedLine[];
    const entries = jsonLines(catalog) as CatalogLine[];
    expect(lines.map((l) => l.name)).toEqual(entries.filter((e) => e.all_free).map((e) => e.name));
    for (const line of lines) {
      const entry = entries.find((e) => e.name === line.name);
      expect(line).toMatchObject({ url: entry?.url, format: entry?.format, entries: 0 });
      expect(line.key_env).toBeNull();
    }
  });

  it('a keyed feed: registered with its {key} URL; says the key is set, never what it is', () => {
    expect(keyed.code).toBe(0);
    const [line] = jsonLines(keyed) as AddedLine[];
    expect(line).toMatchObject({
      name: 'phishtank',
      key_env: 'PHISHTANK_APP_KEY',
      key_set: true,
      url: expect.stringContaining('{key}') as string,
    });
    expect(keyed.stdout + keyed.stderr).not.toContain(PHISHTANK_KEY);

    expect(unkeyed.code).toBe(0);
    expect(unkeyed.stdout).toContain('Registered urlhaus');
    expect(unkeyed.stdout).toContain('needs URLHAUS_AUTH_KEY in the environment of serve');
    expect(unkeyed.stdout).toContain('Registered openphish');
  });

  it('feeds list shows the registered feeds; a file import under the name unregisters it', () => {
    const before = jsonLines(listed) as ListLine[];
    expect(before.map((l) => l.name).sort()).toEqual(
      ['metamask', 'openphish', 'phishtank', 'polkadot', 'scamsniffer', 'urlhaus'].sort(),
    );
    expect(JSON.stringify(before)).not.toContain(PHISHTANK_KEY);

    expect(imported.code).toBe(0);
    const after = jsonLines(relisted) as ListLine[];
    expect(after.find((l) => l.name === 'polkadot')).toMatchObject({ url: null, entries: 14 });
    expect(after.find((l) => l.name === 'metamask')?.url).toMatch(/^https:\/\//);
  });
});
