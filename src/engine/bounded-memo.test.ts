import { describe, expect, it } from 'vitest';

import { BoundedMemo } from './bounded-memo.js';

describe('BoundedMemo', () => {
  it('remembers values and returns what it was given', () => {
    const memo = new BoundedMemo<number>(10);
    expect(memo.get('a')).toBeUndefined();
    expect(memo.remember('a', 1)).toBe(1);
    expect(memo.get('a')).toBe(1);
    expect(memo.size).toBe(1);
  });

  it('never holds more than its capacity', () => {
    const memo = new BoundedMemo<number>(3);
    for (let index = 0; index < 10; index++) {
      memo.remember(`k${String(index)}`, index);
      expect(memo.size).toBeLessThanOrEqual(3);
    }
    expect(memo.get('k9')).toBe(9);
    expect(memo.get('k0')).toBeUndefined();
  });

  it('with second-sighting admission, keeps a key only from its second sighting', () => {
    const memo = new BoundedMemo<string>(10, true);
    expect(memo.remember('once', 'v1')).toBe('v1');
    expect(memo.get('once')).toBeUndefined();
    memo.remember('once', 'v2');
    expect(memo.get('once')).toBe('v2');
  });
});
