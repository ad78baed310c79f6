/**
 * The threat index with the real engine data: host entries up to the site boundary, URL-prefix
 * entries on shared hosts, platform apexes and protected domains never condemned as a whole,
 * allow entries winning, feed targets resolved to catalog brands.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import type { Engine } from '../engine/create-engine.js';
import { normalizeUrl, type ParsedUrl } from '../engine/url/normalize-url.js';
import { defaultEngine } from '../engine-data/load-engine-data.js';
import type { StoredFeedEntry } from '../store/ports/intel-store.js';
import { type IndexedFeed, type ThreatIndex, ThreatIndexBuilder } from './threat-index.js';

const PHISH: IndexedFeed = { id: 1, name: 'phish', threat: 'credential_phishing' };
const WEB3: IndexedFeed = { id: 2, name: 'web3', threat: 'crypto_scam' };
const ALLOW: IndexedFeed = { id: 3, name: 'allowlist', threat: null };

let engine: Engine;
beforeAll(() => {
  engine = defaultEngine();
});

function entry(
  value: string,
  options: Partial<Omit<StoredFeedEntry, 'value'>> = {},
): StoredFeedEntry {
  return {
    list: options.list ?? 'deny',
    kind: options.kind ?? (value.includes('://') ? 'url' : 'host'),
    value,
    target: options.target ?? null,
    firstSeen: options.firstSeen ?? null,
  };
}

function build(entries: [IndexedFeed, StoredFeedEntry][]): ThreatIndex {
  const builder = new ThreatIndexBuilder(engine, [PHISH, WEB3, ALLOW]);
  for (const [feed, e] of entries) builder.add(feed.id, e);
  return builder.build();
}

function url(input: string): ParsedUrl {
  const parsed = normalizeUrl(input);
  if (!parsed.ok) throw new Error(`test URL rejected: ${input}`);
  return parsed.url;
}

const sources = (index: ThreatIndex, input: string) =>
  index.lookup(url(input)).denied.map((hit) => hit.source);

describe('host entries', () => {
  it('match the host, its subdomains and www, up to the registrable domain only', () => {
    const index = build([[PHISH, entry('www.evil-login.xyz', { firstSeen: 1_700_000_000_000 })]]);
    // First-seen times are kept to the day (the reason shows a date).
    const day = Math.floor(1_700_000_000_000 / 86_400_000) * 86_400_000;
    expect(index.lookup(url('https://evil-login.xyz/a?b=c')).denied).toEqual([
      {
        source: 'phish',
        match: 'host',
        matched: 'evil-login.xyz',
        threat: 'credential_phishing',
        brand: null,
        firstSeen: day,
      },
    ]);
    expect(sources(index, 'http://deep.sub.evil-login.xyz/')).toEqual(['phish']);
    expect(sources(index, 'https://notevil-login.xyz/')).toEqual([]);
    expect(sources(index, 'https://evil-login.xyz.example.com/')).toEqual([]);
  });

  it('a feed URL on a dedicated host condemns the host', () => {
    const index = build([[PHISH, entry('http://secure-paypa1.top/signin/index.php')]]);
    expect(sources(index, 'https://secure-paypa1.top/')).toEqual(['phish']);
    expect(index.lookup(url('https://secure-paypa1.top/x')).denied[0]?.match).toBe('host');
  });

  it('stop at the hosting tenant: one tenant never condemns the platform or its neighbours', () => {
    const index = build([
      [WEB3, entry('claim-airdrop.pages.dev')],
      [WEB3, entry('wallet-sync.weebly.com')],
      [WEB3, entry('weebly.com')],
    ]);
    expect(sources(index, 'https://claim-airdrop.pages.dev/')).toEqual(['web3']);
    expect(sources(index, 'https://www.claim-airdrop.pages.dev/')).toEqual(['web3']);
    expect(sources(index, 'https://my-portfolio.pages.dev/')).toEqual([]);
    // weebly.com is not a public suffix: the tenant boundary comes from the hosting list.
    expect(sources(index, 'https://wallet-sync.weebly.com/restore')).toEqual(['web3']);
    expect(sources(index, 'https://bakery.weebly.com/')).toEqual([]);
    expect(sources(index, 'https://www.weebly.com/')).toEqual([]);
    expect(index.stats).toMatchObject({ hostDeny: 2, platformHosts: 1 });
  });

  it('are not honoured on a brand official or popular domain (a feed error)', () => {
    const index = build([
      [PHISH, entry('paypal.com')],
      [PHISH, entry('login.microsoftonline.com')],
    ]);
    expect(sources(index, 'https://www.paypal.com/signin')).toEqual([]);
    expect(sources(index, 'https://login.microsoftonline.com/')).toEqual([]);
    expect(index.stats.protectedHosts).toBe(2);
  });
});

describe('URL-prefix entries', () => {
  it('on a path-tenancy host match that tenant path only', () => {
    const form = 'https://docs.google.com/forms/d/e/1FAIpQLSfScamForm/viewform';
    const index = build([
      [PHISH, entry(form)],
      [PHISH, entry('docs.google.com')],
      [PHISH, entry('https://docs.google.com/')],
    ]);
    expect(index.lookup(url(`${form}?usp=sf_link`)).denied).toMatchObject([
      {
        source: 'phish',
        match: 'url_prefix',
        matched: 'docs.google.com/forms/d/e/1FAIpQLSfScamForm/viewform',
      },
    ]);
    expect(sources(index, 'https://docs.google.com/forms/d/e/1FAIpQLSfOther/viewform')).toEqual([]);
    expect(sources(index, 'https://docs.google.com/')).toEqual([]);
    // The bare host is the platform's own name; its root page is Google's (protected) site.
    expect(index.stats).toMatchObject({ prefixDeny: 1, platformHosts: 1, protectedHosts: 1 });
  });

  it('on a protected domain match the listed page, never the whole site', () => {
    const page = 'https://www.paypal.com/webapps/compromised/login.php';
    const index = build([
      [PHISH, entry(page)],
      [PHISH, entry('https://www.paypal.com/')],
    ]);
    expect(sources(index, page)).toEqual(['phish']);
    expect(sources(index, 'https://paypal.com/webapps/compromised/login.php')).toEqual(['phish']);
    expect(sources(index, 'https://www.paypal.com/signin')).toEqual([]);
    expect(index.stats).toMatchObject({ prefixDeny: 1, protectedHosts: 1 });
  });
});

describe('allow entries, brands, feeds', () => {
  it('allow entries win over deny entries on the host they name, never on its subdomains', () => {
    const index = build([
      [WEB3, entry('wallet-tools.io')],
      [ALLOW, entry('wallet-tools.io', { list: 'allow' })],
    ]);
    for (const allowed of ['https://wallet-tools.io/', 'https://www.wallet-tools.io/x']) {
      expect(index.lookup(url(allowed))).toEqual({ denied: [], allowedBy: ['allowlist'] });
    }
    // A list that allows a platform must not allow every tenant below it.
    expect(sources(index, 'https://app.wallet-tools.io/')).toEqual(['web3']);
  });

  it('treats URL shorteners as shared hosts: a listed short link, never the shortener', () => {
    const index = build([
      [PHISH, entry('https://bit.ly/3ScamLink')],
      [PHISH, entry('bit.ly')],
    ]);
    expect(sources(index, 'https://bit.ly/3ScamLink')).toEqual(['phish']);
    expect(sources(index, 'https://bit.ly/3Harmless')).toEqual([]);
    expect(index.stats).toMatchObject({ prefixDeny: 1, hostDeny: 0 });
  });

  it('one hit per feed, and every feed that lists it', () => {
    const index = build([
      [PHISH, entry('scam-site.top')],
      [PHISH, entry('http://scam-site.top/login')],
      [WEB3, entry('login.scam-site.top')],
    ]);
    expect(sources(index, 'https://login.scam-site.top/login').sort()).toEqual(['phish', 'web3']);
  });

  it("resolves a feed's target to the catalog brand", () => {
    const index = build([
      [PHISH, entry('paypa1-verify.com', { target: 'PayPal' })],
      [PHISH, entry('unknown-target.com', { target: 'Some Bank Nobody Knows' })],
    ]);
    expect(index.lookup(url('https://paypa1-verify.com/')).denied[0]?.brand?.name).toBe('PayPal');
    expect(index.lookup(url('https://unknown-target.com/')).denied[0]?.brand).toBeNull();
  });

  it('ignores fuzzy-list names, invalid values and entries of unknown feeds', () => {
    const builder = new ThreatIndexBuilder(engine, [PHISH]);
    builder.add(PHISH.id, entry('metamask.io', { list: 'fuzzy' }));
    builder.add(PHISH.id, entry('http://127.0.0.1/phish'));
    builder.add(PHISH.id, entry('not a host!'));
    builder.add(99, entry('other-feed.com'));
    const index = builder.build();
    expect(index.stats).toMatchObject({ fuzzy: 1, invalid: 2, hostDeny: 0 });
    expect(index.size).toBe(0);
    expect(index.lookup(url('https://other-feed.com/')).denied).toEqual([]);
  });
});
