/**
 * @module engine/rules/read-label
 * Reads one host label (or one path segment): which brand tokens it carries, how, and which other
 * words stand next to them. This is where the impersonation detectors of detection.md §1.2–1.3
 * meet: exact and hyphen-split tokens, tokens glued to lure words (combosquatting), UTS #39
 * confusables and homoglyph IDNs, mixed scripts, and edit-distance lookalikes.
 *
 * It reports what it sees; deciding what that means (caution or danger, given the TLD, the
 * hosting platform and the lure words) is scoring's job.
 */
import type { BoundedMemo } from '../bounded-memo.js';
import type { BrandIndex, BrandToken } from '../brand/brand-index.js';
import { isMixedScript, isWholeScriptConfusable, letterScripts } from '../brand/mixed-script.js';
import type { WordGroup } from '../engine-data.js';
import type { WordIndex } from '../words/word-index.js';

/** How a brand token was found in a label. */
export type MatchHow =
  /** The label is exactly the token (`paypal`). */
  | 'exact'
  /** The label is the token split by hyphens (`pay-pal`). */
  | 'hyphenated'
  /** A hyphen-separated part is the token (`paypal-login`). */
  | 'part'
  /** The token is followed by a `com`/`net`/`org` part or suffix (`www-paypal-com`): an embedded domain. */
  | 'embedded'
  /** A distinctive token inside a longer part (`paypalsecure`). */
  | 'substring'
  /** A short or common token that is one word of a fully segmented part (`dhlparcel`). */
  | 'segment'
  /** The ASCII skeleton matches (`paypa1`, `rnetamask`). */
  | 'confusable'
  /** A non-ASCII label whose skeleton matches (`pаypal` with Cyrillic а, `googlé`). */
  | 'homoglyph'
  /** Within edit distance 1–2 of a distinctive token (`paypai`, `metamsk`). */
  | 'lookalike';

/** One brand token found in a label. */
export interface TokenMatch {
  entry: BrandToken;
  how: MatchHow;
  /** Edit distance for `lookalike`, else 0. */
  distance: number;
  /** The text that matched (the label part, or the label). */
  matched: string;
}

/** Unicode findings of a label that is an IDN. */
export interface IdnReading {
  unicode: string;
  mixedScript: boolean;
  wholeScriptConfusable: boolean;
  /** Zero-width or other default-ignorable characters: never legitimate in a host label. */
  invisible: boolean;
}

/**
 * What surrounds brand tokens in a label: `lure` words (login, wallet…), something `odd`
 * (numbers, letters no word explains: `0019-coinbase`, `imtoken-bw`), only words companies put
 * next to their own name (`corporate`: `bankofbaroda-usa`, `gruposantander`, `githubusercontent`,
 * `minecraftforum` — the usual shape of a company's own secondary domains and of fan sites), or
 * other `ordinary` words (`paypal-offer`, `coinbase-app`).
 */
export type LabelContext = 'lure' | 'odd' | 'corporate' | 'ordinary';

/** What a label says. */
export interface LabelReading {
  matches: TokenMatch[];
  context: LabelContext;
  /** Every known word in the label, brand tokens excluded (lure words are among them). */
  words: string[];
  idn: IdnReading | null;
}

/** The tools a label reading needs; built once by the engine. */
export interface LabelReaderContext {
  brands: BrandIndex;
  words: WordIndex;
  skeleton: (text: string) => string;
  /** Registrable labels of popular domains: never reported as lookalikes. */
  popularLabels: ReadonlySet<string>;
  /**
   * Memo of label readings (bounded, second-sighting admission): labels repeat across URLs
   * (`www`, `login`, campaigns). Build it with {@link LABEL_MEMO_SIZE}.
   */
  labelMemo: BoundedMemo<LabelReading>;
}

/** Most label readings kept in {@link LabelReaderContext.labelMemo}. */
export const LABEL_MEMO_SIZE = 50_000;

/**
 * Parts that turn `brand-com` into an embedded domain (detection.md §1.2 "various"). Only `com`:
 * `yandex-net` and `office365-net` are how companies name their own infrastructure.
 */
const DOMAIN_WORDS: ReadonlySet<string> = new Set(['com']);
const NON_ASCII = /[^\p{ASCII}]/u;
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
const MARKS = /\p{M}/gu;
/** Tokens this long are distinctive enough to count between unexplained characters. */
const LONG_TOKEN = 7;
/** Shortest word that counts in a part other words do not fully explain. */
const MIN_UNEXPLAINED_WORD = 6;

/**
 * Read one label.
 *
 * @param ctx indexes.
 * @param label ASCII label (punycode for IDNs), lowercase.
 * @param unicodeLabel its Unicode form (same as `label` for ASCII).
 * @param tld last label of the host (for the whole-script rule).
 * @param lookalikes whether to run edit-distance matching (only on the label that names the site:
 *   running it on every subdomain label or path segment produces mostly false positives).
 */
export function readLabel(
  ctx: LabelReaderContext,
  label: string,
  unicodeLabel: string,
  tld: string,
  lookalikes: boolean,
): LabelReading {
  // The TLD only matters for IDNs (whole-script rule); readings are never mutated by callers.
  const key = `S${unicodeLabel === label ? '' : tld}|${label}`;
  const base =
    ctx.labelMemo.get(key) ??
    ctx.labelMemo.remember(key, computeReading(ctx, label, unicodeLabel, tld));
  if (!lookalikes || base.matches.length > 0) return base;
  // The edit-distance search is the costliest step, done only when asked and nothing else matched.
  const lookalikeKey = `L${key}`;
  return (
    ctx.labelMemo.get(lookalikeKey) ??
    ctx.labelMemo.remember(lookalikeKey, withLookalikes(ctx, label, base))
  );
}

/** A reading extended with edit-distance lookalikes of the label (or its longer parts). */
function withLookalikes(ctx: LabelReaderContext, label: string, base: LabelReading): LabelReading {
  const parts = label.split(/[-_]+/).filter((part) => part !== '');
  const joined = parts.join('');
  const words = [...base.words];
  const labelHasLure = words.some((word) => ctx.words.isLure(word));
  const matches: TokenMatch[] = [];
  for (const candidate of lookalikeCandidates(ctx, joined, parts, labelHasLure)) {
    const hits = ctx.brands.findLookalikes(candidate);
    for (const hit of hits) {
      if (matches.some((m) => m.entry === hit.entry)) continue;
      matches.push({
        entry: hit.entry,
        how: 'lookalike',
        distance: hit.distance,
        matched: candidate,
      });
    }
    // The words segmented out of the lookalike itself (`paypai` → "pay") are not lure words.
    if (hits.length > 0) removeWordsOf(ctx, candidate, words);
  }
  if (matches.length === 0) return base;
  return {
    matches,
    words,
    idn: base.idn,
    context: labelContext(ctx, parts, words, matches, labelHasLure),
  };
}

function computeReading(
  ctx: LabelReaderContext,
  label: string,
  unicodeLabel: string,
  tld: string,
): LabelReading {
  const matches: TokenMatch[] = [];
  const words: string[] = [];
  const found = new Set<BrandToken>();
  const add = (entry: BrandToken, how: MatchHow, matched: string, distance = 0): void => {
    if (found.has(entry)) return;
    found.add(entry);
    matches.push({ entry, how, distance, matched });
  };

  const idn = NON_ASCII.test(unicodeLabel) ? readIdn(ctx, unicodeLabel, tld, add) : null;
  const parts = label.split(/[-_]+/).filter((part) => part !== '');
  const joined = parts.join('');

  // Whole label, or the label without its hyphens. A multi-word name written with hyphens
  // between its words (`bank-of-china`, `deutsche-bank`) is the name itself, like `exact`;
  // hyphens that break a word (`pay-pa-l`, `meta-mask`) are a disguise.
  const whole = ctx.brands.token(joined);
  if (whole !== undefined) {
    const natural = parts.length === 1 || ctx.brands.isSpelledName(whole.brand, parts.join('-'));
    add(whole, natural ? 'exact' : 'hyphenated', label);
  }

  // A distinctive token broken up by hyphens into whole parts (`meta-mask-login`). A token that
  // starts or ends inside a part is a coincidence of spelling (`bigbank-savings` ≠ BankSA). The
  // parts it spans are its pieces, not brands of their own (`meta` of `meta-mask` is not Meta).
  const boundaries = hyphenBoundaries(parts);
  const edges = [0, ...boundaries, joined.length];
  const pieces = new Set<number>();
  for (const hit of ctx.brands.findDistinctive(joined)) {
    const end = hit.index + hit.entry.token.length;
    const first = edges.indexOf(hit.index);
    const last = edges.indexOf(end);
    if (first < 0 || last < 0 || last - first < 2) continue;
    add(hit.entry, 'hyphenated', label);
    for (let k = first; k < last; k++) pieces.add(k);
  }

  // The known words of the label (brand tokens aside): lure words and the context of a token.
  const segmentations = parts.map((part) => ctx.words.segment(part));
  for (const [i, segmentation] of segmentations.entries()) {
    const part = parts[i] ?? '';
    if (ctx.brands.token(part) !== undefined || pieces.has(i)) continue;
    // In a part the words do not fully explain, a short word is a coincidence of spelling
    // (`contoso` is not the Italian lure "conto" plus two letters); a long one still counts.
    const covered = segmentation.unknownChars === 0 || explained(ctx, part);
    for (const { word } of segmentation.words) {
      if (ctx.brands.token(word) !== undefined) continue;
      if (covered || word.length >= MIN_UNEXPLAINED_WORD) words.push(word);
    }
  }
  const isLure = (word: string): boolean => ctx.words.isLure(word);
  const labelHasLure = words.some(isLure);

  for (const [i, part] of parts.entries()) {
    if (pieces.has(i)) continue;
    const entry = ctx.brands.token(part);
    if (entry !== undefined) {
      // A brand named by an ordinary word (`orange`, `chase`) only counts next to a lure word.
      if (parts.length > 1 && (!entry.brand.commonWord || labelHasLure)) {
        add(entry, DOMAIN_WORDS.has(parts[i + 1] ?? '') ? 'embedded' : 'part', part);
      }
      continue;
    }
    // A distinctive token inside a longer part counts when the rest of the part is known words
    // or digits (`paypalsecure`, `metamask2024`), or when a long token does not cut through an
    // English word (`xmetamaskx`): `cascadebank` is not DeBank, `microsoftonline` not T-Online.
    for (const hit of ctx.brands.findDistinctive(part)) {
      const end = hit.index + hit.entry.token.length;
      const before = part.slice(0, hit.index);
      const after = part.slice(end);
      const whole = !cutsWord(ctx, part, hit.index) && !cutsWord(ctx, part, end);
      const aligned =
        whole &&
        ((explained(ctx, before) && explained(ctx, after)) || hit.entry.token.length >= LONG_TOKEN);
      if (aligned) add(hit.entry, after === 'com' ? 'embedded' : 'substring', part);
    }
    // A short token glued to words (`dhltracking`, `uspsredelivery`) counts at either end of a
    // fully explained part next to a lure word; common words never count glued (`luckyorange`).
    const segmentation = segmentations[i];
    if (segmentation === undefined || segmentation.unknownChars > 0) continue;
    const segmentWords = segmentation.words;
    for (const [k, { word }] of segmentWords.entries()) {
      const token = ctx.brands.token(word);
      if (token === undefined || (token.distinctive && !token.brand.commonWord)) continue;
      if (k !== 0 && k !== segmentWords.length - 1) continue;
      const others = segmentWords.filter((_, j) => j !== k).map((w) => w.word);
      const end = (segmentWords[k]?.start ?? 0) + word.length;
      // A token cut out of an English word (`aib|otplatform` of `aibotplatform`) is no token.
      if (cutsWord(ctx, part, segmentWords[k]?.start ?? 0) || cutsWord(ctx, part, end)) continue;
      // Glued only to a country, corporate or web word (`virginuk`, `chaseonline`), the token is
      // the brand's name written the way companies write their own domains: it counts when the
      // label carries a lure word in another part (`virginuk-updatebillinginfo`).
      const nameOnly =
        labelHasLure && others.every((w) => ctx.words.isContext(w) || ctx.words.isCompanyWord(w));
      if (!others.some(isLure) && !nameOnly) continue;
      // A brand named by an ordinary word glued to words (`luckyorange`, `skybridge`) is an
      // ordinary compound, unless everything glued to it is web vocabulary or credential or theme
      // lures (`appleidverify`, `irsrefund`); scoring then keeps a theme lure only where it fits
      // the brand's category.
      if (
        token.brand.commonWord &&
        !nameOnly &&
        !(
          others.some((w) => isGluedLure(ctx, w)) &&
          others.every((w) => isGluedLure(ctx, w) || ctx.words.isContext(w))
        )
      ) {
        continue;
      }
      add(token, 'segment', part);
    }
  }

  // ASCII confusables (`paypa1`, `rnicrosoft`): compare skeletons. A label that *is* a disguised
  // brand carries no lure words of its own (`paypa1` must not read as the word "pay"). Inside a
  // part the same boundary rule as above applies, in skeleton space: `medbank` (skeleton
  // `rnedbank`) does not contain Nedbank.
  if (idn === null) {
    const skeleton = ctx.skeleton(joined);
    const exact = skeleton === joined ? undefined : ctx.brands.tokenBySkeleton(skeleton);
    // Short tokens collide with ordinary labels through letter look-alikes (`rn` in a word), so a
    // short one counts only when digits stand in for its letters (`0kx`, `dh1`).
    if (
      exact !== undefined &&
      exact.token !== joined &&
      (exact.distinctive || (!exact.brand.commonWord && digitSwap(joined, exact.token)))
    ) {
      add(exact, 'confusable', label);
      words.length = 0;
    }
    for (const part of parts) {
      const partSkeleton = ctx.skeleton(part);
      if (partSkeleton === part) continue;
      // A short token as a whole hyphen part with digits for its letters, next to a lure word
      // (`dh1-tracking`): the whole-label rule for one part. Without a lure an alphanumeric code
      // is an ordinary name (`a01-parts` is not AOL).
      const partExact =
        parts.length > 1 && labelHasLure ? ctx.brands.tokenBySkeleton(partSkeleton) : undefined;
      if (
        partExact !== undefined &&
        partExact.token !== part &&
        !partExact.brand.commonWord &&
        digitSwap(part, partExact.token)
      ) {
        add(partExact, 'confusable', part);
      }
      for (const hit of ctx.brands.findDistinctiveInSkeleton(partSkeleton)) {
        if (part.includes(hit.entry.token)) continue;
        const before = partSkeleton.slice(0, hit.index);
        const after = partSkeleton.slice(hit.index + hit.entry.skeleton.length);
        if (explained(ctx, before) && explained(ctx, after)) add(hit.entry, 'confusable', part);
      }
    }
  }

  return { matches, words, idn, context: labelContext(ctx, parts, words, matches, labelHasLure) };
}

function readIdn(
  ctx: LabelReaderContext,
  unicodeLabel: string,
  tld: string,
  add: (entry: BrandToken, how: MatchHow, matched: string) => void,
): IdnReading {
  const scripts = letterScripts(unicodeLabel);
  const skeleton = ctx.skeleton(unicodeLabel).replace(/-/g, '');
  // Chromium also compares after removing diacritics (`googlé` → `google`): idn.md rule 12.
  const bare = skeleton.replace(MARKS, '');
  for (const candidate of bare === skeleton ? [skeleton] : [skeleton, bare]) {
    const exact = ctx.brands.tokenBySkeleton(candidate);
    if (exact !== undefined) add(exact, 'homoglyph', unicodeLabel);
    for (const hit of ctx.brands.findDistinctiveInSkeleton(candidate)) {
      add(hit.entry, 'homoglyph', unicodeLabel);
    }
  }
  return {
    unicode: unicodeLabel,
    mixedScript: isMixedScript(scripts),
    wholeScriptConfusable: isWholeScriptConfusable(scripts, skeleton, tld),
    invisible: INVISIBLE.test(unicodeLabel),
  };
}

function removeWordsOf(ctx: LabelReaderContext, text: string, words: string[]): void {
  for (const { word } of ctx.words.segment(text).words) {
    const index = words.indexOf(word);
    if (index >= 0) words.splice(index, 1);
  }
}

/**
 * The whole label and its longer parts, unless they are real words, two real words glued
 * together (`bigbank` is not `bitbank`), or popular names. Three or more short words
 * (`met|her|wallet`) are a coincidence of segmentation, not a name.
 */
function lookalikeCandidates(
  ctx: LabelReaderContext,
  joined: string,
  parts: string[],
  hasLure: boolean,
): string[] {
  const candidates = new Set<string>();
  for (const text of [joined, ...parts]) {
    // Digits in a lookalike are the confusable rule's business (`paypa1`, `g00gle`).
    if (text.length < 4 || text.length > 30 || /\d.*\d/.test(text)) continue;
    // One part of a longer label (`sparkasse-rhein-…` vs `shein`) is only compared when the label
    // carries a lure word; the whole label is always compared.
    if (text !== joined && !hasLure) continue;
    if (ctx.words.isEnglishWord(text) || ctx.popularLabels.has(text)) continue;
    const split = ctx.words.segment(text);
    if (split.unknownChars === 0 && split.words.length <= 2) continue;
    candidates.add(text);
  }
  return [...candidates];
}

function labelContext(
  ctx: LabelReaderContext,
  parts: readonly string[],
  words: readonly string[],
  matches: readonly TokenMatch[],
  lure: boolean,
): LabelContext {
  if (lure && words.length > 0) return 'lure';
  let rest = parts.join('-');
  for (const match of matches) rest = rest.replace(match.entry.token, '');
  if (/\d/.test(rest)) return 'odd';
  const unexplained = rest
    .split('-')
    .some((part) => part.replace(/\d+/g, '') !== '' && !explained(ctx, part.replace(/\d+/g, '')));
  if (unexplained) return 'odd';
  const corporate = words.length > 0 && words.every((word) => ctx.words.isCompanyWord(word));
  return corporate ? 'corporate' : 'ordinary';
}

/** True for text made entirely of known words and digits (or empty). */
function explained(ctx: LabelReaderContext, text: string): boolean {
  const letters = text.replace(/\d+/g, '');
  return letters === '' || ctx.words.segment(letters).unknownChars === 0;
}

/** True when `offset` falls strictly inside an English word of `part`. */
function cutsWord(ctx: LabelReaderContext, part: string, offset: number): boolean {
  return ctx.words
    .segmentEnglish(part)
    .words.some(({ word, start }) => start < offset && offset < start + word.length);
}

/** Offsets in the hyphen-free label where one hyphen-separated part ends and the next begins. */
function hyphenBoundaries(parts: readonly string[]): number[] {
  const out: number[] = [];
  let offset = 0;
  for (const part of parts.slice(0, -1)) {
    offset += part.length;
    out.push(offset);
  }
  return out;
}

/**
 * True when `text` is `token` with one or more letters written as look-alike digits
 * (`0`→o, `1`→l or i) and nothing else changed.
 */
function digitSwap(text: string, token: string): boolean {
  if (text.length !== token.length) return false;
  let swapped = false;
  for (let i = 0; i < text.length; i++) {
    const a = text[i];
    const b = token[i];
    if (a === b) continue;
    if ((a === '0' && b === 'o') || (a === '1' && (b === 'l' || b === 'i'))) swapped = true;
    else return false;
  }
  return swapped;
}

/**
 * A lure that names what a scam in a brand's name asks for: credential, account and seed-phrase
 * words, and the theme words of agencies, carriers, billing and support (`refund`, `tracking`);
 * not a prize or a generic crypto word (`lucky`, `bridge`).
 */
function isGluedLure(ctx: LabelReaderContext, word: string): boolean {
  return ctx.words.groups(word).some((group) => GLUED_LURE_GROUPS.has(group));
}

const GLUED_LURE_GROUPS: ReadonlySet<WordGroup> = new Set<WordGroup>([
  'credential',
  'account',
  'seed',
  'government',
  'delivery',
  'payment',
  'invoice',
  'support',
]);
