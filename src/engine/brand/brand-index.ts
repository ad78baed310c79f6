/**
 * @module engine/brand/brand-index
 * Indexes of the brand catalog built once at start-up so that every per-URL question is a few map
 * look-ups instead of a scan over 550+ brands (stack.md §3.3: Levenshtein against 500 labels costs
 * 34 µs; the indexes below answer in about 1 µs):
 * - official registrable domain → brand;
 * - exact token → brand token;
 * - 3-character prefix → distinctive tokens, for substring search inside a label;
 * - skeleton of each token, for homoglyph comparison;
 * - the single- and double-deletion neighbourhood of each lookalike-eligible token (the SymSpell
 *   idea), so candidates within edit distance 1–2 are found by look-up and then verified with
 *   {@link osaDistance}.
 */
import { getDomainWithoutSuffix } from 'tldts';

import { BoundedMemo } from '../bounded-memo.js';
import type { BrandCategory, BrandRecord } from '../engine-data.js';
import { osaDistance } from './osa-distance.js';

/** A brand ready for detection. */
export interface Brand {
  id: string;
  name: string;
  aliases: readonly string[];
  tokens: readonly string[];
  commonWord: boolean;
  /** Self-hosted software (Roundcube, cPanel): its name on other hosts is an install, not a fake. */
  selfHosted: boolean;
  domains: readonly string[];
  /** First official domain, reported as `details.official_domain`. */
  primaryDomain: string;
  category: BrandCategory;
  country: string;
  scope: 'global' | 'national';
}

/** One token of one brand. */
export interface BrandToken {
  token: string;
  brand: Brand;
  /**
   * Distinctive tokens (not a common word, at least {@link MIN_DISTINCTIVE_LENGTH} characters)
   * count wherever they appear in a label; others only as whole words.
   */
  distinctive: boolean;
  /** Edit-distance lookalikes are only computed for distinctive tokens of ≥ 5 characters. */
  skeleton: string;
  /** {@link lookalikeTolerance} of the token (0 for tokens never matched by edit distance). */
  tolerance: number;
}

/** A token found inside a string by {@link BrandIndex.findDistinctive}. */
export interface TokenHit {
  entry: BrandToken;
  index: number;
}

/** A lookalike candidate from {@link BrandIndex.findLookalikes}. */
export interface LookalikeHit {
  entry: BrandToken;
  distance: number;
}

/** Shortest token core compared by edit distance. */
const MIN_LOOKALIKE_CORE = 6;

/** Shortest token that may match as a substring of a longer word. */
export const MIN_DISTINCTIVE_LENGTH = 5;

/**
 * Category words that many brand names end with. A token that is a short prefix plus one of these
 * (`mbank`, `isbank`, `debank`, `c6bank`) is not distinctive: its letters occur inside other
 * institutions' names (`fincombank`, `cascadebank`), so it only counts as a whole word.
 */
const GENERIC_ENDINGS = [
  'bank',
  'banking',
  'pay',
  'wallet',
  'swap',
  'coin',
  'finance',
  'exchange',
  'capital',
  'credit',
  'card',
  'money',
  'cash',
  'trade',
  'group',
  'net',
  'online',
  'mobile',
  'app',
  'direct',
  'post',
  'mail',
  'cloud',
  'tech',
  'labs',
  'games',
  'play',
  'store',
  'shop',
  'bet',
  'tv',
  'fi',
  'go',
  'id',
];

/** The token without a generic ending (`isbank` → `is`), or the token itself. */
export function tokenCore(token: string): string {
  for (const ending of GENERIC_ENDINGS) {
    if (token.length > ending.length && token.endsWith(ending))
      return token.slice(0, -ending.length);
  }
  return token;
}

/** Lookalike searches remembered by label (labels recur across URLs). */
const LOOKALIKE_MEMO_SIZE = 50_000;

/**
 * Largest edit distance at which a label counts as a lookalike of a token: 1 from 5 characters, 2
 * from 10 (detection.md §1.2 step 2, after MetaMask's tolerance-1 lesson, §1.4) — measured on the
 * token's core, so `dsbbank` is not an edit of `asbbank` (the edit falls in a 3-letter core).
 */
export function lookalikeTolerance(token: string): number {
  const core = tokenCore(token).length;
  // Five-letter names have too many real neighbours (`tesco`/`tisco`, `shein`/`rhein`).
  if (core < MIN_LOOKALIKE_CORE) return 0;
  return token.length >= 10 && core >= 8 ? 2 : 1;
}

export class BrandIndex {
  readonly brands: readonly Brand[];
  private readonly byDomain = new Map<string, Brand>();
  private readonly byToken = new Map<string, BrandToken>();
  private readonly bySkeleton = new Map<string, BrandToken>();
  private readonly byDomainLabel = new Map<string, Brand>();
  /** First three characters as one number ({@link trigramKey}) → distinctive tokens. */
  private readonly byPrefix = new Map<number, BrandToken[]>();
  private readonly bySkeletonPrefix = new Map<number, BrandToken[]>();
  /** Hash of each deletion variant (≤ tolerance characters removed) → tokens, see {@link deletionHashes}. */
  private readonly deletions = new Map<number, BrandToken[]>();
  /** A bit per hash bucket of {@link deletions} (2^20 buckets): a cheap "certainly absent" test. */
  private readonly deletionBits = new Uint32Array(BIT_MASK + 1);
  private readonly byName = new Map<string, Brand>();
  /** Token lengths with tolerance ≥ 1 and = 2, to skip impossible lookalike searches. */
  private readonly lookalikeLengths: [Set<number>, Set<number>] = [new Set(), new Set()];
  private readonly lookalikeMemo = new BoundedMemo<LookalikeHit[]>(LOOKALIKE_MEMO_SIZE);
  private readonly spelledNames = new Map<Brand, Set<string>>();
  private readonly skeleton: (text: string) => string;
  /** Non-ASCII characters → their ASCII look-alike ('' when they have none). */
  private readonly folds = new Map<string, string>();

  /**
   * @param records the catalog, already validated by the loader.
   * @param skeleton the UTS #39 skeleton function.
   * @throws {Error} when two brands claim the same domain or token (the catalog test prevents it;
   *   this guards hand edits).
   */
  constructor(records: readonly BrandRecord[], skeleton: (text: string) => string) {
    this.skeleton = skeleton;
    this.brands = records.map((record) => {
      const brand: Brand = {
        id: record.id,
        name: record.name,
        aliases: record.aliases,
        tokens: record.tokens,
        commonWord: record.common_word,
        selfHosted: record.self_hosted === true,
        domains: record.domains,
        primaryDomain: record.domains[0] ?? '',
        category: record.category,
        country: record.country,
        scope: record.scope,
      };
      this.indexBrand(brand, skeleton);
      return brand;
    });
    // Aliases after every id and display name: one brand's informal alias ("saga") must not
    // shadow another brand's own name.
    for (const brand of this.brands) this.indexNames(brand, brand.aliases);
  }

  private indexNames(brand: Brand, names: readonly string[]): void {
    for (const name of names) {
      if (!this.byName.has(name)) this.byName.set(name, brand);
      const normalized = normalizeBrandName(name);
      if (normalized !== '' && !this.byName.has(normalized)) this.byName.set(normalized, brand);
    }
  }

  /** The brand owning this registrable domain, if any. */
  officialBrand(registrableDomain: string): Brand | undefined {
    return this.byDomain.get(registrableDomain);
  }

  /** The token entry for an exact token value (`paypal`), if any. */
  token(value: string): BrandToken | undefined {
    return this.byToken.get(value);
  }

  /** The token whose skeleton equals this skeleton, if any. */
  tokenBySkeleton(skeleton: string): BrandToken | undefined {
    return this.bySkeleton.get(skeleton);
  }

  /** The brand one of whose official domains has this label (`paypal` of `paypal.co.uk`). */
  brandByDomainLabel(label: string): Brand | undefined {
    return this.byDomainLabel.get(label);
  }

  /**
   * True when `label` spells one of the brand's names word by word with hyphens
   * (`bank-of-china` for "Bank of China"): the name itself, not a disguise of it.
   */
  isSpelledName(brand: Brand, label: string): boolean {
    return this.spelledNames.get(brand)?.has(label) ?? false;
  }

  /**
   * A brand by id, name or alias. Case, punctuation, a `.com` suffix and corporate suffixes are
   * ignored: "eBay, Inc.", "Amazon.com" and "Bank of America Corporation" find their brands.
   */
  brandByName(name: string): Brand | undefined {
    return this.byName.get(name.trim().toLowerCase()) ?? this.byName.get(normalizeBrandName(name));
  }

  /**
   * `text` with every non-ASCII letter that looks like an ASCII letter written as that letter
   * (UTS #39 confusable prototypes: Latin `ɑ`, Greek `α`, Cyrillic `а` → `a`), so a page that
   * writes `Chɑse` or `Chαse` names Chase. ASCII text is returned as is: the skeleton's own ASCII
   * mappings (`m` → `rn`) would garble ordinary words.
   */
  foldHomoglyphs(text: string): string {
    let out = '';
    let changed = false;
    for (const char of text) {
      if (char.charCodeAt(0) < 128) {
        out += char;
        continue;
      }
      let folded = this.folds.get(char);
      if (folded === undefined) {
        const prototype = this.skeleton(char);
        folded = /^[\x21-\x7e]+$/.test(prototype) && prototype.length <= 2 ? prototype : char;
        if (this.folds.size < 4096) this.folds.set(char, folded);
      }
      if (folded !== char) changed = true;
      out += folded;
    }
    return changed ? out : text;
  }

  /** Every distinctive token occurring as a substring of `text` (raw characters). */
  findDistinctive(text: string): TokenHit[] {
    return findByPrefix(text, this.byPrefix, (entry) => entry.token);
  }

  /** Every distinctive token whose skeleton occurs in `skeletonText` (a skeleton string). */
  findDistinctiveInSkeleton(skeletonText: string): TokenHit[] {
    return findByPrefix(skeletonText, this.bySkeletonPrefix, (entry) => entry.skeleton);
  }

  /**
   * Tokens within lookalike tolerance of `label` (but not equal to it).
   *
   * @param label a hyphen-free ASCII label of at least 4 characters.
   */
  findLookalikes(label: string): LookalikeHit[] {
    const memo = this.lookalikeMemo.get(label);
    if (memo !== undefined) return memo;
    return this.lookalikeMemo.remember(label, this.searchLookalikes(label));
  }

  private searchLookalikes(label: string): LookalikeHit[] {
    const near = (lengths: Set<number>, spread: number): boolean => {
      for (let d = -spread; d <= spread; d++) if (lengths.has(label.length + d)) return true;
      return false;
    };
    const [oneEdit, twoEdits] = this.lookalikeLengths;
    // A label's 2-deletion variants (length L − 2) can only meet a token's ≤ 2-deletion variants
    // when the token is L − 2 … L long: only then is the quadratic neighbourhood worth building.
    const twoDeep = [0, 1, 2].some((d) => twoEdits.has(label.length - d));
    const maxDepth = twoDeep ? 2 : near(twoEdits, 2) || near(oneEdit, 1) ? 1 : 0;
    if (maxDepth === 0) return [];
    const hits = new Map<BrandToken, number>();
    const bits = this.deletionBits;
    for (const variant of deletionHashes(label, maxDepth)) {
      // Most variants match no token: a bit test spares the map look-up.
      if (((bits[(variant >>> 5) & BIT_MASK] ?? 0) & (1 << (variant & 31))) === 0) continue;
      for (const entry of this.deletions.get(variant) ?? []) {
        if (hits.has(entry) || entry.token === label) continue;
        const limit = entry.tolerance;
        // Each edit changes the length by at most one: a cheap test before the distance.
        if (Math.abs(entry.token.length - label.length) > limit) continue;
        const distance = osaDistance(label, entry.token, limit);
        if (distance <= limit) hits.set(entry, distance);
      }
    }
    return [...hits].map(([entry, distance]) => ({ entry, distance }));
  }

  private indexBrand(brand: Brand, skeleton: (text: string) => string): void {
    for (const domain of brand.domains) {
      claim(this.byDomain, domain, brand, 'domain');
      const label = getDomainWithoutSuffix(domain, { allowPrivateDomains: true });
      if (label !== null && label.length >= 4 && !this.byDomainLabel.has(label)) {
        this.byDomainLabel.set(label, brand);
      }
    }
    const spelled = new Set<string>();
    this.indexNames(brand, [brand.id, brand.name.toLowerCase()]);
    // Only the display name: aliases include informal splits ("meta mask") that are disguises.
    const words = brand.name
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w !== '');
    if (words.length > 1) spelled.add(words.join('-'));
    this.spelledNames.set(brand, spelled);
    for (const token of brand.tokens) {
      const entry: BrandToken = {
        token,
        brand,
        distinctive:
          !brand.commonWord &&
          token.length >= MIN_DISTINCTIVE_LENGTH &&
          tokenCore(token).length >= 3,
        skeleton: skeleton(token),
        tolerance: lookalikeTolerance(token),
      };
      claim(this.byToken, token, entry, 'token');
      if (!this.bySkeleton.has(entry.skeleton)) this.bySkeleton.set(entry.skeleton, entry);
      if (!entry.distinctive) continue;
      push(this.byPrefix, trigramKey(token, 0), entry);
      push(this.bySkeletonPrefix, trigramKey(entry.skeleton, 0), entry);
      const { tolerance } = entry;
      if (tolerance === 0) continue;
      this.lookalikeLengths[tolerance - 1]?.add(token.length);
      for (const variant of new Set(deletionHashes(token, tolerance))) {
        push(this.deletions, variant, entry);
        const word = (variant >>> 5) & BIT_MASK;
        this.deletionBits[word] = (this.deletionBits[word] ?? 0) | (1 << (variant & 31));
      }
    }
  }
}

/** Corporate words that do not name a brand ("Inc.", "Corporation", "S.A." …). */
const CORPORATE_WORDS: ReadonlySet<string> = new Set([
  'inc',
  'incorporated',
  'corporation',
  'corp',
  'co',
  'company',
  'group',
  'sa',
  'plc',
  'ltd',
  'limited',
  'llc',
  'ag',
  'nv',
  'bv',
  'gmbh',
  'spa',
  'the',
  'and',
  'holdings',
]);

/** Lower-case words of a brand name without punctuation, `.com` and corporate words. */
export function normalizeBrandName(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/&amp;/g, '&')
      .replace(/'s\b/g, '')
      .replace(/\.com\b/g, '')
      // Dotted initials ("S.A.", "N.V.") become one word before splitting.
      .replace(/\b([a-z])\.(?=[a-z]\b)/g, '$1')
      .split(/[^a-z0-9]+/)
      .filter((word) => word !== '' && !CORPORATE_WORDS.has(word))
      .join(' ')
  );
}

function claim<T>(map: Map<string, T>, key: string, value: T, what: string): void {
  if (map.has(key)) throw new Error(`brand catalog: ${what} "${key}" is claimed twice`);
  map.set(key, value);
}

function push<K, T>(map: Map<K, T[]>, key: K, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/**
 * A small-integer hash of three UTF-16 code units from `offset`: a map key without cutting a
 * string. Different trigrams may share a key; callers check the candidates with `startsWith`.
 */
function trigramKey(text: string, offset: number): number {
  return (
    (Math.imul(text.charCodeAt(offset), 0x9e3779b1) ^
      Math.imul(text.charCodeAt(offset + 1), 0x85ebca6b) ^
      text.charCodeAt(offset + 2)) &
    0x3fffffff
  );
}

function findByPrefix(
  text: string,
  index: ReadonlyMap<number, readonly BrandToken[]>,
  valueOf: (entry: BrandToken) => string,
): TokenHit[] {
  const hits: TokenHit[] = [];
  for (let i = 0; i + 3 <= text.length; i++) {
    const candidates = index.get(trigramKey(text, i));
    if (candidates === undefined) continue;
    for (const entry of candidates) {
      if (text.startsWith(valueOf(entry), i)) hits.push({ entry, index: i });
    }
  }
  return hits;
}

/** Words of the deletion bitset minus one: 2^15 words of 32 bits, 2^20 buckets. */
const BIT_MASK = (1 << 15) - 1;

/** Base of the polynomial hash of {@link deletionHashes} (odd, so it is invertible mod 2^32). */
const HASH_BASE = 0x01000193;

/**
 * Hashes of `text` with 0, 1 or up to `depth` (≤ 2) characters deleted: the SymSpell deletion
 * neighbourhood, as 32-bit polynomial hashes (mod 2^32) computed from prefix hashes in O(1) each
 * instead of as strings — the search over a label's 2-deletion neighbourhood allocates nothing.
 * Equal strings hash equal; a rare collision only adds a candidate that `osaDistance` rejects.
 * Duplicates are possible (deleting either `s` of `ss`) and harmless to a look-up.
 */
function deletionHashes(text: string, depth: number): number[] {
  const n = text.length;
  const prefix = new Array<number>(n + 1);
  const power = new Array<number>(n + 1);
  prefix[0] = 0;
  power[0] = 1;
  for (let k = 0; k < n; k++) {
    prefix[k + 1] = (Math.imul(prefix[k] ?? 0, HASH_BASE) + text.charCodeAt(k)) >>> 0;
    power[k + 1] = Math.imul(power[k] ?? 0, HASH_BASE) >>> 0;
  }
  /** Hash of text[a, b). */
  const range = (a: number, b: number): number =>
    ((prefix[b] ?? 0) - Math.imul(prefix[a] ?? 0, power[b - a] ?? 0)) >>> 0;
  const out: number[] = [prefix[n] ?? 0];
  if (depth < 1) return out;
  for (let i = 0; i < n; i++) {
    // text without i: text[0, i) · B^(n-1-i) + text[i+1, n)
    out.push((Math.imul(prefix[i] ?? 0, power[n - 1 - i] ?? 0) + range(i + 1, n)) >>> 0);
  }
  if (depth < 2) return out;
  for (let i = 0; i < n; i++) {
    const head = Math.imul(prefix[i] ?? 0, power[n - 2 - i] ?? 0);
    for (let j = i + 1; j < n; j++) {
      // text without i and j: text[0, i) · B^(n-2-i) + text[i+1, j) · B^(n-1-j) + text[j+1, n)
      const middle = Math.imul(range(i + 1, j), power[n - 1 - j] ?? 0);
      out.push((head + middle + range(j + 1, n)) >>> 0);
    }
  }
  return out;
}
