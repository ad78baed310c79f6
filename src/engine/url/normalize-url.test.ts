import { describe, expect, it } from 'vitest';

import {
  MAX_URL_LENGTH,
  normalizeUrl,
  type ParsedUrl,
  type UrlRejection,
} from './normalize-url.js';

/** The parsed URL of an input that must be accepted; fails the test with the reason otherwise. */
function accepted(input: string): ParsedUrl {
  const result = normalizeUrl(input);
  if (!result.ok) {
    throw new Error(`expected ${JSON.stringify(input)} to be accepted: ${result.reason}`);
  }
  return result.url;
}

/** The rejection reason of an input that must be refused. */
function rejection(input: string): UrlRejection {
  const result = normalizeUrl(input);
  if (result.ok) {
    throw new Error(`expected ${JSON.stringify(input)} to be refused: ${result.url.href}`);
  }
  expect(result.message).not.toBe('');
  return result.reason;
}

/** A URL of exactly `length` characters: `https://example.com/aaa…`. */
function urlOfLength(length: number): string {
  const base = 'https://example.com/';
  return base + 'a'.repeat(length - base.length);
}

describe('normalizeUrl: accepted inputs', () => {
  it.each<[string, Partial<ParsedUrl>]>([
    [
      'example.com',
      {
        href: 'https://example.com/',
        scheme: 'https',
        hostname: 'example.com',
        port: null,
        pathname: '/',
        search: '',
        hash: '',
        hasUserinfo: false,
        username: '',
        ipVersion: null,
      },
    ],
    [
      'example.com/path?q=1#f',
      {
        href: 'https://example.com/path?q=1#f',
        scheme: 'https',
        hostname: 'example.com',
        pathname: '/path',
        search: '?q=1',
        hash: '#f',
      },
    ],
    [
      'example.com:8443/x',
      { href: 'https://example.com:8443/x', hostname: 'example.com', port: 8443, pathname: '/x' },
    ],
    ['example.com:8443', { href: 'https://example.com:8443/', port: 8443 }],
    ['https://example.com:443/', { href: 'https://example.com/', port: null }],
    ['http://example.com:8080/', { scheme: 'http', port: 8080 }],
    ['//example.com/x', { href: 'https://example.com/x', scheme: 'https', pathname: '/x' }],
    ['http://example.com/', { href: 'http://example.com/', scheme: 'http' }],
    [
      'HTTPS://EXAMPLE.COM/Path',
      {
        href: 'https://example.com/Path',
        scheme: 'https',
        hostname: 'example.com',
        pathname: '/Path',
      },
    ],
    [
      'HTTP://Example.Com',
      { href: 'http://example.com/', scheme: 'http', hostname: 'example.com' },
    ],
    [
      'paypal.com.',
      { href: 'https://paypal.com/', hostname: 'paypal.com', registrableDomain: 'paypal.com' },
    ],
    ['https://paypal.com./login', { href: 'https://paypal.com/login', hostname: 'paypal.com' }],
    [
      '\uFF30\uFF21\uFF39\uFF30\uFF21\uFF2C.com', // ＰＡＹＰＡＬ.com
      { href: 'https://paypal.com/', hostname: 'paypal.com', hostnameUnicode: 'paypal.com' },
    ],
    [
      'p\u0430ypal.com', // Cyrillic а
      {
        href: 'https://xn--pypal-4ve.com/',
        hostname: 'xn--pypal-4ve.com',
        hostnameUnicode: 'p\u0430ypal.com',
        registrableDomain: 'xn--pypal-4ve.com',
        domainLabel: 'xn--pypal-4ve',
        publicSuffix: 'com',
      },
    ],
    [
      'https://paypal.com@evil.top/',
      {
        href: 'https://paypal.com@evil.top/',
        hasUserinfo: true,
        username: 'paypal.com',
        hostname: 'evil.top',
        registrableDomain: 'evil.top',
      },
    ],
    [
      'http://user:pass@example.com/',
      { scheme: 'http', hasUserinfo: true, username: 'user', hostname: 'example.com' },
    ],
    ['https://:secret@example.com/', { hasUserinfo: true, username: '' }],
    ['https://pay%20pal@example.com/', { hasUserinfo: true, username: 'pay pal' }],
    ['  example.com  ', { href: 'https://example.com/', hostname: 'example.com' }],
    ['\t\nhttps://example.com/x \n', { href: 'https://example.com/x' }],
  ])('%s', (input, expected) => {
    expect(accepted(input)).toMatchObject(expected);
  });

  it('serializes a host with a trailing dot without the dot', () => {
    expect(accepted('paypal.com.').href).not.toContain('paypal.com.');
  });
});

describe('normalizeUrl: domain parts (PSL with private section)', () => {
  it.each<[string, Partial<ParsedUrl>]>([
    [
      'a.b.example.co.uk',
      {
        hostname: 'a.b.example.co.uk',
        registrableDomain: 'example.co.uk',
        domainLabel: 'example',
        publicSuffix: 'co.uk',
        icannSuffix: 'co.uk',
        privateSuffix: false,
        subdomainLabels: ['a', 'b'],
      },
    ],
    [
      'www.example.com',
      {
        registrableDomain: 'example.com',
        domainLabel: 'example',
        publicSuffix: 'com',
        icannSuffix: 'com',
        privateSuffix: false,
        subdomainLabels: ['www'],
      },
    ],
    [
      'example.com',
      { registrableDomain: 'example.com', domainLabel: 'example', subdomainLabels: [] },
    ],
    [
      'x.pages.dev',
      {
        registrableDomain: 'x.pages.dev',
        domainLabel: 'x',
        publicSuffix: 'pages.dev',
        icannSuffix: 'dev',
        privateSuffix: true,
        subdomainLabels: [],
      },
    ],
    [
      'sub.x.github.io',
      {
        registrableDomain: 'x.github.io',
        domainLabel: 'x',
        publicSuffix: 'github.io',
        icannSuffix: 'io',
        privateSuffix: true,
        subdomainLabels: ['sub'],
      },
    ],
    [
      // gov.uk is an ICANN suffix, so `local.gov.uk` is itself a registrable domain.
      'x.local.gov.uk',
      {
        registrableDomain: 'local.gov.uk',
        domainLabel: 'local',
        publicSuffix: 'gov.uk',
        icannSuffix: 'gov.uk',
        privateSuffix: false,
        subdomainLabels: ['x'],
      },
    ],
  ])('%s', (input, expected) => {
    expect(accepted(input)).toMatchObject(expected);
  });
});

describe('normalizeUrl: hosts that are public suffixes themselves', () => {
  it.each([
    // ICANN suffixes that are also web sites.
    [
      'https://gov.uk/',
      {
        registrableDomain: 'gov.uk',
        domainLabel: 'gov',
        publicSuffix: 'uk',
        icannSuffix: 'uk',
        privateSuffix: false,
      },
    ],
    [
      'nhs.uk',
      {
        registrableDomain: 'nhs.uk',
        domainLabel: 'nhs',
        publicSuffix: 'uk',
        icannSuffix: 'uk',
        privateSuffix: false,
      },
    ],
    // Private suffixes: platforms' own sites and path-style tenancy.
    [
      'https://s3.amazonaws.com/bucket/index.html',
      {
        registrableDomain: 's3.amazonaws.com',
        domainLabel: 's3',
        publicSuffix: 'amazonaws.com',
        icannSuffix: 'com',
        privateSuffix: true,
      },
    ],
    [
      'https://dweb.link/ipfs/bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
      { registrableDomain: 'dweb.link', icannSuffix: 'link', privateSuffix: true },
    ],
    ['bubbleapps.io', { registrableDomain: 'bubbleapps.io', domainLabel: 'bubbleapps' }],
    ['ngrok.app', { registrableDomain: 'ngrok.app', domainLabel: 'ngrok' }],
    // `*.eth.limo` is a wildcard rule: every name directly under eth.limo is a suffix.
    [
      'https://vitalik.eth.limo/',
      {
        registrableDomain: 'vitalik.eth.limo',
        domainLabel: 'vitalik',
        publicSuffix: 'eth.limo',
        icannSuffix: 'limo',
      },
    ],
  ])('%s is its own site', (input, expected) => {
    expect(accepted(input)).toMatchObject({ ...expected, hostIsSuffix: true, subdomainLabels: [] });
  });

  it('keeps ordinary registrable domains unflagged', () => {
    expect(accepted('x.pages.dev').hostIsSuffix).toBe(false);
    expect(accepted('paypal.com').hostIsSuffix).toBe(false);
    expect(accepted('8.8.8.8').hostIsSuffix).toBe(false);
  });

  it.each(['https://com/', 'https://uk/', 'io'])('refuses a lone top-level domain: %s', (input) => {
    expect(rejection(input)).toBe('invalid_host');
  });
});

describe('normalizeUrl: public IP hosts', () => {
  it.each<[string, Partial<ParsedUrl>]>([
    [
      'http://8.8.8.8/',
      {
        href: 'http://8.8.8.8/',
        scheme: 'http',
        hostname: '8.8.8.8',
        hostnameUnicode: '8.8.8.8',
        ipVersion: 4,
        registrableDomain: null,
        domainLabel: null,
        publicSuffix: null,
        icannSuffix: null,
        privateSuffix: false,
        subdomainLabels: [],
      },
    ],
    ['8.8.8.8/dns', { href: 'https://8.8.8.8/dns', hostname: '8.8.8.8', ipVersion: 4 }],
    // Decimal and hex spellings are canonicalized by the WHATWG parser before classification.
    ['http://134744072/', { href: 'http://8.8.8.8/', hostname: '8.8.8.8', ipVersion: 4 }],
    ['http://0x08080808/', { hostname: '8.8.8.8', ipVersion: 4 }],
    ['http://172.32.0.1/', { hostname: '172.32.0.1', ipVersion: 4 }],
    [
      'http://[2606:4700:4700::1111]/',
      {
        href: 'http://[2606:4700:4700::1111]/',
        hostname: '2606:4700:4700::1111',
        hostnameUnicode: '2606:4700:4700::1111',
        ipVersion: 6,
        registrableDomain: null,
        domainLabel: null,
        publicSuffix: null,
        icannSuffix: null,
        subdomainLabels: [],
      },
    ],
    [
      'https://[2606:4700:4700:0:0:0:0:1111]:8443/x',
      { hostname: '2606:4700:4700::1111', port: 8443, ipVersion: 6, pathname: '/x' },
    ],
  ])('%s', (input, expected) => {
    expect(accepted(input)).toMatchObject(expected);
  });
});

describe('normalizeUrl: length limit', () => {
  it('is 2048 characters', () => {
    expect(MAX_URL_LENGTH).toBe(2048);
  });

  it('accepts exactly 2048 characters', () => {
    const input = urlOfLength(2048);
    expect(input).toHaveLength(2048);
    expect(accepted(input).href).toBe(input);
  });

  it('refuses 2049 characters as too_long', () => {
    const input = urlOfLength(2049);
    expect(input).toHaveLength(2049);
    expect(rejection(input)).toBe('too_long');
  });

  it('measures the length after trimming whitespace', () => {
    expect(accepted(`   ${urlOfLength(2048)}\n`).href).toBe(urlOfLength(2048));
    expect(rejection(`   ${urlOfLength(2049)}\n`)).toBe('too_long');
  });
});

describe('normalizeUrl: rejections', () => {
  it.each(['', ' ', '   ', '\t\n', '\u00a0'])('empty: %j', (input) => {
    expect(rejection(input)).toBe('empty');
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'data:text/html;base64,PHNjcmlwdD4=',
    'mailto:victim@example.com',
    'tel:+15551234567',
    'blob:https://example.com/uuid',
    'ftp:example.com',
  ])('unsupported_scheme: %s', (input) => {
    expect(rejection(input)).toBe('unsupported_scheme');
  });

  // Regression: `ftp://host/` once read as host `ftp` with an empty port (host:port detection
  // accepted zero digits) and was refused as `unknown_tld` instead of `unsupported_scheme`.
  it.each([
    'ftp://example.com/',
    'file:///etc/passwd',
    'ws://example.com/',
    'wss://example.com/socket',
  ])('unsupported_scheme: %s', (input) => {
    expect(rejection(input)).toBe('unsupported_scheme');
  });

  it.each(['http://', 'https://', 'https://exa mple.com', 'http://[::1', 'http://exa<mple.com/'])(
    'malformed: %s',
    (input) => {
      expect(['malformed', 'invalid_host']).toContain(rejection(input));
    },
  );

  it.each([
    // IPv4 in every spelling the WHATWG parser accepts.
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://017700000001/',
    'http://0x7f000001/',
    'http://0x7f.0x0.0x0.0x1/',
    'http://0x7F.1/',
    'http://127.1/',
    '127.0.0.1:8080/admin',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://172.31.255.255/',
    'http://192.168.0.1/',
    'http://3232235777/',
    'http://169.254.169.254/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://0/',
    'http://224.0.0.251/',
    'http://240.0.0.1/',
    'http://192.0.2.1/',
    'http://198.51.100.1/',
    'http://203.0.113.1/',
    'http://198.18.0.1/',
    'http://255.255.255.255/',
    // IPv6, including the transition ranges that embed an IPv4 address.
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[::8.8.8.8]/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[fd00::1]/',
    'http://[ff02::1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[2002:c0a8:101::]/',
    'http://[2001::1]/',
    'http://[2001:db8::1]/',
    'http://[100::1]/',
  ])('private_address: %s', (input) => {
    expect(rejection(input)).toBe('private_address');
  });

  it.each([
    'localhost',
    'LOCALHOST',
    'http://localhost:3000/',
    'localhost.',
    'a.localhost',
    'x.local',
    'printer.LOCAL',
    'x.test',
    'x.example',
    'x.invalid',
    'x.onion',
    'x.alt',
    'x.internal',
    'router.home.arpa',
    '1.0.0.127.in-addr.arpa',
  ])('special_use_name: %s', (input) => {
    expect(rejection(input)).toBe('special_use_name');
  });

  it.each(['intranet', 'http://intranet/', 'foo.notarealtld123', 'corp.lan'])(
    'unknown_tld: %s',
    (input) => {
      expect(rejection(input)).toBe('unknown_tld');
    },
  );

  it.each(['a..b.com', '-a.com', 'a-.com', `${'a'.repeat(64)}.com`, 'exa$mple.com'])(
    'invalid_host: %s',
    (input) => {
      expect(rejection(input)).toBe('invalid_host');
    },
  );

  it('accepts a 63-character label (the DNS maximum)', () => {
    expect(accepted(`${'a'.repeat(63)}.com`).domainLabel).toBe('a'.repeat(63));
  });
});

describe('normalizeUrl: public names that only look special stay valid', () => {
  it.each([
    ['example.com', 'example.com'],
    ['example.org', 'example.org'],
    ['localhost.com', 'localhost.com'],
    ['testing.org', 'testing.org'],
    ['local.gov.uk', 'local.gov.uk'],
    ['test.com', 'test.com'],
    ['onion.example.com', 'example.com'],
    ['internal.example.net', 'example.net'],
  ])('%s', (input, registrable) => {
    expect(accepted(input).registrableDomain).toBe(registrable);
  });
});

describe('normalizeUrl: totality', () => {
  it.each(['http://[', '%', '::::', 'https://%zz/', '\u0000', 'http://\u200b/', 'https://😀'])(
    'returns a value instead of throwing for %j',
    (input) => {
      expect(() => normalizeUrl(input)).not.toThrow();
      expect(typeof normalizeUrl(input).ok).toBe('boolean');
    },
  );
});
