/**
 * @module engine/rules/disguised-words
 * Lure words spelled with digits for letters (`ver1fication`, `acc0unt`, `l0gin`): "leet"
 * spelling that hides a word from keyword filters while a reader still sees it. Phishing
 * generators use it, and domain-permutation tools model the ASCII part of it (dnstwist's
 * homoglyph fuzzer swaps `o`/`0` and `l`/`i`/`1`); an ordinary site never writes its own words
 * that way.
 */
import type { WordIndex } from '../words/word-index.js';

/**
 * Digits read as the letters they resemble. `1` is `i` or `l` (both are tried). Source: the
 * common leetspeak substitutions (Wikipedia, "Leet", table of the most frequent: 4 A, 3 E, 1 I/L,
 * 0 O, 5 S, 7 T), of which dnstwist's ASCII homoglyph table holds `0`→o and `1`→l/i.
 */
const DIGIT_LETTERS: Readonly<Record<string, readonly string[]>> = {
  '0': ['o'],
  '1': ['i', 'l'],
  '3': ['e'],
  '4': ['a'],
  '5': ['s'],
  '7': ['t'],
};
/** A digit between two letters: the shape of a substitution, not of a number. */
const INNER_DIGIT = /[a-z][013457][a-z]/;
/** Shortest disguised word that counts: `l0gin`; shorter ones collide with abbreviations. */
const MIN_WORD = 5;
/**
 * A disguise swaps a letter or two of a long word (`ver1fication`, `inf0rmati0n`); a name written
 * wholly in digits (`5h1pm3n7`) is a style, not a disguise.
 */
const MAX_DIGITS = 2;
const LETTERS_PER_DIGIT = 4;
/** Spellings tried per part (2 per `1`): bounds the work on digit-heavy labels. */
const MAX_SPELLINGS = 16;

/** A lure word written with digits for letters. */
export interface DisguisedWord {
  /** As the host writes it: `ver1fication`. */
  written: string;
  /** As a reader sees it: `verification`. */
  read: string;
}

/**
 * Lure words of a host written with digits for letters.
 *
 * @param labels host labels left of the public suffix (subdomains and the site label), ASCII.
 * @param words the word index: segmentation and lure groups.
 * @returns each disguised word as written and as read (`ver1fication`, `verification`), [] when
 *   none.
 */
export function disguisedLureWords(labels: readonly string[], words: WordIndex): DisguisedWord[] {
  const out: DisguisedWord[] = [];
  for (const label of labels) {
    for (const part of label.split(/[-_]+/)) {
      if (!INNER_DIGIT.test(part)) continue;
      for (const spelling of spellings(part)) {
        const segmentation = words.segment(spelling);
        if (segmentation.unknownChars > 0) continue;
        const hit = segmentation.words.find(({ word, start }) => {
          const digits = part.slice(start, start + word.length).replace(/\D/g, '').length;
          return (
            word.length >= MIN_WORD &&
            digits > 0 &&
            digits <= MAX_DIGITS &&
            word.length >= LETTERS_PER_DIGIT * digits &&
            words.isLure(word)
          );
        });
        if (hit === undefined) continue;
        out.push({ written: part.slice(hit.start, hit.start + hit.word.length), read: hit.word });
        break;
      }
    }
  }
  return out;
}

/** The part with each substitutable digit read as a letter, every combination (bounded). */
function spellings(part: string): string[] {
  let out = [''];
  for (const ch of part) {
    const letters = DIGIT_LETTERS[ch];
    if (letters === undefined) {
      out = out.map((s) => s + ch);
      continue;
    }
    out = out.flatMap((s) => letters.map((l) => s + l)).slice(0, MAX_SPELLINGS);
  }
  return out;
}
