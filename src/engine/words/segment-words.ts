/**
 * @module engine/words/segment-words
 * Splits a run-together host label into known words: `paypalsecurelogin` → paypal · secure · login.
 * Phishers glue brand and lure words without hyphens, and short brand names (`dhl`, `ups`) are
 * only trustworthy when the rest of the label is made of real words — `webayurveda` must not read
 * as `ebay`.
 *
 * Dynamic programming over the label: each dictionary word costs 1, each character no word covers
 * costs {@link UNKNOWN_CHAR_COST}, and the cheapest split wins, so longer real words beat fragments.
 * The dictionary carries the set of all word prefixes, so the inner loop stops as soon as the
 * text under it cannot begin any word (a few steps instead of one per possible word length).
 */

/** A word found in a label, with its offset. */
export interface FoundWord {
  word: string;
  start: number;
}

/** Result of {@link segmentWords}. */
export interface Segmentation {
  words: FoundWord[];
  /** Characters of the input not covered by any word. */
  unknownChars: number;
}

/** Words plus their prefixes, built once by {@link createDictionary}. */
export interface WordDictionary {
  readonly words: ReadonlySet<string>;
  /** Every prefix (2+ characters) of every word, words included. */
  readonly prefixes: ReadonlySet<string>;
}

/** Cost of leaving one character unexplained; > 1 so that one word beats two fragments. */
const UNKNOWN_CHAR_COST = 1.6;

/**
 * Build a dictionary for {@link segmentWords}. Words shorter than 2 characters are ignored.
 *
 * @param words lowercase words.
 */
export function createDictionary(words: Iterable<string>): WordDictionary {
  const set = new Set<string>();
  const prefixes = new Set<string>();
  for (const word of words) {
    if (word.length < 2) continue;
    set.add(word);
    for (let i = 2; i <= word.length; i++) prefixes.add(word.slice(0, i));
  }
  return { words: set, prefixes };
}

/**
 * Segment `text` (lowercase ASCII letters/digits) into dictionary words.
 *
 * @param text one hyphen-free part of a host label.
 * @param dictionary words and prefixes from {@link createDictionary}.
 */
export function segmentWords(text: string, dictionary: WordDictionary): Segmentation {
  const n = text.length;
  if (dictionary.words.has(text)) return { words: [{ word: text, start: 0 }], unknownChars: 0 };
  const cost = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
  const from = new Int32Array(n + 1).fill(-1);
  const isWord = new Uint8Array(n + 1);
  cost[0] = 0;
  for (let start = 0; start < n; start++) {
    const base = cost[start] ?? Number.POSITIVE_INFINITY;
    // An unexplained character.
    if (base + UNKNOWN_CHAR_COST < (cost[start + 1] ?? 0)) {
      cost[start + 1] = base + UNKNOWN_CHAR_COST;
      from[start + 1] = start;
      isWord[start + 1] = 0;
    }
    for (let end = start + 2; end <= n; end++) {
      const piece = text.slice(start, end);
      if (!dictionary.prefixes.has(piece)) break;
      if (dictionary.words.has(piece) && base + 1 < (cost[end] ?? 0)) {
        cost[end] = base + 1;
        from[end] = start;
        isWord[end] = 1;
      }
    }
  }
  const words: FoundWord[] = [];
  let unknownChars = 0;
  for (let end = n; end > 0;) {
    const start = from[end] ?? end - 1;
    if (isWord[end] === 1) words.push({ word: text.slice(start, end), start });
    else unknownChars += end - start;
    end = start;
  }
  words.reverse();
  return { words, unknownChars };
}
