import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { HostingPlatformRecord } from '../engine-data.js';
import { HostingIndex, type HostingTenant } from './hosting-index.js';

const CID_V0 = 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG';
const CID_V1 = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi';

const record = (
  suffix: string,
  tenancy: 'subdomain' | 'path',
  extra: Partial<HostingPlatformRecord> = {},
): HostingPlatformRecord => ({
  suffix,
  operator: `${suffix} operator`,
  kind: 'static',
  tenancy,
  psl: false,
  ...extra,
});

const inline = new HostingIndex([
  record('pages.dev', 'subdomain'),
  record('railway.app', 'subdomain'),
  record('up.railway.app', 'subdomain'),
  record('docs.google.com', 'path', { kind: 'shared' }),
  record('sites.google.com', 'path', { kind: 'builder', path_prefixes: ['/view/', '/'] }),
  record('ipfs.io', 'path', { kind: 'ipfs', path_prefixes: ['/ipfs/', '/ipns/'] }),
  record('s3.amazonaws.com', 'subdomain', { kind: 'storage', path_prefixes: ['/'] }),
  record('mypinata.cloud', 'subdomain', { kind: 'ipfs', path_prefixes: ['/ipfs/'] }),
]);

const tenant = (
  suffix: string,
  name: string,
  tenancy: 'subdomain' | 'path',
  innerLabels: string[] = [],
): Partial<HostingTenant> => ({ suffix, tenant: name, tenancy, innerLabels });

describe('HostingIndex.tenantOf with inline platforms', () => {
  it.each<[string, string, Partial<HostingTenant>]>([
    // Subdomain tenancy.
    ['x.pages.dev', '/', tenant('pages.dev', 'x', 'subdomain')],
    ['www.x.pages.dev', '/', tenant('pages.dev', 'x', 'subdomain')],
    ['a.b.x.pages.dev', '/login', tenant('pages.dev', 'x', 'subdomain', ['a', 'b'])],
    ['www.a.x.pages.dev', '/', tenant('pages.dev', 'x', 'subdomain', ['a'])],
    // The longest suffix wins: up.railway.app, not railway.app with tenant `up`.
    ['x.up.railway.app', '/', tenant('up.railway.app', 'x', 'subdomain')],
    ['x.railway.app', '/', tenant('railway.app', 'x', 'subdomain')],
    // Path tenancy without prefixes: the first segment of any non-root path.
    ['docs.google.com', '/forms/d/abc', tenant('docs.google.com', 'forms', 'path')],
    ['docs.google.com', '/document', tenant('docs.google.com', 'document', 'path')],
    // Path tenancy with prefixes: the prefix is kept in the tenant.
    ['ipfs.io', `/ipfs/${CID_V0}/index.html`, tenant('ipfs.io', `ipfs/${CID_V0}`, 'path')],
    ['ipfs.io', '/ipns/app.example.eth', tenant('ipfs.io', 'ipns/app.example.eth', 'path')],
    ['sites.google.com', '/view/x/home', tenant('sites.google.com', 'view/x', 'path')],
    ['sites.google.com', '/other', tenant('sites.google.com', 'other', 'path')],
    // `/` prefix on a subdomain platform: S3 path-style buckets on the apex.
    ['s3.amazonaws.com', '/bucket/key.html', tenant('s3.amazonaws.com', 'bucket', 'path')],
    ['bucket.s3.amazonaws.com', '/key.html', tenant('s3.amazonaws.com', 'bucket', 'subdomain')],
    ['mypinata.cloud', `/ipfs/${CID_V0}`, tenant('mypinata.cloud', `ipfs/${CID_V0}`, 'path')],
    ['gw.mypinata.cloud', `/ipfs/${CID_V0}`, tenant('mypinata.cloud', 'gw', 'subdomain')],
  ])('%s%s', (hostname, pathname, expected) => {
    expect(inline.tenantOf(hostname, pathname)).toMatchObject(expected);
  });

  it('reports the platform operator and kind', () => {
    expect(inline.tenantOf('x.pages.dev', '/')).toEqual({
      suffix: 'pages.dev',
      operator: 'pages.dev operator',
      kind: 'static',
      tenant: 'x',
      innerLabels: [],
      tenancy: 'subdomain',
    });
    expect(inline.tenantOf('ipfs.io', `/ipfs/${CID_V0}`)).toMatchObject({
      operator: 'ipfs.io operator',
      kind: 'ipfs',
    });
  });

  it.each<[string, string]>([
    ['pages.dev', '/'], // the platform's own site
    ['www.pages.dev', '/'],
    ['pages.dev', '/docs'], // a subdomain platform without prefixes has no path tenants
    ['docs.google.com', '/'],
    ['docs.google.com', ''],
    ['ipfs.io', '/about'],
    ['ipfs.io', '/ipfs/'],
    ['ipfs.io', '/'],
    ['s3.amazonaws.com', '/'],
    ['mypinata.cloud', '/pricing'],
    ['example.com', '/x'],
    ['notpages.dev', '/'], // a suffix match is on whole labels
    ['pages.dev.example.com', '/'],
  ])('%s%s has no tenant', (hostname, pathname) => {
    expect(inline.tenantOf(hostname, pathname)).toBeNull();
  });

  it('exposes platform records by exact suffix', () => {
    expect(inline.platform('pages.dev')?.tenancy).toBe('subdomain');
    expect(inline.platform('x.pages.dev')).toBeUndefined();
    expect(inline.platform('dev')).toBeUndefined();
  });
});

describe('HostingIndex.tenantOf: IPFS content on unknown gateways', () => {
  it.each<[string, string, Partial<HostingTenant>]>([
    [
      `${CID_V1}.ipfs.gateway.example`,
      '/',
      { suffix: 'ipfs.gateway.example', tenant: CID_V1, tenancy: 'subdomain', innerLabels: [] },
    ],
    [
      `${CID_V0.toLowerCase()}.ipfs.gateway.example`,
      '/',
      { suffix: 'ipfs.gateway.example', tenant: CID_V0.toLowerCase(), tenancy: 'subdomain' },
    ],
    [
      'gateway.example.org',
      `/ipfs/${CID_V0}/wallet.html`,
      { suffix: 'gateway.example.org', tenant: CID_V0, tenancy: 'path' },
    ],
    [
      'gateway.example.org',
      `/ipns/${CID_V1}`,
      { suffix: 'gateway.example.org', tenant: CID_V1, tenancy: 'path' },
    ],
  ])('%s%s', (hostname, pathname, expected) => {
    expect(inline.tenantOf(hostname, pathname)).toMatchObject({
      operator: 'IPFS gateway',
      kind: 'ipfs',
      ...expected,
    });
  });

  it.each<[string, string]>([
    ['gateway.example.org', '/ipfs/QmTooShort'],
    ['gateway.example.org', `/files/${CID_V0}`],
    ['gateway.example.org', `/ipfs/${CID_V0.slice(0, -1)}0`], // 0 is not base58
    ['bafy.gateway.example', '/'],
  ])('%s%s is not IPFS content', (hostname, pathname) => {
    expect(inline.tenantOf(hostname, pathname)).toBeNull();
  });
});

describe('HostingIndex.tenantOf with data/lists/hosting-platforms.json', () => {
  const file = join(import.meta.dirname, '../../../data/lists/hosting-platforms.json');
  const { platforms } = JSON.parse(readFileSync(file, 'utf8')) as {
    platforms: HostingPlatformRecord[];
  };
  const real = new HostingIndex(platforms);

  it.each<[string, string, Partial<HostingTenant>]>([
    [
      'metamask-claim.pages.dev',
      '/',
      { suffix: 'pages.dev', tenant: 'metamask-claim', tenancy: 'subdomain', kind: 'static' },
    ],
    ['x.up.railway.app', '/', { suffix: 'up.railway.app', tenant: 'x', tenancy: 'subdomain' }],
    ['docs.google.com', '/forms/d/abc/viewform', { suffix: 'docs.google.com', tenant: 'forms' }],
    ['sites.google.com', '/view/x', { suffix: 'sites.google.com', tenant: 'view/x' }],
    ['ipfs.io', `/ipfs/${CID_V0}`, { suffix: 'ipfs.io', tenant: `ipfs/${CID_V0}`, kind: 'ipfs' }],
    ['s3.amazonaws.com', '/bucket/key', { suffix: 's3.amazonaws.com', tenant: 'bucket' }],
    [`${CID_V1}.ipfs.dweb.link`, '/', { suffix: 'ipfs.dweb.link', tenant: CID_V1, kind: 'ipfs' }],
  ])('%s%s', (hostname, pathname, expected) => {
    expect(real.tenantOf(hostname, pathname)).toMatchObject(expected);
  });

  it.each<[string, string]>([
    ['pages.dev', '/'],
    ['docs.google.com', '/'],
    ['ipfs.io', '/about'],
    ['www.paypal.com', '/signin'],
  ])('%s%s has no tenant', (hostname, pathname) => {
    expect(real.tenantOf(hostname, pathname)).toBeNull();
  });

  it('holds one record per suffix', () => {
    const suffixes = platforms.map((platform) => platform.suffix);
    expect(new Set(suffixes).size).toBe(suffixes.length);
    expect(real.platform('pages.dev')?.operator).toBe('Cloudflare Pages');
  });
});
