/**
 * `linkguard feeds import` as a child process: the report says how many rows were read, how many
 * entries were stored, what was merged or skipped, and what the threat index uses of the stored
 * entries and what it leaves out and why (a count never claims entries that do nothing).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CliResult, jsonOut, runCli } from '../helpers/run-cli.js';

function expectOk(result: CliResult): CliResult {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result;
}

describe('feeds import says what it stored and what the index uses', () => {
  // Two processes on their own store; the fixture-based imports above cover the formats.
  let plain: CliResult;
  let json: CliResult;
  let own = '';

  beforeAll(async () => {
    own = mkdtempSync(join(tmpdir(), 'linkguard-feeds-report-'));
    const feed = join(own, 'mixed.txt');
    writeFileSync(
      feed,
      [
        'evil-drainer.xyz',
        'evil-drainer.xyz', // the same host again: merged
        'https://paypal.com/some/phish', // a page on a protected domain: a URL prefix, used
        'wallet-claim.top',
        'pages.dev', // a hosting platform: judged per tenant, never whole
        'paypal.com', // a brand's own domain: never condemned whole
        '10.0.0.1', // a private address: not a URL linkguard judges
        'printer.local', // a special-use name: likewise
        'not a host!', // unreadable
      ].join('\n'),
    );
    const env = { DATABASE_URL: `sqlite:${join(own, 'lg.db')}`, RDAP_ENABLED: 'false' };
    const args = ['feeds', 'import', feed, '--format', 'plain'];
    plain = await runCli([...args, '--source', 'mixed'], env);
    json = await runCli([...args, '--source', 'mixed-json', '--json'], env);
  }, 120_000);

  afterAll(() => {
    if (own !== '') rmSync(own, { recursive: true, force: true });
  });

  it('counts rows read, entries stored, duplicates and unreadable rows', () => {
    const [stored, used] = expectOk(plain).stdout.split('\n');
    expect(stored).toBe(
      'Imported feed mixed: 9 rows read, 7 entries stored; 1 duplicates merged; ' +
        '1 unreadable rows skipped.',
    );
    expect(used).toBe(
      'Used by the index: 3 of 7; not used: ' +
        '1 hosting-platform names (judged per tenant, never whole), ' +
        '1 official or popular domains (never condemned whole), ' +
        '2 not URLs linkguard judges (private addresses, special-use names, …).',
    );
  });

  it('--json carries the same counts', () => {
    expect(jsonOut(expectOk(json))).toMatchObject({
      name: 'mixed-json',
      rows: 9,
      entries: 7,
      skipped: 1,
      dropped: 0,
      duplicates: 1,
      indexed: 3,
      not_indexed: { hosting_platform: 1, protected_domain: 1, fuzzy: 0, invalid: 2 },
    });
  });
});
