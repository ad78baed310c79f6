import { describe, expect, it } from 'vitest';

import { seededRandom } from '../../../test/helpers/seeded-random.js';
import { osaDistance } from './osa-distance.js';

/** Full optimal-string-alignment distance, no bound and no early exit: the test oracle. */
function naiveOsa(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] ?? [];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, at(i - 2, j - 2) + 1);
      }
      row[j] = value;
    }
  }
  return at(a.length, b.length);
}

describe('osaDistance', () => {
  it.each<[string, string, number, number]>([
    ['paypal', 'paypal', 2, 0],
    ['', '', 0, 0],
    ['paypal', 'paypal', 0, 0],
    ['paypal', 'paypall', 2, 1], // insertion
    ['paypal', 'paypl', 2, 1], // deletion
    ['paypal', 'paypol', 2, 1], // substitution
    ['paypal', 'aypal', 2, 1], // deletion at the start
    ['paypal', 'xpaypal', 2, 1], // insertion at the start
    ['paypla', 'paypal', 2, 1], // adjacent transposition
    ['apyapl', 'paypal', 2, 2], // two transpositions
    ['ab', 'ba', 1, 1],
    ['', 'abc', 5, 3],
    ['abc', '', 5, 3],
    ['kitten', 'sitting', 5, 3],
    // OSA, not unrestricted Damerau-Levenshtein: no edit of a transposed pair (true DL is 2).
    ['ca', 'abc', 5, 3],
  ])('%j vs %j (limit %i) = %i', (a, b, limit, expected) => {
    expect(osaDistance(a, b, limit)).toBe(expected);
    expect(osaDistance(b, a, limit)).toBe(expected);
  });

  it.each<[string, string, number]>([
    ['paypal', 'pay', 1], // length difference alone exceeds the limit
    ['paypal', 'paypa', 0],
    ['kitten', 'sitting', 2],
    ['abcdef', 'ghijkl', 2],
    ['abcdef', 'ghijkl', 0],
    ['microsoft', 'rnicrosoft', 1],
    ['aaaa', 'bbbb', 3],
  ])('%j vs %j beyond limit %i → limit + 1', (a, b, limit) => {
    expect(naiveOsa(a, b)).toBeGreaterThan(limit);
    expect(osaDistance(a, b, limit)).toBe(limit + 1);
  });

  it('returns the exact distance when it equals the limit', () => {
    expect(osaDistance('kitten', 'sitting', 3)).toBe(3);
    expect(osaDistance('microsoft', 'rnicrosoft', 2)).toBe(2);
  });

  it('agrees with a full OSA table for 500 random pairs (early exit changes nothing)', () => {
    const next = seededRandom(0x05a);
    const word = (): string => {
      const length = Math.floor(next() * 8);
      let text = '';
      for (let i = 0; i < length; i++) text += 'abcd'[Math.floor(next() * 4)] ?? '';
      return text;
    };
    for (let n = 0; n < 500; n++) {
      const a = word();
      const b = word();
      const full = naiveOsa(a, b);
      for (let limit = 0; limit <= 8; limit++) {
        expect(osaDistance(a, b, limit), `${a} vs ${b}, limit ${limit}`).toBe(
          Math.min(full, limit + 1),
        );
      }
    }
  });

  it('the oracle itself gives known OSA distances', () => {
    expect(naiveOsa('ca', 'abc')).toBe(3);
    expect(naiveOsa('paypla', 'paypal')).toBe(1);
    expect(naiveOsa('kitten', 'sitting')).toBe(3);
  });
});
