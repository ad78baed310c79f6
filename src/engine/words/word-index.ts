/**
 * @module engine/words/word-index
 * Lure words and the segmentation dictionary. A host label is read as words (hyphen-separated
 * parts, each segmented with {@link segmentWords}); the words that belong to a lure group
 * (`credential`: login, verify…; `crypto`: wallet, claim…) become evidence next to a brand token.
 */
import type { WordGroup } from '../engine-data.js';
import { WORD_GROUPS } from '../engine-data.js';
import { type Segmentation, segmentWords } from './segment-words.js';

/** Words grouped by lure group, as found in one URL part. */
export type WordGroups = ReadonlyMap<WordGroup, readonly string[]>;

export class WordIndex {
  private readonly groupsOf = new Map<string, WordGroup[]>();
  private readonly dictionary: Set<string>;
  private readonly english: ReadonlySet<string>;
  private readonly maxWordLength: number;
  private readonly cache = new Map<string, Segmentation>();

  /**
   * @param groups lure words per group.
   * @param filler ordinary short words and web tokens (`my`, `online`, `app`).
   * @param english the English dictionary.
   * @param extra further words to segment by, e.g. brand tokens.
   */
  constructor(
    groups: Readonly<Record<WordGroup, readonly string[]>>,
    filler: readonly string[],
    english: readonly string[],
    extra: readonly string[],
  ) {
    for (const group of WORD_GROUPS) {
      for (const word of groups[group]) {
        const list = this.groupsOf.get(word);
        if (list === undefined) this.groupsOf.set(word, [group]);
        else if (!list.includes(group)) list.push(group);
      }
    }
    this.english = new Set(english);
    this.dictionary = new Set([...english, ...filler, ...this.groupsOf.keys(), ...extra]);
    let longest = 0;
    for (const word of this.dictionary) longest = Math.max(longest, word.length);
    this.maxWordLength = longest;
  }

  /** Lure groups of a word ([] for none). */
  groups(word: string): readonly WordGroup[] {
    return this.groupsOf.get(word) ?? [];
  }

  /** True for a word of the English dictionary. */
  isEnglishWord(word: string): boolean {
    return this.english.has(word);
  }

  /** True for any word the segmenter knows. */
  isKnownWord(word: string): boolean {
    return this.dictionary.has(word);
  }

  /**
   * Segment one hyphen-free part. Results are memoized (bounded) because the same parts recur
   * across requests (`secure`, `login`, `wallet`).
   */
  segment(part: string): Segmentation {
    const cached = this.cache.get(part);
    if (cached !== undefined) return cached;
    const result = segmentWords(part, this.dictionary, this.maxWordLength);
    if (this.cache.size >= 50_000) this.cache.clear();
    this.cache.set(part, result);
    return result;
  }

  /** Group the lure words among `words`. */
  groupWords(words: Iterable<string>): WordGroups {
    const out = new Map<WordGroup, string[]>();
    for (const word of words) {
      for (const group of this.groups(word)) {
        const list = out.get(group);
        if (list === undefined) out.set(group, [word]);
        else if (!list.includes(word)) list.push(word);
      }
    }
    return out;
  }
}
