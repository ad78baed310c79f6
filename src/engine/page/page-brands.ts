/**
 * @module engine/page/page-brands
 * Which brands a page names, from the places a page states its identity (detection.md §2.7
 * "brand mismatch extraction without ML"): the title, `og:site_name`, `application-name`,
 * headings, logo `alt` text and the copyright line; and, for category rules, in the first part of
 * the body text. Names are matched as word n-grams against the brand catalog's names and aliases
 * (`BrandIndex.brandByName`), never as substrings, so "Paypal" matches but "appleton" does not.
 */
import { type Brand, type BrandIndex, normalizeBrandName } from '../brand/brand-index.js';
import type { PageDocument } from './page-document.js';

/** A brand named by a page and where. */
export interface NamedBrand {
  brand: Brand;
  /** Identity places naming it (`title`, `site_name`, `heading`, `logo`, `copyright`, `text`). */
  places: string[];
}

/** Longest brand name in words ("hm revenue and customs" is 4). */
const MAX_NGRAM = 4;
/** Body text scanned for brand names (characters): the lure is near the top of a page. */
const BODY_SCAN_CHARS = 20_000;
const MAX_LOGO_IMAGES = 30;
const COPYRIGHT =
  /(?:©|&copy;|\(c\)|copyright)\s*(?:\d{4}(?:\s*[-–]\s*\d{4})?)?\s*([^.|•·\n]{2,60})/giu;
/**
 * The owner written before the sign and a year: "Facebook © 2018", "Meta ©2024" (the last few
 * words before it).
 */
const COPYRIGHT_BEFORE =
  /((?:[\p{L}\p{N}&'’-]+[ \t]+){0,2}[\p{L}\p{N}&'’-]+)[ \t]*(?:©|&copy;)[ \t]*\d{4}\b/gu;
const WORD = /[\p{L}\p{N}&]+(?:['’.][\p{L}\p{N}]+)*/gu;

/** One brand named in text, and whether the name is specific to it. */
interface Mention {
  brand: Brand;
  /**
   * The name is the brand's own even where the brand is an ordinary word: several words
   * ("Intesa Sanpaolo", "Apple ID") or one word that is not the ordinary one ("BRImo" for BRI).
   */
  specific: boolean;
}

/**
 * Brands named by `text`, by word n-grams of up to four words. Diacritics are stripped and
 * look-alike letters of other scripts folded first, so `ḌḤL`, `Chɑse` and `Chαse` read as DHL
 * and Chase.
 *
 * @param every one entry per mention instead of per brand.
 */
export function brandsInText(text: string, brands: BrandIndex, every = false): Brand[] {
  const found: Brand[] = [];
  for (const { brand } of mentionsInText(text, brands)) {
    if (every || !found.includes(brand)) found.push(brand);
  }
  return found;
}

/**
 * Every brand mention in `text`, in order (see {@link brandsInText}).
 *
 * @param lookalikes also read one-word brand names written with ASCII look-alikes
 *   ({@link asciiLookalikeBrand}): only for identity places, where a name is displayed.
 */
function mentionsInText(text: string, brands: BrandIndex, lookalikes = false): Mention[] {
  const folded = brands.foldHomoglyphs(text.normalize('NFKD').replace(/\p{M}+/gu, ''));
  const words = folded.toLowerCase().match(WORD) ?? [];
  const found: Mention[] = [];
  const cased = lookalikes ? (folded.match(WORD) ?? []) : [];
  for (let i = 0; i < words.length; i += 1) {
    const lookalike = lookalikes ? asciiLookalikeBrand(cased[i] ?? '', brands) : undefined;
    if (lookalike !== undefined) {
      found.push({ brand: lookalike, specific: true });
      continue;
    }
    for (let n = Math.min(MAX_NGRAM, words.length - i); n >= 1; n -= 1) {
      const phrase = words.slice(i, i + n).join(' ');
      const brand = brands.brandByName(phrase);
      if (brand === undefined) continue;
      const core = normalizeBrandName(phrase);
      if (namesBrand(brand, core)) {
        found.push({ brand, specific: core.includes(' ') || !brand.tokens.includes(core) });
        i += n - 1;
        break;
      }
    }
  }
  return found;
}

/**
 * ASCII letters a name is spelled with to pass for another (`lnstagram` with a lower-case L for
 * the capital I, `PayPaI` with a capital I for the l, `G00gle`, `rnicrosoft`): the ASCII rows of
 * the Unicode confusables table (UTS #39) that survive lower-casing.
 */
const ASCII_LOOKALIKES: readonly (readonly [RegExp, string])[] = [
  [/l/g, 'i'],
  [/I/g, 'l'],
  [/0/g, 'o'],
  [/1/g, 'l'],
  [/rn/g, 'm'],
  [/vv/g, 'w'],
];
/** Shortest name read through look-alikes: shorter ones are one swap from ordinary words. */
const MIN_LOOKALIKE_LENGTH = 5;

/**
 * The brand a word spells with one kind of ASCII look-alike swapped back (`lnstagram` →
 * Instagram), or undefined when the word is a name as written or no swap gives a distinctive
 * brand name. Brands whose name is an ordinary word are left out.
 *
 * @param word one word as written (case kept: `PayPaI`).
 */
function asciiLookalikeBrand(word: string, brands: BrandIndex): Brand | undefined {
  if (word.length < MIN_LOOKALIKE_LENGTH || brands.brandByName(word) !== undefined)
    return undefined;
  for (const [from, to] of ASCII_LOOKALIKES) {
    const swapped = word.replace(from, to).toLowerCase();
    if (swapped === word.toLowerCase()) continue;
    const brand = brands.brandByName(swapped);
    if (brand !== undefined && !brand.commonWord && brand.tokens.includes(swapped)) return brand;
  }
  return undefined;
}

/**
 * True when `core` (the normalized words that matched) names `brand` in running text. One word
 * counts only when it is one of the brand's host tokens (`paypal`, `dhl`, `sparkasse`) or one of
 * its names built on a token (`raiffeisenbank`, `brimo` for BRI): other one-word aliases are
 * often ordinary words in some language (`e&` normalizes to Portuguese/Italian "e", HBO's `max`
 * is "Air Max", `united` is "United Kingdom"). Names of several words are specific enough.
 */
function namesBrand(brand: Brand, core: string): boolean {
  // Judged on the words that name it: "to the united" is the one word "united".
  if (core.includes(' ')) return true;
  if (core.length < 3) return false;
  return brand.tokens.some((word) => (word.length >= 3 ? core.includes(word) : core === word));
}

/**
 * Brands the page names in its identity places, strongest evidence first (most places).
 * Brands whose name is a common word ("Target", "Chase") count only in the title, the site name
 * and the copyright line, where they are used as names.
 */
export function identityBrands(doc: PageDocument, brands: BrandIndex): NamedBrand[] {
  const byBrand = new Map<Brand, Set<string>>();
  const add = (place: string, text: string, strict: boolean): void => {
    if (text === '') return;
    const seen = new Set<Brand>();
    for (const { brand, specific } of mentionsInText(text, brands, place !== 'copyright')) {
      if (seen.has(brand)) continue;
      seen.add(brand);
      if (brand.commonWord && !specific) {
        if (strict) continue;
        // An ordinary word names its brand where a name starts: "Chase | Sign in", "Orange
        // Espace Client" — not inside another name ("Astral Guild Forum" is not Guild.xyz).
        if (!startsSegment(text, brand, brands)) continue;
      }
      const places = byBrand.get(brand) ?? new Set<string>();
      places.add(place);
      byBrand.set(brand, places);
    }
  };
  add('title', doc.title, false);
  add('site_name', doc.meta.get('og:site_name') ?? '', false);
  add('site_name', doc.meta.get('application-name') ?? '', false);
  for (const heading of doc.headings.slice(0, 8)) add('heading', heading, true);
  for (const image of doc.images.slice(0, MAX_LOGO_IMAGES)) {
    if (/logo|brand|icon/i.test(`${image.alt} ${image.src}`)) add('logo', image.alt, false);
  }
  const tail = doc.text.slice(-BODY_SCAN_CHARS);
  for (const match of tail.matchAll(COPYRIGHT)) add('copyright', match[1] ?? '', false);
  for (const match of tail.matchAll(COPYRIGHT_BEFORE)) add('copyright', match[1] ?? '', false);
  // A distinctive brand name repeated at the top of what the visitor reads: kits that show the
  // brand only in body text and images (`DHL`, written `ḌḤL`, in a parcel-fee page).
  for (const brand of repeatedBrands(doc.visibleText.slice(0, TOP_TEXT_CHARS), brands)) {
    const places = byBrand.get(brand) ?? new Set<string>();
    places.add('text');
    byBrand.set(brand, places);
  }
  return [...byBrand]
    .map(([brand, places]) => ({ brand, places: [...places] }))
    .sort((a, b) => b.places.length - a.places.length);
}

/** Separators between the parts of a title or site name (`Sign in | Chase`, `Chase - Login`). */
const SEGMENT = /\s*(?:[|:·•–—/,]|\s-\s)\s*/u;

/** True when one of `text`'s segments begins with a name of `brand`. */
function startsSegment(text: string, brand: Brand, brands: BrandIndex): boolean {
  return text.split(SEGMENT).some((segment) => {
    const words =
      brands
        .foldHomoglyphs(segment.normalize('NFKD').replace(/\p{M}+/gu, ''))
        .toLowerCase()
        .match(WORD) ?? [];
    for (let n = 1; n <= Math.min(MAX_NGRAM, words.length); n += 1) {
      if (brands.brandByName(words.slice(0, n).join(' ')) === brand) return true;
    }
    return false;
  });
}

/** Visible text read for repeated brand names (characters). */
const TOP_TEXT_CHARS = 3000;

/** Brands named at least twice in `text` (ordinary-word brands by a specific name). */
function repeatedBrands(text: string, brands: BrandIndex): Brand[] {
  const counts = new Map<Brand, number>();
  for (const { brand, specific } of mentionsInText(text, brands)) {
    if (!brand.commonWord || specific) counts.set(brand, (counts.get(brand) ?? 0) + 1);
  }
  return [...counts].filter(([, n]) => n >= 2).map(([brand]) => brand);
}

/** Brands named in the first part of the body text (for category rules: carriers, agencies). */
export function bodyBrands(doc: PageDocument, brands: BrandIndex): Brand[] {
  const found = new Set<Brand>();
  for (const { brand, specific } of mentionsInText(doc.text.slice(0, BODY_SCAN_CHARS), brands)) {
    if (!brand.commonWord || specific) found.add(brand);
  }
  return [...found];
}

/** True when `brand` owns the registrable domain (the page is on the brand's own site). */
export function ownsDomain(brand: Brand, registrableDomain: string | null): boolean {
  return registrableDomain !== null && brand.domains.includes(registrableDomain);
}
