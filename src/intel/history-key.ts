/**
 * @module intel/history-key
 * The name a verdict is recorded under in the per-domain history (and looked up by
 * `linkguard history`): the registrable domain, or the tenant's own name on a hosting platform
 * (`x.weebly.com`: one tenant's verdict is not the platform's record). Never a URL.
 */
import type { Engine } from '../engine/create-engine.js';
import type { ParsedUrl } from '../engine/url/normalize-url.js';

/**
 * @returns the history key, or null when there is none: path tenants (`docs.google.com/forms/…`,
 *   where the only name is the platform's) and hosts without a registrable domain.
 */
export function historyKey(engine: Engine, url: ParsedUrl): string | null {
  const tenant = engine.context.hosting.tenantOf(url.hostname, url.pathname);
  if (tenant === null) return url.registrableDomain;
  return tenant.tenancy === 'subdomain' ? `${tenant.tenant}.${tenant.suffix}` : null;
}
