import { describe, expect, it } from 'vitest';

import { createDictionary, type FoundWord, segmentWords } from './segment-words.js';

/** Segment with a dictionary built from `words`. */
function segment(text: string, words: string[]): { words: FoundWord[]; unknownChars: number } {
  return segmentWords(text, createDictionary(words));
}

const words = (...list: [string, number][]): FoundWord[] =>
  list.map(([word, start]) => ({ word, start }));

describe('segmentWords', () => {
  it.each<[string, string, string[], FoundWord[], number]>([
    [
      'splits glued words',
      'paypalsecurelogin',
      ['paypal', 'secure', 'login'],
      words(['paypal', 0], ['secure', 6], ['login', 12]),
      0,
    ],
    ['reads a whole-label word', 'paypal', ['paypal'], words(['paypal', 0]), 0],
    ['ignores one-letter words', 'x', ['x'], [], 1],
    ['finds nothing in an empty label', '', ['paypal'], [], 0],
    ['counts every character when no word fits', 'qzxv', ['paypal'], [], 4],
    ['counts unknown characters around a word', 'xxpaypalyy', ['paypal'], words(['paypal', 2]), 4],
    [
      'counts unknown characters between words',
      'paypal123login',
      ['paypal', 'login'],
      words(['paypal', 0], ['login', 9]),
      3,
    ],
    [
      'prefers one long word to two short ones',
      'paypalsecure',
      ['pay', 'pal', 'paypal', 'secure', 'sec', 'cure'],
      words(['paypal', 0], ['secure', 6]),
      0,
    ],
    [
      'prefers a longer real word over a brand hiding inside it',
      'webayurveda',
      ['web', 'ayurveda', 'ebay'],
      words(['web', 0], ['ayurveda', 3]),
      0,
    ],
    [
      'takes a word that leaves one character over two fragments',
      'ebayx',
      ['eb', 'ay', 'ebay'],
      words(['ebay', 0]),
      1,
    ],
    [
      // An unexplained character costs more than a word (UNKNOWN_CHAR_COST > 1).
      'covers the last character with a second word rather than leave it unknown',
      'abcde',
      ['abcd', 'ab', 'cde'],
      words(['ab', 0], ['cde', 2]),
      0,
    ],
    [
      'handles digits as word characters',
      'web3wallet',
      ['web3', 'wallet'],
      words(['web3', 0], ['wallet', 4]),
      0,
    ],
  ])('%s: %s', (_name, text, dictionary, expected, unknownChars) => {
    expect(segment(text, dictionary)).toEqual({ words: expected, unknownChars });
  });

  it('covers every character exactly once', () => {
    const dictionary = ['secure', 'login', 'verify', 'account', 'pay', 'pal', 'paypal'];
    for (const text of ['securexloginverify', 'aaccountpaypalz', 'verifyaccountt', 'zzzz']) {
      const result = segment(text, dictionary);
      const covered = result.words.reduce((sum, found) => sum + found.word.length, 0);
      expect(covered + result.unknownChars).toBe(text.length);
      for (const found of result.words) {
        expect(text.slice(found.start, found.start + found.word.length)).toBe(found.word);
        expect(dictionary).toContain(found.word);
      }
    }
  });

  it('builds a trie that shares prefixes and marks words, and ignores 1-letter words', () => {
    const dictionary = createDictionary(['paypal', 'pay', 'a']);
    // p-a-y-p-a-l: six nodes below the root, `pay` reuses the first three.
    expect(dictionary.childNode).toHaveLength(6);
    expect(dictionary.childStart).toHaveLength(8);
    expect([...dictionary.terminal].filter((t) => t === 1)).toHaveLength(2);
    expect(dictionary.words.has('a')).toBe(false);
    expect(segmentWords('payday', dictionary)).toEqual({
      words: words(['pay', 0]),
      unknownChars: 3,
    });
    expect(segmentWords('xpaypal', dictionary)).toEqual({
      words: words(['paypal', 1]),
      unknownChars: 1,
    });
  });
});
