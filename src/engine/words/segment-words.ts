/**
 * @module engine/words/segment-words
 * Splits a run-together host label into known words: `paypalsecurelogin` → paypal · secure · login.
 * Phishers glue brand and lure words without hyphens, and short brand names (`dhl`, `ups`) are
 * only trustworthy when the rest of the label is made of real words — `webayurveda` must not read
 * as `ebay`.
 *
 * Dynamic programming over the label: each dictionary word costs 1, each character no word covers
 * costs {@link UNKNOWN_CHAR_COST}, and the cheapest split wins, so longer real words beat fragments.
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

/** Cost of leaving one character unexplained; > 1 so that one word beats two fragments. */
const UNKNOWN_CHAR_COST = 1.6;

/**
 * Segment `text` (lowercase ASCII letters/digits) into dictionary words.
 *
 * @param text one hyphen-free part of a host label.
 * @param dictionary the known words (lowercase).
 * @param maxWordLength the longest word in `dictionary`, bounding the inner loop.
 */
export function segmentWords(
  text: string,
  dictionary: ReadonlySet<string>,
  maxWordLength: number,
): Segmentation {
  const n = text.length;
  if (dictionary.has(text)) return { words: [{ word: text, start: 0 }], unknownChars: 0 };
  const cost = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
  const from = new Int32Array(n + 1).fill(-1);
  const isWord = new Uint8Array(n + 1);
  cost[0] = 0;
  for (let end = 1; end <= n; end++) {
    // An unexplained character.
    const skip = (cost[end - 1] ?? 0) + UNKNOWN_CHAR_COST;
    cost[end] = skip;
    from[end] = end - 1;
    const first = Math.max(0, end - maxWordLength);
    for (let start = end - 2; start >= first; start--) {
      const base = cost[start] ?? Number.POSITIVE_INFINITY;
      if (base + 1 >= (cost[end] ?? 0)) continue;
      if (dictionary.has(text.slice(start, end))) {
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
