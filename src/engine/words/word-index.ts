/**
 * @module engine/words/word-index
 * Lure words and the segmentation dictionary. A host label is read as words (hyphen-separated
 * parts, each segmented with {@link segmentWords}); the words that belong to a lure group
 * (`credential`: login, verify…; `crypto`: wallet, claim…) become evidence next to a brand token.
 */
import { BoundedMemo } from '../bounded-memo.js';
import type { WordGroup } from '../engine-data.js';
import { WORD_GROUPS } from '../engine-data.js';
import {
  createDictionary,
  type Segmentation,
  segmentWords,
  type WordDictionary,
} from './segment-words.js';

/** Words grouped by lure group, as found in one URL part. */
export type WordGroups = ReadonlyMap<WordGroup, readonly string[]>;

/** Segmentations remembered per dictionary: parts recur across requests; each is microseconds. */
const SEGMENT_MEMO_SIZE = 50_000;

export class WordIndex {
  private readonly groupsOf = new Map<string, WordGroup[]>();
  private readonly company: ReadonlySet<string>;
  private readonly dictionary: WordDictionary;
  private readonly english: WordDictionary;
  private readonly cache = new BoundedMemo<Segmentation>(SEGMENT_MEMO_SIZE);
  private readonly englishCache = new BoundedMemo<Segmentation>(SEGMENT_MEMO_SIZE);

  /**
   * @param groups lure words per group.
   * @param filler ordinary short words and web tokens (`my`, `online`, `app`).
   * @param english the English dictionary.
   * @param extra further words to segment by, e.g. brand tokens.
   * @param company words companies put next to their own name (`group`, `usa`, `cdn`).
   */
  constructor(
    groups: Readonly<Record<WordGroup, readonly string[]>>,
    filler: readonly string[],
    english: readonly string[],
    extra: readonly string[],
    company: readonly string[] = [],
  ) {
    this.company = new Set(company);
    for (const group of WORD_GROUPS) {
      for (const word of groups[group]) {
        const list = this.groupsOf.get(word);
        if (list === undefined) this.groupsOf.set(word, [group]);
        else if (!list.includes(group)) list.push(group);
      }
    }
    this.english = createDictionary(english);
    this.dictionary = createDictionary([
      ...english,
      ...filler,
      ...this.groupsOf.keys(),
      ...extra,
      ...company,
    ]);
  }

  /** Lure groups of a word ([] for none). */
  groups(word: string): readonly WordGroup[] {
    return this.groupsOf.get(word) ?? [];
  }

  /**
   * True for a lure word: one in any group but `generic` and `web3` (web3 vocabulary such as
   * `app` or `finance` is only telling next to a crypto brand; scoring handles that).
   */
  isLure(word: string): boolean {
    return this.groups(word).some((g) => g !== 'generic' && g !== 'web3');
  }

  /** True for a context word: web tokens and web3 vocabulary (`id`, `app`, `online`, `token`). */
  isContext(word: string): boolean {
    const groups = this.groups(word);
    return groups.length > 0 && groups.every((g) => g === 'generic' || g === 'web3');
  }

  /** True for a word companies put next to their own name in their domains (`group`, `cdn`). */
  isCompanyWord(word: string): boolean {
    return this.company.has(word);
  }

  /** True for a word of the English dictionary. */
  isEnglishWord(word: string): boolean {
    return this.english.words.has(word);
  }

  /** True for any word the segmenter knows. */
  isKnownWord(word: string): boolean {
    return this.dictionary.words.has(word);
  }

  /**
   * Segment one hyphen-free part. Results are memoized (bounded) because the same parts recur
   * across requests (`secure`, `login`, `wallet`).
   */
  segment(part: string): Segmentation {
    const cached = this.cache.get(part);
    if (cached !== undefined) return cached;
    return this.cache.remember(part, segmentWords(part, this.dictionary));
  }

  /**
   * Segment with the English dictionary only (no brand tokens, no web tokens): where the real
   * word boundaries of a part are, so a brand token can be told from letters of longer words.
   */
  segmentEnglish(part: string): Segmentation {
    const cached = this.englishCache.get(part);
    if (cached !== undefined) return cached;
    return this.englishCache.remember(part, segmentWords(part, this.english));
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
