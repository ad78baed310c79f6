/**
 * @module engine/page/analyzers/brand-claims
 * Which brand a page presents itself as, on a site that brand does not own: the brand-mismatch
 * half of the reference-based detectors (Phishpedia, USENIX Security 2021, reports a page when its
 * identity brand "is not in that brand's domain list"; PhishIntention, USENIX Security 2022, adds
 * the credential half, which the analyzers supply). Without a logo model the identity comes from
 * what the HTML says (KnowPhish, USENIX Security 2024, reads the brand from text):
 * - the identity places of `page-brands.ts`: title, site name, headings, logo `alt`, copyright,
 *   and a brand named repeatedly at the top of the body text;
 * - a brand's official domain written in those places (`impots.gouv.fr`, `USPS.com®`), or named
 *   as the page's own address (`<link rel=canonical>`, `og:url`, `og:image`);
 * - the `saved from url=` mark of the web naming the page the kit was cloned from, and the field
 *   identifiers and interface phrases of a big brand's own sign-in page cloned with it
 *   (`loginfmt` + `idSIButton9`; "Email, phone, or Skype" + "No account? Create one!"), see
 *   `sign-in-fingerprints.ts`;
 * - the brand's look loaded from its own servers: a favicon or logo image hotlinked from an
 *   official domain, and (weakly) other images, style sheets and scripts from there.
 *
 * Each claim has a strength: `strong` (title, site name, logo `alt`, an official domain named or
 * used as the page's address, the clone source, a hotlinked favicon next to another place, or
 * three places), `medium` (a heading, the copyright line, a favicon or logo image hotlinked from
 * the brand, or two places) and `weak` (body text or other hotlinks alone). Analyzers decide
 * what each strength needs.
 *
 * Guards against pages that mention a brand without claiming to be it:
 * - the page names the brand that owns its domain: it is that brand's page (a carrier's page
 *   naming its parent group), so it claims nothing;
 * - sister sites: the site's own name is the brand's token under another legitimate TLD
 *   (`oneplus.net` for OnePlus): a company's second domain, not a disguise (an abused TLD is
 *   left to the URL rules);
 * - the page names itself: its title or site name carries the site's own name, so other brands
 *   in headings, the copyright line, the body, logos or loaded assets are mentions (a shop
 *   writing about Apple next to its own login box, "follow us" logos), and a brand inside that
 *   own name (`Pokemon Pets` on pokemonpets.com) is the site's name unless the URL rules found
 *   the name impersonating it;
 * - social sign-in and payment buttons: a "Sign in with Google" or "Pay with PayPal" control makes
 *   that brand's logo, name and assets part of a button, not the page's identity; card networks'
 *   marks likewise (every checkout shows them).
 */
import type { Brand } from '../../brand/brand-index.js';
import { resolveReference } from '../../url/resolve-reference.js';
import { identityBrands } from '../page-brands.js';
import type { PageContext } from '../page-context.js';
import type { PageDocument } from '../page-document.js';
import { signInFingerprintBrands } from './sign-in-fingerprints.js';

/** How firmly a page presents itself as a brand. */
export type ClaimStrength = 'strong' | 'medium' | 'weak';

/** A brand a page claims to be, on a domain the brand does not own. */
export interface BrandClaim {
  brand: Brand;
  /**
   * Where the page names it (`title`, `site_name`, `logo`, `copyright`, `heading`, `text`,
   * `domain_name`, `canonical`, `clone_source`, `favicon`, `hotlink`).
   */
  places: string[];
  /** Hosts of resources the page loads from the brand's official domains. */
  hotlinks: string[];
  strength: ClaimStrength;
  /**
   * The page also names itself (its title or site name carries the site's own name), so a title
   * naming the brand may be a topic ("Wells Fargo scams | Garden Notes") as much as a disguise.
   */
  selfNamed: boolean;
}

/** Places that state an identity on their own. */
const STRONG_PLACES: ReadonlySet<string> = new Set([
  'title',
  'site_name',
  'logo',
  'domain_name',
  'canonical',
  'clone_source',
]);
/**
 * Places that say less: a heading quotes product names, a copyright line names a parent, a logo
 * loaded from the brand's servers may be its payment or partner badge.
 */
const MEDIUM_PLACES: ReadonlySet<string> = new Set(['heading', 'copyright', 'logo_hotlink']);
/**
 * Places a page that names itself uses to mention other brands: headings, the copyright line,
 * body text, partner and social-profile logos, and assets loaded from a platform's servers (a
 * Shopify store's favicon lives on `cdn.shopify.com`).
 */
const MENTION_PLACES: ReadonlySet<string> = new Set([
  'heading',
  'copyright',
  'text',
  'logo',
  'favicon',
  'hotlink',
  'logo_hotlink',
]);
/**
 * Card networks: their marks sit on every checkout page as the accepted ways to pay, so only the
 * title, the site name or their domain named as text makes a page claim to be one of them.
 */
const CARD_NETWORKS: ReadonlySet<string> = new Set([
  'visa',
  'mastercard',
  'american-express',
  'discover',
  'diners-club',
  'jcb',
  'unionpay',
  'rupay',
]);
/** Places that survive for a brand offered as a sign-in or payment button, or a card network. */
const NAME_PLACES: ReadonlySet<string> = new Set(['title', 'site_name', 'domain_name']);
/** A host name written as text: labels joined by dots, ending in letters. */
const DOMAIN_NAME = /\b(?:[a-z0-9](?:[a-z0-9-]{0,40}[a-z0-9])?\.){1,4}[a-z]{2,12}\b/gi;
const SAVED_FROM = /saved from url=\(\d+\)\s*(\S{1,300})/i;
const LOGO_HINT = /logo|brand/i;
const MAX_IMAGES = 30;
const MAX_RESOURCES = 80;
/** Meta tags that state the page's own address or image. */
const SELF_META = ['og:url', 'og:image', 'twitter:image', 'og:image:url'];
/**
 * Text of a sign-in or payment button naming another brand: "Sign in with Google", "Continue
 * with Apple", "Pay with PayPal" …
 */
const SOCIAL_SIGN_IN =
  /\b(?:(?:sign|log)\s*(?:in|on|up)|login|continue|connect|register|pay|checkout|check\s+out|buy|donate)\s+(?:with|via|using)\s+|\b(?:iniciar\s+sesi[oó]n|entrar|acceder|continuar|registrarse)\s+con\s+|\b(?:anmelden|einloggen|fortfahren)\s+mit\s+|\b(?:se\s+connecter|continuer|s'inscrire)\s+avec\s+|\b(?:entrar|continuar)\s+com\s+/i;

/**
 * The brands a page claims to be on a site they do not own, strongest first.
 *
 * @param docs the page's documents (`pageDocuments(page)`), static first.
 * @param context the page's context: its URL, the brand catalog, the domain's owner.
 * @returns [] when the page names no brand, or names the brand that owns the site.
 */
export function brandClaims(docs: readonly PageDocument[], context: PageContext): BrandClaim[] {
  const base = context.analysis.url.href;
  const site = context.analysis.url.registrableDomain;
  const claims = new Map<Brand, Set<string>>();
  const hotlinks = new Map<Brand, Set<string>>();
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
    for (const reference of selfReferences(doc)) {
      const brand = officialBrand(reference);
      if (brand !== undefined) add(brand, 'canonical');
    }
    for (const id of signInFingerprintBrands(doc)) {
      const brand = context.brands.brandByName(id);
      if (brand !== undefined) add(brand, 'clone_source');
    }
    for (const comment of doc.comments.slice(0, 5)) {
      const source = SAVED_FROM.exec(comment)?.[1];
      const brand = source === undefined ? undefined : officialBrand(source);
      if (brand !== undefined) add(brand, 'clone_source');
    }
    for (const { reference, place } of resources(doc)) {
      const resolved = resolveReference(reference, base);
      const domain = resolved?.registrableDomain;
      if (resolved === null || domain === null || domain === undefined || domain === site) continue;
      const brand = context.brands.officialBrand(domain);
      if (brand === undefined) continue;
      add(brand, place);
      const hosts = hotlinks.get(brand) ?? new Set<string>();
      hosts.add(resolved.hostname);
      hotlinks.set(brand, hosts);
    }
  }
  if (claims.size === 0) return [];
  // The page names the site's owner: it is that brand's page, whatever else it mentions.
  for (const brand of claims.keys()) {
    if (brand === context.owner || ownsSite(brand, site)) return [];
  }

  const selfNamed = namesItself(docs, context);
  const social = socialSignIns(docs, context);
  const siteName = siteNameOf(context);
  const out: BrandClaim[] = [];
  for (const [brand, placeSet] of claims) {
    if (isSisterSite(brand, context)) continue;
    // A page that names itself after a site whose name contains the brand's (`Pokemon Pets` on
    // pokemonpets.com): a fan site or reseller, unless the URL rules already read the name as
    // impersonation (`sparkasse-onlinebanking.icu`).
    if (
      selfNamed &&
      siteName !== null &&
      !context.urlBrands.has(brand) &&
      brand.tokens.some((t) => siteName.includes(t))
    ) {
      continue;
    }
    let places = [...placeSet];
    if (selfNamed) places = places.filter((p) => !MENTION_PLACES.has(p));
    if (social.has(brand) || CARD_NETWORKS.has(brand.id)) {
      places = places.filter((p) => NAME_PLACES.has(p));
    }
    if (places.length === 0) continue;
    out.push({
      brand,
      places,
      hotlinks: [...(hotlinks.get(brand) ?? [])],
      strength: strengthOf(places),
      selfNamed,
    });
  }
  const rank = { strong: 2, medium: 1, weak: 0 } as const;
  return out.sort(
    (a, b) =>
      rank[b.strength] - rank[a.strength] ||
      b.places.length - a.places.length ||
      b.hotlinks.length - a.hotlinks.length,
  );
}

/** Short description of a claim for evidence: `PayPal (title, logo; hotlinked paypalobjects.com)`. */
export function describeClaim(claim: BrandClaim): string {
  const hot =
    claim.hotlinks.length > 0 ? `; hotlinked ${claim.hotlinks.slice(0, 2).join(', ')}` : '';
  return `${claim.brand.name} (${claim.places.slice(0, 4).join(', ')}${hot})`;
}

function strengthOf(places: readonly string[]): ClaimStrength {
  if (places.some((p) => STRONG_PLACES.has(p)) || places.length >= 3) return 'strong';
  // The brand's favicon is its face, but a platform serves its customers' favicons from its own
  // servers too: strong next to another place, medium alone.
  if (places.includes('favicon')) return places.length >= 2 ? 'strong' : 'medium';
  if (places.some((p) => MEDIUM_PLACES.has(p)) || places.length >= 2) return 'medium';
  return 'weak';
}

function ownsSite(brand: Brand, site: string | null): boolean {
  return site !== null && brand.domains.includes(site);
}

/** The site's own name as one string of letters and digits (`astralguild`), or null. */
function siteNameOf(context: PageContext): string | null {
  const { analysis } = context;
  const label =
    analysis.hosting !== null
      ? analysis.hosting.tenancy === 'subdomain'
        ? analysis.hosting.tenant
        : null
      : analysis.url.domainLabel;
  if (label === null) return null;
  const name = label.toLowerCase().replace(/[^a-z0-9]/g, '');
  return name.length >= 4 ? name : null;
}

/**
 * A company's other domain: the site's name is exactly one of the brand's tokens, on a
 * legitimate TLD and not as a free-hosting tenant (`oneplus.net` for OnePlus).
 */
function isSisterSite(brand: Brand, context: PageContext): boolean {
  const { analysis } = context;
  if (analysis.hosting !== null || analysis.tldTier === 'a' || analysis.tldTier === 'b') {
    return false;
  }
  const label = analysis.url.domainLabel?.toLowerCase().replace(/-/g, '');
  return label !== undefined && brand.tokens.includes(label);
}

/** True when the title or site name carries the site's own name: the page names itself. */
function namesItself(docs: readonly PageDocument[], context: PageContext): boolean {
  const name = siteNameOf(context);
  if (name === null) return false;
  return docs.some((doc) =>
    [doc.title, doc.meta.get('og:site_name') ?? '', doc.meta.get('application-name') ?? ''].some(
      (text) =>
        text
          .toLowerCase()
          .normalize('NFKD')
          .replace(/[^a-z0-9]/g, '')
          .includes(name),
    ),
  );
}

/**
 * Brands offered as a way to sign in or pay, by the text of a control ("Sign in with X", "Pay
 * with X"). Links into a brand's sign-in endpoints are not counted: a page cloned from that
 * brand's own sign-in page is full of them.
 */
function socialSignIns(docs: readonly PageDocument[], context: PageContext): Set<Brand> {
  const out = new Set<Brand>();
  for (const doc of docs) {
    const controls = [
      ...doc.buttons,
      ...doc.links.map((l) => l.text),
      ...doc.images.slice(0, MAX_IMAGES).map((i) => i.alt),
    ];
    for (const text of controls) {
      const match = SOCIAL_SIGN_IN.exec(text);
      if (match === null) continue;
      const rest = text.slice(match.index + match[0].length).trim();
      const brand = context.brands.brandByName(rest.split(/\s+/).slice(0, 3).join(' '));
      const first = context.brands.brandByName(rest.split(/\s+/)[0] ?? '');
      for (const b of [brand, first]) if (b !== undefined) out.add(b);
    }
  }
  return out;
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

/** Addresses a page gives as its own: canonical link, `og:url`, `og:image`. */
function selfReferences(doc: PageDocument): string[] {
  const out: string[] = [];
  if (doc.canonical !== null) out.push(doc.canonical);
  for (const key of SELF_META) {
    const value = doc.meta.get(key);
    if (value !== undefined && value !== '') out.push(value);
  }
  return out.filter((r) => /^https?:\/\//i.test(r));
}

/**
 * Resources that carry a brand's look, with the place a hotlink from the brand's domain gives:
 * a favicon or a logo image is the page's identity, other assets only hint at it.
 */
function resources(doc: PageDocument): { reference: string; place: string }[] {
  const out: { reference: string; place: string }[] = [
    ...doc.icons.map((reference) => ({ reference, place: 'favicon' })),
    ...doc.images.slice(0, MAX_IMAGES).map((image) => ({
      reference: image.src,
      place: LOGO_HINT.test(`${image.alt} ${image.src}`) ? 'logo_hotlink' : 'hotlink',
    })),
    ...doc.stylesheets.map((reference) => ({ reference, place: 'hotlink' })),
    ...doc.scripts.flatMap((s) => (s.src === null ? [] : [{ reference: s.src, place: 'hotlink' }])),
  ];
  return out
    .filter(({ reference }) => reference !== '' && !reference.startsWith('data:'))
    .slice(0, MAX_RESOURCES);
}
