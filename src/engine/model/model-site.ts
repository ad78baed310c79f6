/**
 * @module engine/model/model-site
 * Which name the URL model reads. A host's subdomains are chosen by whoever owns its site, so the
 * model reads the site itself: the registrable domain, or a hosting tenant's own name on a shared
 * platform (`wallet-sync.pages.dev`). Training and scoring both call {@link modelSite}, so they
 * read the same name. Measured on the development data: scoring whole hosts flagged machine
 * names of cloud infrastructure (`apiproxy-….elb.amazonaws.com` subdomains, CDN edges) five
 * times as often as scoring sites, at about the same recall (docs/eval.md).
 */
import type { HostingTenant } from '../rules/hosting-index.js';
import type { ParsedUrl } from '../url/normalize-url.js';

/** The site name and its suffix as the model's features take them. */
export interface ModelSite {
  /** `x.pages.dev`, `example.co.uk`. */
  site: string;
  /** The part of `site` that is a public or platform suffix (`pages.dev`, `co.uk`). */
  suffix: string;
}

/**
 * The site the model scores, or null when there is none to score: IP hosts, path tenants of a
 * platform (`sites.google.com/view/x`, where the host is the platform's and the tenant a path) and
 * a platform's own pages (`storage.googleapis.com/`).
 *
 * @param url a URL accepted by `normalizeUrl()`.
 * @param hosting its hosting tenant (`HostingIndex.tenantOf`), or null.
 * @param platformHost whether the host is a hosting platform's (`HostingIndex.platformOf`).
 */
export function modelSite(
  url: ParsedUrl,
  hosting: HostingTenant | null,
  platformHost: boolean,
): ModelSite | null {
  if (url.ipVersion !== null || url.registrableDomain === null) return null;
  if (hosting !== null) {
    return hosting.tenancy === 'subdomain'
      ? { site: `${hosting.tenant}.${hosting.suffix}`, suffix: hosting.suffix }
      : null;
  }
  if (platformHost) return null;
  return { site: url.registrableDomain, suffix: url.publicSuffix ?? '' };
}
