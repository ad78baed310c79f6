import { describe, expect, it } from 'vitest';

import { classifyIp } from './classify-ip.js';

// Inputs are hosts as `URL.hostname` serializes them (dotted-decimal IPv4, compressed bracketed
// IPv6); the alternative IPv4 spellings are covered end to end in normalize-url.test.ts.

describe('classifyIp: host names', () => {
  it.each([
    'example.com',
    'xn--pypal-4ve.com',
    'localhost',
    '1.2.3.4.example.com',
    'a1b2::example',
    '',
    '[]',
    '[2001:db8::1',
    '2001:db8::1]',
    '256.1.1.1',
    '1.2.3.4.5',
  ])('%j is not an IP', (host) => {
    expect(classifyIp(host)).toEqual({ kind: 'not_ip' });
  });
});

describe('classifyIp: public addresses', () => {
  it.each<[string, 4 | 6, string]>([
    ['8.8.8.8', 4, '8.8.8.8'],
    ['1.1.1.1', 4, '1.1.1.1'],
    ['172.32.0.1', 4, '172.32.0.1'],
    ['172.15.255.255', 4, '172.15.255.255'],
    ['100.128.0.1', 4, '100.128.0.1'],
    ['100.63.255.255', 4, '100.63.255.255'],
    ['11.0.0.1', 4, '11.0.0.1'],
    ['[2606:4700:4700::1111]', 6, '2606:4700:4700::1111'],
    ['2606:4700:4700::1111', 6, '2606:4700:4700::1111'],
    ['[2a00:1450:4001:80b::200e]', 6, '2a00:1450:4001:80b::200e'],
    // IPv4-mapped IPv6 is judged as the IPv4 address it carries.
    ['[::ffff:808:808]', 4, '8.8.8.8'],
  ])('%s', (host, version, address) => {
    expect(classifyIp(host)).toEqual({ kind: 'public', version, address });
  });
});

describe('classifyIp: blocked IPv4', () => {
  it.each<[string, string]>([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.51.100.1', 'reserved'],
    ['203.0.113.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['255.255.255.255', 'broadcast'],
  ])('%s → %s', (host, range) => {
    expect(classifyIp(host)).toEqual({ kind: 'blocked', version: 4, address: host, range });
  });
});

describe('classifyIp: blocked IPv6', () => {
  it.each<[string, string, 4 | 6, string]>([
    ['::1', 'loopback', 6, '::1'],
    ['::', 'unspecified', 6, '::'],
    ['fe80::1', 'linkLocal', 6, 'fe80::1'],
    ['fc00::1', 'uniqueLocal', 6, 'fc00::1'],
    ['fd00::1', 'uniqueLocal', 6, 'fd00::1'],
    ['ff02::1', 'multicast', 6, 'ff02::1'],
    ['64:ff9b::7f00:1', 'rfc6052', 6, '64:ff9b::7f00:1'],
    ['2002:c0a8:101::', '6to4', 6, '2002:c0a8:101::'],
    ['2001::1', 'teredo', 6, '2001::1'],
    ['2001:db8::1', 'reserved', 6, '2001:db8::1'],
    ['100::1', 'discard', 6, '100::1'],
    // IPv4-compatible `::a.b.c.d` (URL.hostname writes `[::127.0.0.1]` as `[::7f00:1]`).
    ['::7f00:1', 'ipv4Compatible', 6, '::7f00:1'],
    ['::808:808', 'ipv4Compatible', 6, '::808:808'],
    // IPv4-mapped addresses are unwrapped and judged as IPv4.
    ['::ffff:7f00:1', 'loopback', 4, '127.0.0.1'],
    ['::ffff:a00:1', 'private', 4, '10.0.0.1'],
    ['::ffff:a9fe:a9fe', 'linkLocal', 4, '169.254.169.254'],
  ])('%s → %s', (bare, range, version, address) => {
    const expected = { kind: 'blocked', version, address, range };
    expect(classifyIp(bare)).toEqual(expected);
    expect(classifyIp(`[${bare}]`)).toEqual(expected);
  });

  // Regression: ipaddr.js reports every address outside its special ranges as `unicast`, including
  // IANA "Reserved by IETF" space outside global unicast 2000::/3.
  it.each(['4000::1', 'e000::1', '1::1', '::1:7f00:1'])(
    '%s (outside 2000::/3) is not public',
    (host) => {
      expect(classifyIp(host).kind).toBe('blocked');
    },
  );

  it('reads a non-canonical IPv6 spelling the same as the canonical one', () => {
    expect(classifyIp('[0:0:0:0:0:0:0:1]')).toEqual(classifyIp('[::1]'));
    expect(classifyIp('[FE80:0:0::1]')).toMatchObject({ kind: 'blocked', range: 'linkLocal' });
  });
});
