/**
 * @module intel/history-key
 * The name a verdict is recorded under in the per-domain history (and looked up by
 * `linkguard history`): the registrable domain, or the tenant's own name on a hosting platform
 * (`x.weebly.com`: one tenant's verdict is not the platform's record). Never a URL.
 */
import type { Engine } from '../engine/create-engine.js';
import type { SiteReading } from '../engine/rules/analyze-url.js';
import type { ParsedUrl } from '../engine/url/normalize-url.js';

/**
 * @returns the history key, or null when there is none: path tenants (`docs.google.com/forms/…`,
 *   where the only name is the platform's) and hosts without a registrable domain.
 */
export function historyKey(engine: Engine, url: ParsedUrl): string | null {
  return historyKeyOf({
    url,
    hosting: engine.context.hosting.tenantOf(url.hostname, url.pathname),
  });
}

/**
 * {@link historyKey} from layer 1's reading of the URL (the detection service's analysis, or
 * `readSite()`): the hosting tenant is not looked up again.
 */
export function historyKeyOf(site: Pick<SiteReading, 'url' | 'hosting'>): string | null {
  const tenant = site.hosting;
  if (tenant === null) return site.url.registrableDomain;
  return tenant.tenancy === 'subdomain' ? `${tenant.tenant}.${tenant.suffix}` : null;
}
