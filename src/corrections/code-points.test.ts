import { describe, expect, it } from 'vitest';

import { codePointLength } from './code-points.js';

describe('codePointLength', () => {
  it('counts code points, an astral character once', () => {
    expect(codePointLength('')).toBe(0);
    expect(codePointLength('abc')).toBe(3);
    expect(codePointLength('é')).toBe(1);
    expect(codePointLength('🦊🦊')).toBe(2);
    expect('🦊🦊'.length).toBe(4);
  });

  it('counts a lone surrogate as one', () => {
    expect(codePointLength('\ud83e')).toBe(1);
    expect(codePointLength('a\udc8a')).toBe(2);
  });
});
