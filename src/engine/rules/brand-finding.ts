/**
 * @module engine/rules/brand-finding
 * Impersonation evidence: a brand seen somewhere in a URL whose registrable domain the brand does
 * not own. Each finding keeps its kind (how the brand was faked) and place (where in the URL), so
 * scoring can weigh `paypal-login.com` differently from `example.com/paypal/`.
 */
import type { Brand } from '../brand/brand-index.js';
import type { LabelContext, MatchHow } from './read-label.js';

/** How the brand was faked. */
export type FindingKind =
  /** A non-ASCII label that looks like the brand (UTS #39 skeleton). */
  | 'homoglyph'
  /** A brand's official domain inside a foreign host (`paypal.com.account-check.top`, `paypal-com`). */
  | 'embedded_domain'
  /** The brand token glued to or hyphenated with other words (`metamask-restore-wallet`). */
  | 'combosquat'
  /** A label that is exactly the brand token on a host the brand does not own (`paypal.evil.top`, `paypal.pages.dev`). */
  | 'brand_label'
  /** The site label equals the brand's but the suffix differs (`paypal.xyz`). */
  | 'tld_swap'
  /** Within edit distance 1–2 (`paypai`, `metamsk`). */
  | 'lookalike'
  /** ASCII characters that look like the brand's (`paypa1`, `rnicrosoft`). */
  | 'confusable'
  /** The brand's domain or name in the userinfo part (`https://paypal.com@evil.top/`). */
  | 'userinfo'
  /** The brand token in the path of a host it does not own (`/paypal/webscr/login.php`). */
  | 'path';

/** Where in the URL the brand was seen. */
export type FindingPlace = 'site' | 'subdomain' | 'userinfo' | 'path';

export interface BrandFinding {
  kind: FindingKind;
  place: FindingPlace;
  brand: Brand;
  /** The token or domain that matched. */
  token: string;
  /** The URL text it matched in. */
  matched: string;
  /** Edit distance of a lookalike, else 0. */
  distance: number;
  /** What surrounds the token in its label (`lure`, `odd`, `ordinary`); `odd` outside labels. */
  context: LabelContext;
}

/**
 * Finding kind of a label match.
 *
 * @param how how the token was found in the label.
 * @param place `site` for the label that names the site, `subdomain` for the others.
 * @param hosted whether the site is a tenant of a hosting platform (then a label equal to the
 *   brand is a brand-named tenant, not a TLD swap).
 */
export function findingKindOf(how: MatchHow, place: FindingPlace, hosted: boolean): FindingKind {
  switch (how) {
    case 'homoglyph':
      return 'homoglyph';
    case 'confusable':
      return 'confusable';
    case 'lookalike':
      return 'lookalike';
    case 'embedded':
      return 'embedded_domain';
    case 'hyphenated':
      return 'lookalike';
    case 'exact':
      return place === 'site' && !hosted ? 'tld_swap' : 'brand_label';
    case 'part':
    case 'substring':
    case 'segment':
      return 'combosquat';
  }
}

/** The `matched_patterns` code of a finding, e.g. `combosquat:paypal`. */
export function findingPattern(finding: BrandFinding): string {
  const where =
    finding.place === 'site' || finding.place === finding.kind ? '' : `@${finding.place}`;
  return `${finding.kind}${where}:${finding.token}`;
}

/** Strength order used to pick the finding that names the brand: lower is stronger. */
const KIND_RANK: Readonly<Record<FindingKind, number>> = {
  homoglyph: 0,
  embedded_domain: 1,
  userinfo: 2,
  combosquat: 3,
  confusable: 4,
  brand_label: 5,
  tld_swap: 6,
  lookalike: 7,
  path: 8,
};

/** Sort findings strongest first (stable). */
export function byStrength(a: BrandFinding, b: BrandFinding): number {
  return KIND_RANK[a.kind] - KIND_RANK[b.kind] || a.distance - b.distance;
}
