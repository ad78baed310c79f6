import { describe, expect, it } from 'vitest';

import { normalizeUrl, type ParsedUrl } from '../engine/url/normalize-url.js';
import type { OverrideRecord } from '../store/ports/correction-store.js';
import { OverrideIndex } from './override-index.js';
import { parseOverrideTarget } from './override-target.js';

let sequence = 0;

/** An override of `target` as `linkguard overrides add` would store it. */
function override(
  action: 'allow' | 'deny',
  target: string,
  extra: Partial<OverrideRecord> = {},
): OverrideRecord {
  sequence += 1;
  return {
    id: `ovr_${String(sequence).padStart(12, '0')}`,
    action,
    ...parseOverrideTarget(target),
    reason: 'test',
    createdBy: 'tester',
    createdAt: 1_000 + sequence,
    expiresAt: null,
    removedAt: null,
    removedBy: null,
    reportId: null,
    ...extra,
  };
}

function url(text: string): ParsedUrl {
  const parsed = normalizeUrl(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.url;
}

const NOW = 10_000;

describe('OverrideIndex', () => {
  it('matches a domain target on the domain and every host under it, nothing else', () => {
    const allow = override('allow', 'example.com');
    const index = new OverrideIndex([allow]);
    expect(index.match(url('https://example.com/'), NOW)).toBe(allow);
    expect(index.match(url('https://a.b.example.com/x?y'), NOW)).toBe(allow);
    expect(index.match(url('http://example.com/'), NOW)).toBe(allow);
    expect(index.match(url('https://notexample.com/'), NOW)).toBeNull();
    expect(index.match(url('https://example.com.evil.net/'), NOW)).toBeNull();
    expect(index.match(url('https://example.co/'), NOW)).toBeNull();
  });

  it('matches a host target on that host only', () => {
    const deny = override('deny', 'login.example.com');
    const index = new OverrideIndex([deny]);
    expect(index.match(url('https://login.example.com/a'), NOW)).toBe(deny);
    expect(index.match(url('https://example.com/'), NOW)).toBeNull();
    expect(index.match(url('https://x.login.example.com/'), NOW)).toBeNull();
  });

  it('matches a URL prefix on either scheme, not on a sibling path before the prefix ends', () => {
    const allow = override('allow', 'https://example.com/app/');
    const index = new OverrideIndex([allow]);
    expect(index.match(url('https://example.com/app/login?next=1'), NOW)).toBe(allow);
    expect(index.match(url('http://example.com/app/'), NOW)).toBe(allow);
    expect(index.match(url('https://example.com/apple'), NOW)).toBeNull();
    expect(index.match(url('https://example.com/'), NOW)).toBeNull();
  });

  it('lets the most specific scope win: longest prefix, then host, then domain', () => {
    const domain = override('deny', 'example.com');
    const host = override('allow', 'www.example.com');
    const short = override('deny', 'https://www.example.com/a/');
    const long = override('allow', 'https://www.example.com/a/b/');
    const index = new OverrideIndex([long, domain, short, host]);
    expect(index.match(url('https://www.example.com/a/b/c'), NOW)).toBe(long);
    expect(index.match(url('https://www.example.com/a/x'), NOW)).toBe(short);
    expect(index.match(url('https://www.example.com/z'), NOW)).toBe(host);
    expect(index.match(url('https://shop.example.com/'), NOW)).toBe(domain);
  });

  it('prefers a deny to an allow of the same scope, then the newer', () => {
    const allow = override('allow', 'example.com', { createdAt: 9_000 });
    const deny = override('deny', 'example.com', { createdAt: 1_000 });
    expect(new OverrideIndex([allow, deny]).match(url('example.com'), NOW)).toBe(deny);
    const older = override('allow', 'example.org', { createdAt: 1_000 });
    const newer = override('allow', 'example.org', { createdAt: 2_000 });
    expect(new OverrideIndex([newer, older]).match(url('example.org'), NOW)).toBe(newer);
  });

  it('ignores an override from its expiry on, and falls through to the next one', () => {
    const expiring = override('allow', 'www.example.com', { expiresAt: NOW });
    const domain = override('deny', 'example.com');
    const index = new OverrideIndex([expiring, domain]);
    expect(index.match(url('https://www.example.com/'), NOW - 1)).toBe(expiring);
    expect(index.match(url('https://www.example.com/'), NOW)).toBe(domain);
  });

  it('matches an IP host target', () => {
    const deny = override('deny', '1.1.1.1');
    expect(new OverrideIndex([deny]).match(url('http://1.1.1.1/x'), NOW)).toBe(deny);
  });

  it('answers null with no overrides', () => {
    expect(new OverrideIndex([]).match(url('https://example.com/'), NOW)).toBeNull();
  });
});
