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
import type { BrandIndex, BrandToken } from '../brand/brand-index.js';
import { isMixedScript, isWholeScriptConfusable, letterScripts } from '../brand/mixed-script.js';
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

/** What a label says. */
export interface LabelReading {
  matches: TokenMatch[];
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
}

/** Parts that turn `brand-com` into an embedded domain (detection.md §1.2 "various"). */
const DOMAIN_WORDS: ReadonlySet<string> = new Set(['com', 'net', 'org']);
const NON_ASCII = /[^\p{ASCII}]/u;
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
const MARKS = /\p{M}/gu;

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

  // Whole label, or the label without its hyphens.
  const whole = ctx.brands.token(joined);
  if (whole !== undefined) add(whole, parts.length > 1 ? 'hyphenated' : 'exact', label);

  // Hyphen-separated parts, and short/common tokens inside fully explained parts.
  for (const [i, part] of parts.entries()) {
    const entry = ctx.brands.token(part);
    if (entry !== undefined) {
      add(entry, DOMAIN_WORDS.has(parts[i + 1] ?? '') ? 'embedded' : 'part', part);
      continue;
    }
    const segmentation = ctx.words.segment(part);
    for (const { word } of segmentation.words) {
      const token = ctx.brands.token(word);
      if (token === undefined) {
        words.push(word);
      } else if (segmentation.unknownChars === 0 || token.distinctive) {
        const next = segmentation.words[segmentation.words.findIndex((w) => w.word === word) + 1];
        add(
          token,
          next !== undefined && DOMAIN_WORDS.has(next.word) ? 'embedded' : 'segment',
          part,
        );
      }
    }
  }

  // Distinctive tokens anywhere in the hyphen-free label (`xmetamaskx`, `meta-mask-wallet`).
  for (const hit of ctx.brands.findDistinctive(joined)) {
    const after = joined.slice(
      hit.index + hit.entry.token.length,
      hit.index + hit.entry.token.length + 3,
    );
    add(hit.entry, DOMAIN_WORDS.has(after) ? 'embedded' : 'substring', label);
  }

  // ASCII confusables (`paypa1`, `rnicrosoft`): compare skeletons. A label that *is* a disguised
  // brand carries no lure words of its own (`paypa1` must not read as the word "pay").
  if (idn === null) {
    const skeleton = ctx.skeleton(joined);
    if (skeleton !== joined) {
      const exact = ctx.brands.tokenBySkeleton(skeleton);
      if (exact !== undefined && exact.token !== joined) {
        add(exact, 'confusable', label);
        words.length = 0;
      }
      for (const hit of ctx.brands.findDistinctiveInSkeleton(skeleton)) {
        if (!joined.includes(hit.entry.token)) add(hit.entry, 'confusable', label);
      }
    }
  }

  if (lookalikes && matches.length === 0) {
    for (const candidate of lookalikeCandidates(ctx, joined, parts)) {
      const hits = ctx.brands.findLookalikes(candidate);
      for (const hit of hits) add(hit.entry, 'lookalike', candidate, hit.distance);
      // The words segmented out of the lookalike itself (`paypai` → "pay") are not lure words.
      if (hits.length > 0) removeWordsOf(ctx, candidate, words);
    }
  }
  return { matches, words, idn };
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

/** The whole label and its longer parts, unless they are real words or popular names. */
function lookalikeCandidates(ctx: LabelReaderContext, joined: string, parts: string[]): string[] {
  const candidates = new Set<string>();
  for (const text of [joined, ...parts]) {
    if (text.length < 4 || text.length > 30 || /^\d+$/.test(text)) continue;
    if (ctx.words.isEnglishWord(text) || ctx.popularLabels.has(text)) continue;
    candidates.add(text);
  }
  return [...candidates];
}
