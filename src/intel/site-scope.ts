/**
 * @module intel/site-scope
 * Which party a URL belongs to, for matching threat-feed entries (detection.md §1.7): feeds list
 * hosts and URLs, but a hosting platform is judged per tenant and a brand's own or a popular
 * domain is not condemned as a whole because one page on it was listed.
 *
 * - Path-tenancy platforms (`docs.google.com/forms/…`, `ipfs.io/ipfs/<cid>`): only URL-prefix
 *   entries apply; the host is everyone's.
 * - Subdomain tenancy (`x.pages.dev`, `x.weebly.com`): host entries apply from the host up to the
 *   tenant (`x.weebly.com`), never to the platform apex.
 * - Other hosts: from the host up to the registrable domain.
 * - Protected domains (a brand's official domain, a popular site): host entries are not honoured
 *   (a feed listing `google.com` is a feed error); URL-prefix entries are (a compromised page).
 * - URL shorteners and link-in-bio hubs (`bit.ly/x`, `linktr.ee/x`) are shared hosts too: each
 *   link is someone's, so they are treated like path tenancy.
 */
import type { Engine } from '../engine/create-engine.js';
import { readSite, type SiteReading } from '../engine/rules/analyze-url.js';
import type { ParsedUrl } from '../engine/url/normalize-url.js';

export interface SiteScope {
  /** Hosts whose host-level entries apply, most specific first; empty for path tenancy. */
  hostCandidates: string[];
  /** Host-level deny entries must not be honoured (official or popular registrable domain). */
  protectedDomain: boolean;
  /** The host is a hosting platform's own name (`pages.dev`, `docs.google.com`). */
  platformHost: boolean;
  /** The URL is user content under a path on a shared host. */
  pathTenancy: boolean;
}

/**
 * The scope of a URL (for callers that hold only the URL: the feed index over its entries).
 *
 * @param engine for the hosting-platform index, the brand catalog and the popular domains.
 * @param url a URL accepted by `normalizeUrl()`.
 */
export function siteScope(engine: Engine, url: ParsedUrl): SiteScope {
  return scopeOfSite(engine, readSite(engine.context, url));
}

/**
 * The scope of a URL from layer 1's reading of it (`readSite()`, or the whole `UrlAnalysis` the
 * detection service made): whose site it is is not worked out again.
 *
 * @param engine for the hosting-platform index and the redirectors.
 */
export function scopeOfSite(engine: Engine, site: SiteReading): SiteScope {
  const { context } = engine;
  const { url, hosting } = site;
  const host = url.hostname;
  const redirector =
    context.redirectors.has(host) ||
    (url.registrableDomain !== null && context.redirectors.has(url.registrableDomain));
  const platformHost = context.hosting.platform(host) !== undefined || redirector;
  const registrable = url.registrableDomain;
  // `readSite()` sets `popular` only off hosting platforms; `owner` is the registrable domain's.
  const protectedDomain = hosting === null && (site.popular || site.owner !== null);
  if (hosting?.tenancy === 'path' || platformHost) {
    return {
      hostCandidates: [],
      protectedDomain,
      platformHost,
      pathTenancy: hosting !== null || redirector,
    };
  }
  const boundary = hosting !== null ? `${hosting.tenant}.${hosting.suffix}` : (registrable ?? host);
  const hostCandidates = [host];
  for (let dot = host.indexOf('.'); dot >= 0; dot = host.indexOf('.', dot + 1)) {
    const parent = host.slice(dot + 1);
    if (parent.length < boundary.length) break;
    hostCandidates.push(parent);
  }
  return { hostCandidates, protectedDomain, platformHost, pathTenancy: false };
}

/** `www.x.com` → `x.com` when the rest is still at or below the site boundary. */
export function withoutWww(host: string, scope: SiteScope): string {
  if (!host.startsWith('www.')) return host;
  const bare = host.slice(4);
  return scope.hostCandidates.includes(bare) ? bare : host;
}
