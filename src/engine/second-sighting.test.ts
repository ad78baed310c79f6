import { describe, expect, it } from 'vitest';

import { fnv1a, SecondSighting } from './second-sighting.js';

describe('fnv1a', () => {
  it('matches the published FNV-1a 32-bit test vectors', () => {
    // From the FNV reference test suite (draft-eastlake-fnv): "" and "a" and "foobar".
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });
});

describe('SecondSighting', () => {
  it('admits a key the second time it is seen', () => {
    const filter = new SecondSighting();
    expect(filter.admit('https://a.example/')).toBe(false);
    expect(filter.admit('https://b.example/')).toBe(false);
    expect(filter.admit('https://a.example/')).toBe(true);
    expect(filter.admit('https://a.example/')).toBe(true);
  });

  it('forgets everything when its window is full', () => {
    const filter = new SecondSighting(2);
    filter.admit('a');
    filter.admit('b');
    filter.admit('c'); // window full: starts over with c
    expect(filter.admit('a')).toBe(false);
    expect(filter.admit('c')).toBe(true);
  });
});
