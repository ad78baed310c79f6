import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  createRdapBootstrap,
  loadRdapBootstrap,
  parseRdapBootstrapFile,
  parseRdapOverridesFile,
  type RdapBootstrapFile,
  rdapDataDirectory,
} from './rdap-bootstrap.js';

describe('the shipped bootstrap and overrides (data/rdap/)', () => {
  const bootstrap = loadRdapBootstrap();

  it('maps com and net to Verisign', () => {
    expect(bootstrap.lookup('example.com')).toEqual({
      kind: 'server',
      tld: 'com',
      baseUrl: 'https://rdap.verisign.com/com/v1/',
      source: 'iana',
    });
    expect(bootstrap.lookup('example.net')).toMatchObject({
      baseUrl: 'https://rdap.verisign.com/net/v1/',
    });
  });

  it('answers TLDs IANA does not list from the override table (guide §5.2)', () => {
    expect(bootstrap.lookup('zeit.de')).toEqual({
      kind: 'server',
      tld: 'de',
      baseUrl: 'https://rdap.denic.de/',
      source: 'override',
    });
    expect(bootstrap.lookup('github.io')).toMatchObject({
      baseUrl: 'https://rdap.identitydigital.services/rdap/',
      source: 'override',
    });
  });

  it('marks edu, gov, int and mil as restricted, even though IANA lists a gov server', () => {
    expect(bootstrap.lookup('stevens.edu')).toEqual({ kind: 'restricted', tld: 'edu' });
    expect(bootstrap.lookup('whitehouse.gov')).toEqual({ kind: 'restricted', tld: 'gov' });
    expect(bootstrap.lookup('nato.int')).toEqual({ kind: 'restricted', tld: 'int' });
    expect(bootstrap.lookup('army.mil')).toEqual({ kind: 'restricted', tld: 'mil' });
  });

  it('finds no server for a TLD in neither file', () => {
    expect(bootstrap.lookup('example.jp')).toEqual({ kind: 'none' });
  });

  it('records the IANA publication and a realistic TLD count', () => {
    expect(bootstrap.publication).toBe('2026-06-26T18:00:02Z');
    expect(bootstrap.tldCount).toBeGreaterThan(1000);
  });

  it('keeps every override out of the restricted list and the restricted list minimal', () => {
    const text = readFileSync(join(rdapDataDirectory(), 'overrides.json'), 'utf8');
    const parsed = parseRdapOverridesFile(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const overridden = parsed.file.services.flatMap(([labels]) => labels);
    expect(overridden.filter((t) => parsed.file.restricted_tlds.includes(t))).toEqual([]);
    expect(parsed.file.restricted_tlds).toEqual(['edu', 'gov', 'int', 'mil']);
  });
});

describe('createRdapBootstrap', () => {
  const file: RdapBootstrapFile = {
    version: '1.0',
    publication: '2026-01-01T00:00:00Z',
    services: [
      [['gl'], ['https://rdap.gl.example/']],
      [['co.gl'], ['http://co.gl.example/', 'https://rdap.co-gl.example/base']],
      [['kg'], ['http://rdap.kg.example/']],
      [['COM', 'net'], ['https://rdap.com.example/']],
    ],
  };

  it('uses the longest matching label sequence', () => {
    const bootstrap = createRdapBootstrap(file);
    expect(bootstrap.lookup('shop.co.gl')).toMatchObject({ tld: 'co.gl' });
    expect(bootstrap.lookup('example.gl')).toMatchObject({ tld: 'gl' });
  });

  it('prefers https, falls back to http, and ends every base URL with a slash', () => {
    const bootstrap = createRdapBootstrap(file);
    expect(bootstrap.lookup('shop.co.gl')).toMatchObject({
      baseUrl: 'https://rdap.co-gl.example/base/',
    });
    expect(bootstrap.lookup('example.kg')).toMatchObject({ baseUrl: 'http://rdap.kg.example/' });
  });

  it('matches labels case-insensitively and never the whole name', () => {
    const bootstrap = createRdapBootstrap(file);
    expect(bootstrap.lookup('Example.COM')).toMatchObject({ tld: 'com' });
    expect(bootstrap.lookup('com')).toEqual({ kind: 'none' });
  });

  it('lets an override replace the bootstrap entry', () => {
    const bootstrap = createRdapBootstrap(file, {
      description: 'test',
      updated: '2026-01-01',
      services: [[['gl'], ['https://override.example/']]],
      restricted_tlds: [],
    });
    expect(bootstrap.lookup('example.gl')).toEqual({
      kind: 'server',
      tld: 'gl',
      baseUrl: 'https://override.example/',
      source: 'override',
    });
  });
});

describe('parseRdapBootstrapFile', () => {
  const real = readFileSync(join(rdapDataDirectory(), 'dns.json'), 'utf8');

  it('accepts the shipped IANA file', () => {
    const parsed = parseRdapBootstrapFile(real);
    expect(parsed.ok).toBe(true);
  });

  it.each([
    ['text that is not JSON', '<html>rate limited</html>', 'not JSON'],
    ['a file without services', '{"publication":"2026-01-01T00:00:00Z"}', 'services'],
    [
      'a base URL that is not http(s)',
      '{"publication":"x","services":[[["com"],["ftp://x/"]]]}',
      'services/0/1/0',
    ],
    [
      'a file without com',
      JSON.stringify({ publication: 'x', services: [[['net'], ['https://x/']]] }),
      'no entry for "com"',
    ],
    [
      'a truncated registry',
      JSON.stringify({ publication: 'x', services: [[['com', 'net'], ['https://x/']]] }),
      'only 2 TLDs',
    ],
  ])('refuses %s', (_label, text, message) => {
    const parsed = parseRdapBootstrapFile(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(message);
  });
});
