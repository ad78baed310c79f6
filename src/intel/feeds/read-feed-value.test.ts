import { describe, expect, it } from 'vitest';

import { type FeedValue, readFeedHost, readFeedUrl, readFeedValue } from './read-feed-value.js';

const host = (value: string): FeedValue => ({ ok: true, kind: 'host', value });
const url = (value: string): FeedValue => ({ ok: true, kind: 'url', value });

describe('readFeedValue', () => {
  it.each<[string, FeedValue]>([
    ['  Evil.Example.  ', host('evil.example')],
    ['*.fleek.co', host('fleek.co')],
    ['aavè.com', host('aavè.com')],
    ['xn--myetherwallt-leb.com', host('xn--myetherwallt-leb.com')],
    ['ether_promo.kissr.com', host('ether_promo.kissr.com')],
    ['64.7.198.20', host('64.7.198.20')],
    ['evil.example/login', url('http://evil.example/login')],
    ['evil.example?x=1', url('http://evil.example?x=1')],
    ['evil.example#frag', url('http://evil.example#frag')],
    ['pqwnsa.top:448', url('http://pqwnsa.top:448')],
    ['HTTPS://Evil.Example/A', url('HTTPS://Evil.Example/A')],
    ['https://arte-creativa  e.com/', url('https://arte-creativa  e.com/')],
  ])('%j', (input, expected) => {
    expect(readFeedValue(input)).toEqual(expected);
  });

  it.each([
    ['', 'empty value'],
    ['   ', 'empty value'],
    ['royaljapan02.*', 'not a host name or URL'],
    ['40%40%@zk-bridge.network', 'not a host name or URL'],
    ['has space.example', 'not a host name or URL'],
    ['a..b', 'not a host name or URL'],
    ['/path/only', 'not a URL or host name'],
    ['mailto:someone@example.com', 'not a host name or URL'],
    ['1http://x', 'not a URL (bad scheme)'],
    ['http://', 'URL without a host'],
    ['http:///path', 'URL without a host'],
    ['http://evil.example/\u0000', 'control character in URL'],
    [`${'a'.repeat(250)}.com`, 'host name longer than 253 characters'],
    [`http://evil.example/${'a'.repeat(16_384)}`, 'URL longer than 16,384 characters'],
  ])('refuses %j', (input, reason) => {
    expect(readFeedValue(input)).toEqual({ ok: false, reason });
  });
});

describe('readFeedHost and readFeedUrl', () => {
  it('reads a host strictly as a host', () => {
    expect(readFeedHost('Evil.Example.')).toEqual(host('evil.example'));
    expect(readFeedHost('evil.example/login').ok).toBe(false);
  });

  it('reads a bare host as a URL when a URL is expected', () => {
    expect(readFeedUrl('evil.example')).toEqual(url('http://evil.example'));
    expect(readFeedUrl('not a url')).toEqual({ ok: false, reason: 'not a URL or host name' });
  });
});
