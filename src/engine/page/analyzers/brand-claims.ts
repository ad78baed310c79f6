/**
 * @module engine/page/analyzers/brand-claims
 * Which brand a page presents itself as, on a site that brand does not own: the brand-mismatch
 * half of the reference-based detectors (detection.md §3.2: Phishpedia reports a page when its
 * identity brand "is not in that brand's domain list"; PhishIntention adds the credential half,
 * which the analyzers supply). Without a logo model the identity comes from text (§2.7 "brand
 * mismatch extraction without ML"):
 * - the identity places of `page-brands.ts` (title, site name, headings, logo `alt`, copyright);
 * - a brand's official domain written in those places (`impots.gouv.fr`, `USPS.com®`);
 * - the `saved from url=` mark of the web naming the page the kit was cloned from (IOK
 *   `mark-of-the-web`).
 * Resources hotlinked from the brand's own domains (logo, favicon, style sheet: the UCI
 * "favicon/request URL" features of §2.7) are collected as corroboration.
 *
 * Guards (§4.4): a page that names the brand owning its domain presents itself as that brand
 * (a carrier's page naming its parent group is not impersonation), so it claims nothing; a brand
 * named only in one heading is too weak (headings quote product names: "Air Max").
 */
import type { Brand } from '../../brand/brand-index.js';
import { resolveReference } from '../../url/resolve-reference.js';
import { identityBrands } from '../page-brands.js';
import type { PageContext } from '../page-context.js';
import type { PageDocument } from '../page-document.js';

/** A brand a page claims to be, on a domain the brand does not own. */
export interface BrandClaim {
  brand: Brand;
  /** Where the page names it (`title`, `logo`, `copyright`, `domain_name`, `clone_source` …). */
  places: string[];
  /** Hosts of resources the page loads from the brand's official domains. */
  hotlinks: string[];
}

/** Places that state an identity on their own (a lone heading does not). */
const STRONG_PLACES = new Set([
  'title',
  'site_name',
  'logo',
  'copyright',
  'domain_name',
  'clone_source',
]);
/** A host name written as text: labels joined by dots, ending in letters. */
const DOMAIN_NAME = /\b(?:[a-z0-9](?:[a-z0-9-]{0,40}[a-z0-9])?\.){1,4}[a-z]{2,12}\b/gi;
const SAVED_FROM = /saved from url=\(\d+\)\s*(\S{1,300})/i;
const LOGO_HINT = /logo|brand|icon/i;
const MAX_IMAGES = 30;
const MAX_RESOURCES = 80;

/**
 * The brands a page claims to be on a site they do not own, strongest first (most places).
 *
 * @param docs the page's documents (`pageDocuments(page)`), static first.
 * @param context the page's context: its URL, the brand catalog, the domain's owner.
 * @returns [] when the page names no brand, or names the brand that owns the site.
 */
export function brandClaims(docs: readonly PageDocument[], context: PageContext): BrandClaim[] {
  const base = context.analysis.url.href;
  const site = context.analysis.url.registrableDomain;
  const claims = new Map<Brand, Set<string>>();
  const add = (brand: Brand, place: string): void => {
    const places = claims.get(brand) ?? new Set<string>();
    places.add(place);
    claims.set(brand, places);
  };
  // The site's own domain named or cloned counts too: the owner guard below then clears the page.
  const officialBrand = (reference: string): Brand | undefined => {
    const domain = resolveReference(reference, base)?.registrableDomain;
    return domain === undefined || domain === null
      ? undefined
      : context.brands.officialBrand(domain);
  };

  for (const doc of docs) {
    for (const named of identityBrands(doc, context.brands)) {
      for (const place of named.places) add(named.brand, place);
    }
    for (const text of identityTexts(doc)) {
      for (const match of text.matchAll(DOMAIN_NAME)) {
        const brand = context.brands.officialBrand(match[0].toLowerCase());
        const named = brand ?? officialBrand(`https://${match[0]}/`);
        if (named !== undefined) add(named, 'domain_name');
      }
    }
    for (const comment of doc.comments.slice(0, 5)) {
      const source = SAVED_FROM.exec(comment)?.[1];
      const brand = source === undefined ? undefined : officialBrand(source);
      if (brand !== undefined) add(brand, 'clone_source');
    }
  }
  if (claims.size === 0) return [];
  // The page names the site's owner: it is that brand's page, whatever else it mentions.
  for (const brand of claims.keys()) {
    if (brand === context.owner || ownsSite(brand, site)) return [];
  }

  const hotlinks = new Map<Brand, Set<string>>();
  for (const doc of docs) {
    for (const reference of resources(doc)) {
      const resolved = resolveReference(reference, base);
      const domain = resolved?.registrableDomain;
      if (resolved === null || domain === null || domain === undefined || domain === site) continue;
      const brand = context.brands.officialBrand(domain);
      if (brand === undefined || !claims.has(brand)) continue;
      const hosts = hotlinks.get(brand) ?? new Set<string>();
      hosts.add(resolved.hostname);
      hotlinks.set(brand, hosts);
    }
  }

  return [...claims]
    .map(([brand, places]) => ({
      brand,
      places: [...places],
      hotlinks: [...(hotlinks.get(brand) ?? [])],
    }))
    .filter((c) => c.places.some((p) => STRONG_PLACES.has(p)) || c.places.length >= 2)
    .sort((a, b) => b.places.length - a.places.length || b.hotlinks.length - a.hotlinks.length);
}

/** Short description of a claim for evidence: `PayPal (title, logo; hotlinked paypalobjects.com)`. */
export function describeClaim(claim: BrandClaim): string {
  const hot =
    claim.hotlinks.length > 0 ? `; hotlinked ${claim.hotlinks.slice(0, 2).join(', ')}` : '';
  return `${claim.brand.name} (${claim.places.slice(0, 4).join(', ')}${hot})`;
}

function ownsSite(brand: Brand, site: string | null): boolean {
  return site !== null && brand.domains.includes(site);
}

/** Places where a page states its own name. */
function identityTexts(doc: PageDocument): string[] {
  const texts = [
    doc.title,
    doc.meta.get('og:site_name') ?? '',
    doc.meta.get('application-name') ?? '',
    ...doc.headings.slice(0, 8),
    ...doc.images
      .slice(0, MAX_IMAGES)
      .filter((i) => LOGO_HINT.test(`${i.alt} ${i.src}`))
      .map((i) => i.alt),
  ];
  return texts.filter((t) => t.includes('.'));
}

/** References of the resources that carry a brand's look: icons, style sheets, images, scripts. */
function resources(doc: PageDocument): string[] {
  return [
    ...doc.icons,
    ...doc.stylesheets,
    ...doc.images.map((i) => i.src),
    ...doc.scripts.flatMap((s) => (s.src === null ? [] : [s.src])),
  ]
    .filter((r) => r !== '' && !r.startsWith('data:'))
    .slice(0, MAX_RESOURCES);
}
