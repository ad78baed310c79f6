/**
 * @module engine/rules/hosting-index
 * Shared hosting, user-content, tunnel, DDNS and IPFS platforms (detection.md §1.7). On these
 * platforms the tenant, not the platform, is the party we judge: `metamask-claim.pages.dev` is
 * judged as `metamask-claim`, and neither a popularity list nor the brand catalog may vouch for a
 * tenant because the platform apex is popular or official (`sites.google.com/view/x` is Google's
 * host but not Google's page). The apex itself (`pages.dev`) is the platform's own site.
 */
import type { HostingKind, HostingPlatformRecord } from '../engine-data.js';

/** The tenant a URL belongs to on a hosting platform. */
export interface HostingTenant {
  suffix: string;
  operator: string;
  kind: HostingKind;
  /** Tenant label for subdomain tenancy (`metamask-claim`), or the path tenant (`view/x`). */
  tenant: string;
  /** Subdomain labels above the tenant label (`['www']` of `www.x.pages.dev`). */
  innerLabels: string[];
  tenancy: 'subdomain' | 'path';
}

/**
 * IPFS content identifiers in a path or label: CIDv0 (`Qm` + 44 base58) and CIDv1 base32 (`b` +
 * 58 lowercase base32), per the multiformats CID spec; content on any gateway is IPFS hosting.
 */
const IPFS_PATH = /\/ip[fn]s\/(Qm[1-9A-HJ-NP-Za-km-z]{44}|b[a-z2-7]{58,})/;
const IPFS_LABEL = /^(?:Qm[1-9A-HJ-NP-Za-km-z]{44}|b[a-z2-7]{58,})$/i;

export class HostingIndex {
  private readonly bySuffix = new Map<string, HostingPlatformRecord>();

  constructor(platforms: readonly HostingPlatformRecord[]) {
    for (const platform of platforms) this.bySuffix.set(platform.suffix, platform);
  }

  /** The platform record for an exact suffix (used for reasons and tests). */
  platform(suffix: string): HostingPlatformRecord | undefined {
    return this.bySuffix.get(suffix);
  }

  /**
   * The platform whose suffix the host is or ends with (longest match), whether or not the URL
   * is a tenant: `storage.googleapis.com` and `www.weebly.com` are platform hosts.
   */
  platformOf(hostname: string): HostingPlatformRecord | undefined {
    for (let start = 0; start >= 0; start = hostname.indexOf('.', start) + 1 || -1) {
      const platform = this.bySuffix.get(hostname.slice(start));
      if (platform !== undefined) return platform;
    }
    return undefined;
  }

  /**
   * The hosting tenant of a URL, or null when the URL is not user content on a shared platform.
   *
   * @param hostname ASCII host, no trailing dot.
   * @param pathname URL path (`/view/x`).
   */
  tenantOf(hostname: string, pathname: string): HostingTenant | null {
    // The longest matching suffix decides, also when it says "no tenant": `up.railway.app/` is
    // the platform's own site, not a tenant `up` of `railway.app`. Suffixes are tried by slicing
    // at each dot (one string per candidate, no label arrays on the common path).
    for (let start = 0; start >= 0; start = hostname.indexOf('.', start) + 1 || -1) {
      const platform = this.bySuffix.get(hostname.slice(start));
      if (platform !== undefined) {
        const above = start === 0 ? [] : hostname.slice(0, start - 1).split('.');
        return tenantFor(platform, above, pathname);
      }
    }
    return ipfsTenant(hostname.split('.'), pathname);
  }
}

function tenantFor(
  platform: HostingPlatformRecord,
  above: string[],
  pathname: string,
): HostingTenant | null {
  const base = { suffix: platform.suffix, operator: platform.operator, kind: platform.kind };
  const inner = above.filter((label) => label !== 'www');
  if (platform.tenancy === 'subdomain' && inner.length > 0) {
    const tenant = inner[inner.length - 1] ?? '';
    return { ...base, tenant, innerLabels: inner.slice(0, -1), tenancy: 'subdomain' };
  }
  // Path tenancy (data/lists/SOURCES-lists.md): without prefixes every non-root path is user
  // content and its first segment the tenant; with prefixes only those paths are, and `/` means
  // "first segment" (S3 path-style buckets). Subdomain platforms may list prefixes for their apex.
  const prefixes = platform.path_prefixes ?? (platform.tenancy === 'path' ? ['/'] : []);
  for (const prefix of prefixes) {
    if (!pathname.startsWith(prefix)) continue;
    const segment = pathname.slice(prefix.length).split('/')[0] ?? '';
    if (segment === '') continue;
    const tenant = prefix === '/' ? segment : `${prefix.slice(1)}${segment}`;
    return { ...base, tenant, innerLabels: inner, tenancy: 'path' };
  }
  return null;
}

function ipfsTenant(labels: string[], pathname: string): HostingTenant | null {
  const cidLabel = labels.findIndex((label) => IPFS_LABEL.test(label));
  const pathMatch = IPFS_PATH.exec(pathname);
  if (cidLabel < 0 && pathMatch === null) return null;
  return {
    suffix: labels.slice(cidLabel < 0 ? 0 : cidLabel + 1).join('.'),
    operator: 'IPFS gateway',
    kind: 'ipfs',
    tenant: pathMatch?.[1] ?? labels[cidLabel] ?? '',
    innerLabels: [],
    tenancy: cidLabel < 0 ? 'path' : 'subdomain',
  };
}
