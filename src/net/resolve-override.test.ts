import { describe, expect, it } from 'vitest';

import { findResolveOverride, parseResolveOverrides } from './resolve-override.js';

describe('parseResolveOverrides', () => {
  it('parses curl --resolve entries, IPv6 bracketed or bare', () => {
    expect(
      parseResolveOverrides(
        'Feeds.Test.Example.:8080:127.0.0.1, rdap.test.example:443:[::1],x.test.example:80:::1',
      ),
    ).toEqual({
      ok: true,
      overrides: [
        { host: 'feeds.test.example', port: 8080, address: '127.0.0.1' },
        { host: 'rdap.test.example', port: 443, address: '::1' },
        { host: 'x.test.example', port: 80, address: '::1' },
      ],
    });
  });

  it('blank text is an empty list', () => {
    expect(parseResolveOverrides('  ')).toEqual({ ok: true, overrides: [] });
  });

  it.each([
    'feeds.test.example',
    'feeds.test.example:8080',
    'feeds.test.example:8080:',
    'feeds.test.example:0:127.0.0.1',
    'feeds.test.example:65536:127.0.0.1',
    'feeds.test.example:80a:127.0.0.1',
    'feeds.test.example:-1:127.0.0.1',
    'feeds.test.example:80:localhost',
    'feeds.test.example:80:999.0.0.1',
    'feeds.test.example:80:127.0.0.1:90',
    ':80:127.0.0.1',
    'bad host:80:127.0.0.1',
    '127.0.0.1:80:10.0.0.1',
    'a.test.example:80:127.0.0.1,,b.test.example:80:127.0.0.1',
  ])('%j is refused with a message naming the entry', (text) => {
    const result = parseResolveOverrides(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/is not host:port:address/);
  });
});

describe('findResolveOverride', () => {
  const overrides = [{ host: 'feeds.test.example', port: 8080, address: '127.0.0.1' }];

  it('matches the exact host and port only', () => {
    expect(findResolveOverride(overrides, 'feeds.test.example', 8080)?.address).toBe('127.0.0.1');
    expect(findResolveOverride(overrides, 'feeds.test.example.', 8080)?.address).toBe('127.0.0.1');
    expect(findResolveOverride(overrides, 'feeds.test.example', 80)).toBeUndefined();
    expect(findResolveOverride(overrides, 'x.feeds.test.example', 8080)).toBeUndefined();
  });
});
