import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { seededRandom } from '../../../test/helpers/seeded-random.js';
import { type ConfusableTable, createSkeleton, parseConfusables } from './skeleton.js';

const CONFUSABLES_PATH = join(import.meta.dirname, '../../../data/unicode/confusables.txt');
const table = parseConfusables(readFileSync(CONFUSABLES_PATH, 'utf8'));
const skeleton = createSkeleton(table);

/** UTS #39 skeleton as the module documents it, written out independently of its fast path. */
function referenceSkeleton(text: string, confusables: ConfusableTable): string {
  const decomposed = text.normalize('NFD').replace(/\p{Default_Ignorable_Code_Point}/gu, '');
  let mapped = '';
  for (const char of decomposed) mapped += confusables.get(char.codePointAt(0) ?? 0) ?? char;
  return mapped.normalize('NFD').toLowerCase();
}

const PRINTABLE_ASCII = Array.from({ length: 0x7f - 0x20 }, (_, i) =>
  String.fromCharCode(0x20 + i),
);

describe('parseConfusables', () => {
  it('reads data lines and skips comments and blank lines', () => {
    const text = [
      '# confusables.txt',
      '# Version: 17.0.0',
      '',
      '0430 ;\t0061 ;\tMA',
      '006D ;\t0072 006E ;\tMA',
      '1D4C5 ;\t0070 ;\tMA',
      '',
    ].join('\n');
    expect(parseConfusables(text)).toEqual(
      new Map([
        [0x0430, 'a'],
        [0x006d, 'rn'],
        [0x1d4c5, 'p'],
      ]),
    );
  });

  it('returns an empty table for a file of comments only', () => {
    expect(parseConfusables('# nothing\n\n').size).toBe(0);
  });

  it.each([
    ['a free-text line', 'hello world'],
    ['spaces instead of tabs', '0430 ; 0061 ; MA'],
    ['a non-hex source', '04G0 ;\t0061 ;\tMA'],
    ['a missing target', '0430 ;\t ;\tMA'],
    ['a type other than MA', '0430 ;\t0061 ;\tSL'],
    ['a trailing comment', '0430 ;\t0061 ;\tMA\t# ( а → a )'],
  ])('throws on %s', (_name, line) => {
    expect(() => parseConfusables(`# header\n0061 ;\t0061 ;\tMA\n${line}\n`)).toThrow(
      /confusables\.txt: unexpected line/,
    );
  });

  it('loads the real table', () => {
    expect(table.size).toBeGreaterThan(6000);
    expect(table.get(0x0430)).toBe('a'); // CYRILLIC SMALL LETTER A
    expect(table.get(0x006d)).toBe('rn'); // m
  });
});

describe('createSkeleton with a small table', () => {
  const tiny = createSkeleton(
    parseConfusables(['0430 ;\t0061 ;\tMA', '0440 ;\t0070 ;\tMA', '0030 ;\t004F ;\tMA'].join('\n')),
  );

  it.each([
    ['\u0430\u0440\u0440le', 'apple'], // Cyrillic а р р
    ['g00gle', 'google'], // 0 → O → lowercase
    ['PayPal', 'paypal'],
    ['m', 'm'], // not in this table
  ])('%s → %s', (input, expected) => {
    expect(tiny(input)).toBe(expected);
  });
});

describe('skeleton with confusables.txt', () => {
  it.each([
    ['p\u0430ypal', 'Cyrillic а'],
    [
      '\u03c1\u237a\u0443\ud835\udcc5\ud835\udc82\u05df',
      'ρ⍺у𝓅𝒂ן (Greek, APL, Cyrillic, math, Hebrew)',
    ],
    ['\uff50\uff41\uff59\uff50\uff41\uff4c', 'full-width ｐａｙｐａｌ'],
    ['pay\u200dpal', 'zero-width joiner inside'],
    ['pay\u200bpal', 'zero-width space inside'],
    ['\u00adpaypal', 'soft hyphen in front'],
    ['paypa1', 'digit one for l'],
    ['paypaI', 'capital I for l'],
    ['PAYPAL', 'upper case'],
  ])('%s (%s) has the skeleton of paypal', (input) => {
    expect(skeleton(input)).toBe('paypal');
    expect(skeleton(input)).toBe(skeleton('paypal'));
  });

  it.each([
    ['rnicrosoft', 'microsoft'],
    ['g00gle', 'google'],
    ['\u0430\u0440\u0440\u04cf\u0435', 'apple'], // Cyrillic аррӏе
    ['\u0440\u0430y\u0440\u0430l', 'paypal'],
    ['faceb00k', 'facebook'],
    ['arnazon', 'amazon'],
  ])('%s and %s share a skeleton', (a, b) => {
    expect(skeleton(a)).toBe(skeleton(b));
  });

  it.each([
    ['paypal', 'paypay'],
    ['paypal', 'paypol'],
    ['google', 'gogle'],
    ['apple', 'appl'],
  ])('%s and %s differ', (a, b) => {
    expect(skeleton(a)).not.toBe(skeleton(b));
  });

  it('keeps a diacritic as a combining mark (googlé is not google)', () => {
    expect(skeleton('googl\u00e9')).toBe('google\u0301');
  });

  it('maps each printable ASCII character on the fast path as the full algorithm does', () => {
    for (const char of PRINTABLE_ASCII) {
      expect(skeleton(char), JSON.stringify(char)).toBe(referenceSkeleton(char, table));
    }
  });

  it('gives the same result on the fast and the slow path for printable ASCII strings', () => {
    const next = seededRandom(0x5eed);
    for (let n = 0; n < 500; n++) {
      const length = 1 + Math.floor(next() * 16);
      let text = '';
      for (let i = 0; i < length; i++) {
        text += PRINTABLE_ASCII[Math.floor(next() * PRINTABLE_ASCII.length)] ?? '';
      }
      const fast = skeleton(text);
      expect(fast, JSON.stringify(text)).toBe(referenceSkeleton(text, table));
      // A zero-width space is removed by the slow path, which it forces the function to take.
      expect(skeleton(`${text}\u200b`), JSON.stringify(text)).toBe(fast);
    }
  });

  it('matches the full algorithm on non-ASCII input', () => {
    for (const text of ['p\u0430ypal', 'googl\u00e9', '\u0430\u0440\u0440\u04cf\u0435', 'ǅungla']) {
      expect(skeleton(text)).toBe(referenceSkeleton(text, table));
    }
  });
});
