/**
 * @module engine/scoring/describe-finding
 * Human sentences for brand findings. The reason of every non-safe verdict names the brand, the
 * text that matched and the brand's real domain, the way Chrome's "Did you mean …?" does, so a
 * person can check it (detection.md §4.4 item 7).
 */
import type { BrandFinding } from '../rules/brand-finding.js';

/** One sentence describing a finding, e.g. `"metamask-restore-wallet" uses the name MetaMask`. */
export function describeFinding(finding: BrandFinding, host: string): string {
  const brand = finding.brand.name;
  switch (finding.kind) {
    case 'homoglyph':
      return `"${finding.matched}" imitates ${brand} with look-alike Unicode characters`;
    case 'embedded_domain':
      return `${host} starts with ${brand}'s domain name but belongs to someone else`;
    case 'userinfo':
      return `the link shows "${finding.matched}" before an "@", but leads to ${host}`;
    case 'combosquat':
      return `${host} combines the name ${brand} with other words`;
    case 'brand_label':
      return `${host} uses the name ${brand} as a label on a host ${brand} does not own`;
    case 'tld_swap':
      return `${host} copies ${brand}'s name under a domain ${brand} does not own`;
    case 'lookalike':
      return `"${finding.matched}" is one or two letters away from ${brand}`;
    case 'confusable':
      return `"${finding.matched}" imitates ${brand} with look-alike characters`;
    case 'path':
      return `the path mentions ${brand} on a site ${brand} does not own`;
  }
}
