import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import {
  FEED_FORMATS,
  FeedFormatError,
  isFeedFormat,
  type ParsedFeed,
  parseFeed,
  type RawFeedEntry,
} from './parse-feed.js';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'feeds');
/** The development data beside the repository (absent in a plain checkout). */
const DEV_DATA = join(REPO_ROOT, '..', 'shared', 'data');

const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');

/** Entries per `list/kind`, e.g. `{ 'deny/host': 3 }`. */
function countByList(feed: ParsedFeed): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of feed.entries) {
    const key = `${entry.list}/${entry.kind}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** The one entry with this value; fails the test when there is none or more than one. */
function entryFor(feed: ParsedFeed, value: string): RawFeedEntry {
  const found = feed.entries.filter((entry) => entry.value === value);
  expect(found, `entries with value ${value}`).toHaveLength(1);
  const [entry] = found;
  if (entry === undefined) throw new Error(`no entry ${value}`);
  return entry;
}

const values = (feed: ParsedFeed): string[] => feed.entries.map((entry) => entry.value);

/** The FeedFormatError `parse` throws; fails the test when it throws nothing or something else. */
function formatError(parse: () => unknown): FeedFormatError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(FeedFormatError);
    return error as FeedFormatError;
  }
  throw new Error('expected a FeedFormatError, nothing was thrown');
}

describe('parseFeed: plain', () => {
  const feed = parseFeed('plain', fixture('plain-hosts.txt'));

  it('reads hosts, URLs and hosts-file lines, skipping comments', () => {
    expect(countByList(feed)).toEqual({ 'deny/host': 10, 'deny/url': 3 });
    expect(values(feed)).toEqual([
      '08us2w100ps.top',
      '08us2w109ps.top',
      '0p-1.com',
      '0pensea-gifts-013.vercel.app',
      '0www-roblox.com',
      'captcha-lookup.xyz',
      'http://captcha-lookup.xyz?path=verification',
      'http://disponible.temp.swtest.ru/c488a85df187773/login.php',
      'https://learn-trezor-suite-app.github.io/',
      '0x-11a.pages.dev',
      '0x1trade.com',
      'captcha-forta.org',
      'captcha-guild.click',
    ]);
    expect(feed.entries.every((e) => e.list === 'deny' && e.target === null)).toBe(true);
    expect(feed.entries.every((e) => e.firstSeen === null)).toBe(true);
  });

  it('merges a case / trailing-dot variant and a repeated hosts-file host', () => {
    entryFor(feed, 'captcha-lookup.xyz');
    entryFor(feed, '0p-1.com');
  });

  it('ignores the hosts-file preamble and skips junk with line numbers', () => {
    expect(values(feed)).not.toContain('localhost');
    expect(values(feed)).not.toContain('captcha-info.com');
    expect(feed.skipped).toBe(4);
    expect(feed.problems).toEqual([
      'line 14: not a host name or URL: "40%40%@zk-bridge.network"',
      'line 15: not a host name or URL: "clk.rtpdn*.com"',
      'line 16: not a host name or URL: "royaljapan02.*"',
      'line 25: hosts line maps to 192.0.2.7, not to 0.0.0.0 / 127.0.0.1',
    ]);
  });

  it('throws when not one line is readable', () => {
    const error = formatError(() => parseFeed('plain', '<html>\n<body>nope</body>\n'));
    expect(error.format).toBe('plain');
    expect(error.message).toContain('none of its 2 rows is readable');
  });
});

describe('parseFeed: csv', () => {
  const scamsniffer = parseFeed('csv', fixture('scamsniffer-domains-first-seen.csv'), {
    csv: { value: 'domain', date: 'first_seen' },
  });

  it('reads hosts with their dates; host:port is a URL', () => {
    expect(countByList(scamsniffer)).toEqual({ 'deny/host': 14, 'deny/url': 1 });
    expect(entryFor(scamsniffer, '0-chain.com')).toEqual({
      list: 'deny',
      kind: 'host',
      value: '0-chain.com',
      target: null,
      firstSeen: Date.UTC(2024, 9, 27),
    });
    expect(entryFor(scamsniffer, 'http://pqwnsa.top:448').firstSeen).toBe(Date.UTC(2025, 4, 13));
    expect(entryFor(scamsniffer, '2023.xn--aptslabs-6fd.net').kind).toBe('host');
  });

  it('de-duplicates trailing-dot variants keeping the earliest date', () => {
    expect(entryFor(scamsniffer, '3113161452.xyz').firstSeen).toBe(Date.UTC(2025, 8, 8));
    // The fixture lists absportal.xyz. (2025-04-24) before absportal.xyz (2025-04-18).
    expect(entryFor(scamsniffer, 'absportal.xyz').firstSeen).toBe(Date.UTC(2025, 3, 18));
  });

  it('skips broken rows, keeps a row with an impossible date without firstSeen', () => {
    expect(scamsniffer.skipped).toBe(3);
    expect(scamsniffer.problems).toEqual([
      'line 14: broken quoting: "\\"dogecoin20.cc,2024-04-01"',
      'line 15: 3 fields, the header has 2',
      'line 18: unreadable date "2024-13-45", kept without firstSeen',
      'line 19: empty value: ""',
    ]);
    expect(entryFor(scamsniffer, 'optimism-drop.com').firstSeen).toBeNull();
  });

  it('reads URL rows with ISO timestamps (OpenPhish archive)', () => {
    const feed = parseFeed('csv', fixture('openphish-urls-first-seen.csv'), {
      csv: { value: 'url', date: 'first_seen' },
    });
    expect(countByList(feed)).toEqual({ 'deny/url': 11 });
    expect(feed.skipped).toBe(0);
    expect(entryFor(feed, 'http://0.feixue317p.cloudns.biz/').firstSeen).toBe(
      Date.UTC(2024, 11, 3, 11, 44, 52, 120),
    );
  });

  it('reads date,domain rows with Unicode hosts (polkadot meta)', () => {
    const feed = parseFeed('csv', fixture('polkadot-meta-dated-additions.csv'), {
      csv: { value: 'domain', date: 'date' },
    });
    expect(countByList(feed)).toEqual({ 'deny/host': 9 });
    expect(entryFor(feed, 'trezoŕwallet.com').firstSeen).toBe(Date.UTC(2021, 4, 5));
    expect(entryFor(feed, 'xn--claim-lghter-yfb.xyz').firstSeen).toBe(Date.UTC(2025, 11, 31));
  });

  it('reads a target column', () => {
    const feed = parseFeed('csv', fixture('cryptoscamdb-urls-dev.csv'), {
      csv: { value: 'url', target: 'subcategory' },
    });
    expect(countByList(feed)).toEqual({ 'deny/url': 9 });
    expect(entryFor(feed, 'http://binancie.com/').target).toBe('Binance');
    expect(feed.problems).toEqual(['line 7: not a host name or URL: "mailto:nsdmilea@gmail.com"']);
  });

  it('ignores a byte-order mark and a final line without newline', () => {
    const feed = parseFeed('csv', '\uFEFFdomain,first_seen\r\nEvil.Example,2024-01-06', {
      csv: { value: 'DOMAIN', date: 'first_seen' },
    });
    expect(feed.entries).toEqual([
      { list: 'deny', kind: 'host', value: 'evil.example', target: null, firstSeen: 1704499200000 },
    ]);
  });

  it('throws on a missing column, and a TypeError without options.csv', () => {
    const error = formatError(() =>
      parseFeed('csv', fixture('scamsniffer-domains-first-seen.csv'), { csv: { value: 'url' } }),
    );
    expect(error.message).toContain('no column "url" in the header (columns: domain, first_seen)');
    expect(() => parseFeed('csv', 'domain\nx.example\n')).toThrow(TypeError);
  });
});

describe('parseFeed: phishtank-csv', () => {
  const feed = parseFeed('phishtank-csv', fixture('phishtank-verified-online.csv'));

  it('reads verified rows as deny URLs with submission time', () => {
    expect(countByList(feed)).toEqual({ 'deny/url': 15 });
    expect(entryFor(feed, 'https://estipulamiento-bancario-guatemala.webnode.es/')).toEqual({
      list: 'deny',
      kind: 'url',
      value: 'https://estipulamiento-bancario-guatemala.webnode.es/',
      target: null,
      firstSeen: Date.UTC(2022, 2, 29, 22, 37, 38),
    });
  });

  it('keeps named targets, maps "Other" to null', () => {
    expect(entryFor(feed, 'https://hamiltonodomco.com.ng/-').target).toBe('ABSA Bank');
    expect(
      entryFor(
        feed,
        'https://admin.paymetry.com/s96SlBb3/?key=%7Brandom_letternumberuplow_5%7D,email=%7Bemail%7D',
      ).target,
    ).toBe('Internal Revenue Service');
    expect(entryFor(feed, 'https://asunayuuki.xyz/').target).toBeNull();
  });

  it('un-escapes &amp;', () => {
    expect(
      entryFor(
        feed,
        'https://www.visa.co.jp.fdfhghdfh.xyz/cardinfo.php?ignin&openid.idec_handle=jpenid.net%2Fauth%2F2.0&&ref_=nav_em_hd_clc_signin',
      ).target,
    ).toBe('Visa');
    expect(values(feed).filter((value) => value.includes('&amp;'))).toEqual([]);
  });

  it('merges a URL submitted three times: earliest date, first named target', () => {
    const url = 'https://sign-in-verification-929bb.web.app/#email=info@domain.tld';
    expect(entryFor(feed, url)).toEqual(
      expect.objectContaining({ target: 'Microsoft', firstSeen: Date.UTC(2021, 8, 13, 5, 45, 30) }),
    );
    expect(entryFor(feed, 'https://clone-7473c.web.app/login').target).toBe('Amazon.com');
  });

  it('drops unverified rows without counting them, skips broken quoting', () => {
    expect(values(feed).some((value) => value.includes('pb-photo.ru'))).toBe(false);
    expect(feed.skipped).toBe(1);
    expect(feed.problems).toHaveLength(1);
    expect(feed.problems[0]).toMatch(/^line 10: broken quoting: "7473813,\\"http:\/\/kayarsucuk/);
  });

  it('throws without a url / verified header', () => {
    const error = formatError(() =>
      parseFeed('phishtank-csv', fixture('scamsniffer-domains-first-seen.csv')),
    );
    expect(error.message).toMatch(/^not a phishtank-csv feed .*no column "url"/);
  });
});

describe('parseFeed: phishtank-json', () => {
  const feed = parseFeed('phishtank-json', fixture('phishtank-verified-online.json'));

  it('reads the same entries as the CSV dump for the same rows', () => {
    expect(countByList(feed)).toEqual({ 'deny/url': 5 });
    const csv = parseFeed('phishtank-csv', fixture('phishtank-verified-online.csv'));
    for (const entry of feed.entries) expect(entryFor(csv, entry.value)).toEqual(entry);
    expect(entryFor(feed, 'http://twostepverification242400989696547.co.vu/confirmid.php')).toEqual(
      expect.objectContaining({ target: 'Facebook', firstSeen: Date.UTC(2022, 2, 29, 22, 5, 3) }),
    );
  });

  it('un-escapes &amp;, drops unverified, skips unreadable items', () => {
    entryFor(
      feed,
      'https://firebasestorage.googleapis.com/v0/b/okorocha-9d683.appspot.com/o/indexxevol.html?alt=media&token=f9ee1486-b8df-4f55-8b9c-466fcdcf99a9#@yorku.ca',
    );
    expect(values(feed).some((value) => value.includes('pb-photo.ru'))).toBe(false);
    expect(feed.skipped).toBe(2);
    expect(feed.problems).toEqual([
      'item 9: must have required properties url',
      'item 10: must be object',
    ]);
  });

  it('throws on a wrong-shape file', () => {
    expect(formatError(() => parseFeed('phishtank-json', '{"url": "x"}')).message).toContain(
      'top level is not an array',
    );
    expect(
      formatError(() => parseFeed('phishtank-json', fixture('scamsniffer-domains.json'))).message,
    ).toContain('none of its 18 rows is readable (first: item 1: must be object)');
    expect(formatError(() => parseFeed('phishtank-json', 'phish_id,url')).message).toContain(
      'not JSON',
    );
  });
});

describe('parseFeed: openphish', () => {
  it('reads one URL per line, merging repeats and skipping junk', () => {
    const feed = parseFeed('openphish', fixture('openphish-feed.txt'));
    expect(countByList(feed)).toEqual({ 'deny/url': 11 });
    expect(entryFor(feed, 'http://metasomask-walldset.gitbook.io/us').firstSeen).toBeNull();
    expect(feed.skipped).toBe(1);
    expect(feed.problems).toEqual(['line 9: not a URL or host name: "not a url at all"']);
  });

  it('adds http:// to a line without scheme', () => {
    expect(values(parseFeed('openphish', 'evil.example/login\n'))).toEqual([
      'http://evil.example/login',
    ]);
  });
});

describe('parseFeed: urlhaus-csv', () => {
  const feed = parseFeed('urlhaus-csv', fixture('urlhaus-csv-recent.csv'));

  it('reads the rows after the # banner with dateadded as firstSeen (UTC)', () => {
    expect(countByList(feed)).toEqual({ 'deny/url': 13 });
    expect(entryFor(feed, 'http://66.39.79.68/')).toEqual({
      list: 'deny',
      kind: 'url',
      value: 'http://66.39.79.68/',
      target: null,
      firstSeen: Date.UTC(2026, 3, 30),
    });
    expect(entryFor(feed, 'http://165.73.81.241:9808/').firstSeen).toBe(Date.UTC(2026, 3, 29));
  });

  it('skips broken rows with line numbers', () => {
    expect(feed.skipped).toBe(3);
    expect(feed.problems).toHaveLength(4);
    expect(feed.problems[0]).toBe('line 13: 6 fields, the header has 9');
    expect(feed.problems[1]).toMatch(/^line 16: broken quoting: /);
    expect(feed.problems.slice(2)).toEqual([
      'line 19: unreadable dateadded "29/04/2026", kept without firstSeen',
      'line 22: empty value: ""',
    ]);
    expect(entryFor(feed, 'http://18.176.47.246/').firstSeen).toBeNull();
  });

  it('finds the columns by name in the older layout without last_online', () => {
    const text = [
      '# abuse.ch URLhaus Database Dump (CSV - recent URLs only)',
      '#',
      '# id,dateadded,url,url_status,threat,tags,urlhaus_link,reporter',
      '"1","2019-11-27 10:11:12","http://evil.example/a.exe","online","malware_download","exe","",""',
    ].join('\n');
    expect(parseFeed('urlhaus-csv', text).entries).toEqual([
      {
        list: 'deny',
        kind: 'url',
        value: 'http://evil.example/a.exe',
        target: null,
        firstSeen: Date.UTC(2019, 10, 27, 10, 11, 12),
      },
    ]);
  });

  it('throws without the header comment', () => {
    const error = formatError(() =>
      parseFeed('urlhaus-csv', fixture('phishtank-verified-online.csv')),
    );
    expect(error.message).toContain('no "# id,dateadded,url,…" header comment');
  });
});

describe('parseFeed: polkadot-json', () => {
  const feed = parseFeed('polkadot-json', fixture('polkadot-all.json'));

  it('reads allow and deny hosts, lower-cased, wildcard and trailing dot removed', () => {
    expect(countByList(feed)).toEqual({ 'allow/host': 5, 'deny/host': 9 });
    expect(feed.entries.filter((e) => e.list === 'allow').map((e) => e.value)).toEqual([
      'fleek.co',
      'github.io',
      'on.fleek.co',
      'pages.dev',
      'vercel.app',
    ]);
    expect(entryFor(feed, 'alephzerofoundation.com').list).toBe('deny');
    entryFor(feed, 'aavè.com');
    entryFor(feed, '5ıre.com');
    entryFor(feed, '0x0-sushi.xyz');
    entryFor(feed, 'xn--aidrop-cib.com');
  });

  it('skips items that are not host strings', () => {
    expect(feed.skipped).toBe(3);
    expect(feed.problems).toEqual([
      'deny item 12: not a string: 42',
      'deny item 13: empty value: ""',
      'deny item 14: not a host name or URL: "bad host!.com"',
    ]);
  });

  it('throws on a wrong-shape file', () => {
    for (const text of ['[]', fixture('metamask-config.json'), '{"deny": "x"}', 'deny: []']) {
      const error = formatError(() => parseFeed('polkadot-json', text));
      expect(error.format).toBe('polkadot-json');
      expect(error.message).toMatch(
        /^not a polkadot-json feed \(polkadot-js\/phishing all\.json\): /,
      );
    }
  });
});

describe('parseFeed: metamask-json', () => {
  it('reads the legacy whitelist / blacklist spelling', () => {
    const feed = parseFeed('metamask-json', fixture('metamask-config-legacy.json'));
    expect(countByList(feed)).toEqual({ 'fuzzy/host': 2, 'allow/host': 3, 'deny/host': 6 });
    expect(feed.entries.filter((e) => e.list === 'fuzzy').map((e) => e.value)).toEqual([
      'metamask.io',
      'myetherwallet.com',
    ]);
    entryFor(feed, 'xn--myetherwallt-leb.com');
    expect(feed.skipped).toBe(1);
    expect(feed.problems).toEqual(['blacklist item 7: not a string: 7']);
  });

  it('reads the current allowlist / blocklist spelling', () => {
    const feed = parseFeed('metamask-json', fixture('metamask-config.json'));
    expect(countByList(feed)).toEqual({ 'fuzzy/host': 2, 'allow/host': 2, 'deny/host': 4 });
    expect(feed.entries.filter((e) => e.list === 'deny').map((e) => e.value)).toEqual([
      'metamaskgiveaway.xyz',
      'metamaskpro.io',
      'login-metamask.com',
      'metamaskwallet.io',
    ]);
    expect(feed.skipped).toBe(0);
  });

  it('throws on a wrong-shape file', () => {
    for (const text of [
      fixture('polkadot-all.json'),
      '{"version": 2, "tolerance": 2}',
      '{"blacklist": "evil.example"}',
      '["evil.example"]',
    ]) {
      expect(formatError(() => parseFeed('metamask-json', text)).format).toBe('metamask-json');
    }
  });
});

describe('parseFeed: scamsniffer-json', () => {
  it('reads the array of hosts, merging trailing-dot variants', () => {
    const feed = parseFeed('scamsniffer-json', fixture('scamsniffer-domains.json'));
    expect(countByList(feed)).toEqual({ 'deny/host': 13 });
    entryFor(feed, '3113161452.xyz');
    entryFor(feed, 'absportal.xyz');
    expect(feed.skipped).toBe(3);
    expect(feed.problems).toEqual([
      'item 11: not a string: null',
      'item 12: empty value: ""',
      'item 13: not a host name or URL: "has space.example"',
    ]);
  });

  it('throws on a wrong-shape file', () => {
    expect(
      formatError(() => parseFeed('scamsniffer-json', fixture('polkadot-all.json'))).message,
    ).toContain('top level is not an array of host names');
    expect(formatError(() => parseFeed('scamsniffer-json', 'a.example\n')).message).toContain(
      'not JSON',
    );
  });
});

describe('parseFeed: cryptoscamdb-yaml', () => {
  const feed = parseFeed('cryptoscamdb-yaml', fixture('cryptoscamdb-urls.yaml'));

  it('reads url (or name) with subcategory as target', () => {
    expect(countByList(feed)).toEqual({ 'deny/url': 9 });
    expect(entryFor(feed, 'http://xn--myetherwallt-leb.com')).toEqual({
      list: 'deny',
      kind: 'url',
      value: 'http://xn--myetherwallt-leb.com',
      target: 'MyEtherWallet',
      firstSeen: null,
    });
    expect(entryFor(feed, 'http://ether_promo.kissr.com').target).toBe('Trust-Trading');
  });

  it('gives the same entries as the CSV of the same rows', () => {
    const csv = parseFeed('csv', fixture('cryptoscamdb-urls-dev.csv'), {
      csv: { value: 'url', target: 'subcategory' },
    });
    expect(feed.entries).toEqual(csv.entries);
  });

  it('skips unreadable items with line numbers', () => {
    expect(feed.skipped).toBe(3);
    expect(feed.problems).toEqual([
      'line 33: no name and no URL',
      'line 36: list item is not a mapping',
      'line 37: not a host name or URL: "mailto:nsdmilea@gmail.com"',
    ]);
  });

  it('uses name when url is missing or not a URL', () => {
    const text = [
      '- name: Evil.Example.',
      '  subcategory: MetaMask',
      '  addresses:',
      '    ETH:',
      '    - "0x0000000000000000000000000000000000000000"',
      '- name: a.example/x',
      '  url: ""',
    ].join('\n');
    expect(parseFeed('cryptoscamdb-yaml', text).entries).toEqual([
      { list: 'deny', kind: 'host', value: 'evil.example', target: 'MetaMask', firstSeen: null },
      { list: 'deny', kind: 'url', value: 'http://a.example/x', target: null, firstSeen: null },
    ]);
  });

  it('never resolves tags or aliases', () => {
    const text = [
      '- name: !!js/function "function () { return 1 }"',
      '- name: &host evil.example',
      '  url: *host',
      '  subcategory: !!int 12',
    ].join('\n');
    const result = parseFeed('cryptoscamdb-yaml', text);
    expect(result.entries).toEqual([
      { list: 'deny', kind: 'host', value: 'evil.example', target: '12', firstSeen: null },
    ]);
    expect(result.problems).toEqual(['line 1: not a host name or URL: "function () { return 1 }"']);
  });

  it('throws on JSON, on a mapping at the top, and on broken YAML', () => {
    expect(
      formatError(() => parseFeed('cryptoscamdb-yaml', fixture('polkadot-all.json'))).message,
    ).toContain('looks like JSON');
    expect(formatError(() => parseFeed('cryptoscamdb-yaml', 'name: x\n')).message).toContain(
      'top level is not a YAML list',
    );
    expect(
      formatError(() => parseFeed('cryptoscamdb-yaml', '- name: [unclosed\n')).message,
    ).toMatch(/not valid YAML: .* at line 2, column 1$/);
  });
});

describe('parseFeed: every format', () => {
  it('lists ten formats and recognises their names', () => {
    expect(FEED_FORMATS).toHaveLength(10);
    expect(FEED_FORMATS.every(isFeedFormat)).toBe(true);
    expect(isFeedFormat('hosts')).toBe(false);
    expect(() => parseFeed('hosts' as never, '')).toThrow(TypeError);
  });

  it('gives an empty feed for an empty text format file', () => {
    const empty: ParsedFeed = {
      entries: [],
      rows: 0,
      skipped: 0,
      dropped: 0,
      duplicates: 0,
      problems: [],
    };
    expect(parseFeed('plain', '')).toEqual(empty);
    expect(parseFeed('openphish', '\n\n')).toEqual(empty);
    expect(parseFeed('csv', '', { csv: { value: 'url' } })).toEqual(empty);
    expect(parseFeed('phishtank-csv', '')).toEqual(empty);
    expect(parseFeed('urlhaus-csv', '# nothing yet\n')).toEqual(empty);
    expect(parseFeed('cryptoscamdb-yaml', '---\n')).toEqual(empty);
    expect(parseFeed('scamsniffer-json', '[]')).toEqual(empty);
  });

  it('keeps at most 20 problem messages but counts every skipped row', () => {
    const bad = Array.from({ length: 25 }, (_, i) => `bad host ${i}`);
    const text = `${bad.join('\n')}\nok.example\n`;
    const feed = parseFeed('plain', text);
    expect(feed.skipped).toBe(25);
    expect(feed.problems).toHaveLength(20);
    expect(feed.problems[19]).toBe('line 20: not a host name or URL: "bad host 19"');
    expect(values(feed)).toEqual(['ok.example']);
  });
});

describe('parseFeed: full development files (../shared/data)', () => {
  const read = (path: string): string => readFileSync(join(DEV_DATA, path), 'utf8');
  const dataRows = (text: string): number => text.split('\n').filter((l) => l !== '').length - 1;

  it.skipIf(!existsSync(DEV_DATA))('parses ScamSniffer (340k rows), polkadot, PhishTank', () => {
    const scamsnifferText = read(
      'scamsniffer-scam-database/domains_first_seen_2022-05_to_2025-12.csv',
    );
    const polkadotText = read('polkadot-js-phishing/all.json');
    const phishtankText = read('phishtank-2022-03/verified_online.csv');

    // Guards a pathological regression (e.g. quadratic de-duplication); not a benchmark, ~1 s is
    // normal. The one timed assertion of the suite, kept generous on purpose.
    const started = performance.now();
    const scamsniffer = parseFeed('csv', scamsnifferText, {
      csv: { value: 'domain', date: 'first_seen' },
    });
    const polkadot = parseFeed('polkadot-json', polkadotText);
    const phishtank = parseFeed('phishtank-csv', phishtankText);
    expect(performance.now() - started).toBeLessThan(10_000);

    const scamsnifferRows = dataRows(scamsnifferText);
    expect(scamsnifferRows).toBe(339_928);
    expect(scamsniffer.entries.length).toBeGreaterThan(0.9 * scamsnifferRows);
    expect(scamsniffer.entries.every((e) => e.firstSeen !== null)).toBe(true);

    const polkadotJson = JSON.parse(polkadotText) as { allow: string[]; deny: string[] };
    const polkadotDeny = polkadot.entries.filter((e) => e.list === 'deny').length;
    expect(polkadotDeny).toBeGreaterThan(0.9 * polkadotJson.deny.length);
    expect(polkadot.entries.filter((e) => e.list === 'allow')).toHaveLength(
      polkadotJson.allow.length,
    );

    const phishtankRows = dataRows(phishtankText);
    expect(phishtank.entries.length).toBeGreaterThan(0.9 * phishtankRows);
    expect(phishtank.entries.some((e) => e.target === 'Internal Revenue Service')).toBe(true);
  });
});
