import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import {
  API_KEY_LENGTH,
  generateApiKey,
  hashApiKey,
  hashesEqual,
  isWellFormedApiKey,
  type RandomBytes,
} from './api-key.js';

/** A byte source that returns the given buffers in turn (copied, sized as requested). */
function fixedBytes(...chunks: number[][]): RandomBytes {
  let next = 0;
  return (size) => {
    const chunk = chunks[next++];
    if (chunk === undefined) throw new Error('fixedBytes: no more chunks');
    expect(chunk).toHaveLength(size);
    return Uint8Array.from(chunk);
  };
}

const zeros = (n: number): number[] => Array.from({ length: n }, () => 0);
const ones = (n: number): number[] => Array.from({ length: n }, () => 0xff);

describe('generateApiKey', () => {
  it('returns a well-formed raw key, an id, the display prefix and the SHA-256', () => {
    const key = generateApiKey();
    expect(key.raw).toMatch(/^sk_live_[0-9A-Za-z]{43}$/);
    expect(key.raw).toHaveLength(51);
    expect(key.id).toMatch(/^key_[0-9A-Za-z]{12}$/);
    expect(key.prefix).toBe(key.raw.slice(0, 12));
    expect(key.prefix.startsWith('sk_live_')).toBe(true);
    expect(key.hash.equals(createHash('sha256').update(key.raw).digest())).toBe(true);
    expect(isWellFormedApiKey(key.raw)).toBe(true);
  });

  it('left-pads small values so every key has the same length', () => {
    const key = generateApiKey(fixedBytes(zeros(32), zeros(16)));
    expect(key.raw).toBe(`sk_live_${'0'.repeat(43)}`);
    expect(key.id).toBe(`key_${'0'.repeat(12)}`);

    // One leading zero byte: base-x writes it as a '0' of its own; the padded result is still 43.
    const leadingZero = generateApiKey(fixedBytes([0, ...ones(31)], zeros(16)));
    expect(leadingZero.raw).toHaveLength(API_KEY_LENGTH);
    expect(isWellFormedApiKey(leadingZero.raw)).toBe(true);
  });

  it('needs all 43 digits for the largest 32-byte value (2^256 - 1)', () => {
    const key = generateApiKey(fixedBytes(ones(32), ones(16)));
    expect(key.raw).toHaveLength(API_KEY_LENGTH);
    expect(key.raw[8]).not.toBe('0');
    expect(key.id).toMatch(/^key_[0-9A-Za-z]{12}$/);
  });

  it('encodes the random bytes as a base62 number', () => {
    const last = [...zeros(31), 61];
    expect(generateApiKey(fixedBytes(last, zeros(16))).raw).toBe(`sk_live_${'0'.repeat(42)}z`);
    const sixtyTwo = [...zeros(31), 62];
    expect(generateApiKey(fixedBytes(sixtyTwo, zeros(16))).raw).toBe(`sk_live_${'0'.repeat(41)}10`);
  });

  it('produces distinct keys and ids of constant length', () => {
    const keys = Array.from({ length: 500 }, () => generateApiKey());
    expect(new Set(keys.map((k) => k.raw)).size).toBe(500);
    expect(new Set(keys.map((k) => k.id)).size).toBe(500);
    expect(keys.every((k) => k.raw.length === API_KEY_LENGTH && k.id.length === 16)).toBe(true);
  });
});

describe('hashApiKey', () => {
  it('is SHA-256 of the UTF-8 key (32 bytes)', () => {
    // Known answer: SHA-256("abc"), FIPS 180-2 appendix B.1.
    expect(hashApiKey('abc').toString('hex')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hashApiKey('sk_live_x')).toHaveLength(32);
  });
});

describe('isWellFormedApiKey', () => {
  const valid = `sk_live_${'aZ09'.repeat(10)}abc`;

  it('accepts exactly sk_live_ + 43 base62 characters', () => {
    expect(valid).toHaveLength(51);
    expect(isWellFormedApiKey(valid)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['prefix only', 'sk_live_'],
    ['one character short', valid.slice(0, -1)],
    ['one character long', `${valid}a`],
    ['wrong prefix', `sk_test_${valid.slice(8)}`],
    ['upper-case prefix', `SK_LIVE_${valid.slice(8)}`],
    ['other token type', `mcp_at_${valid.slice(7)}`],
    ['dash', `${valid.slice(0, -1)}-`],
    ['underscore in the body', `${valid.slice(0, -1)}_`],
    ['trailing newline', `${valid.slice(0, -1)}\n`],
    ['leading space', ` ${valid.slice(0, -1)}`],
    ['non-ASCII letter', `${valid.slice(0, -1)}é`],
    ['Bearer scheme included', `Bearer ${valid}`],
    ['very long input', `sk_live_${'a'.repeat(100_000)}`],
  ])('rejects %s', (_label, raw) => {
    expect(isWellFormedApiKey(raw)).toBe(false);
  });
});

describe('hashesEqual', () => {
  it('is true for equal bytes and false when one byte differs', () => {
    const a = hashApiKey('one');
    expect(hashesEqual(a, Buffer.from(a))).toBe(true);
    const b = Buffer.from(a);
    b[31] = (b[31] ?? 0) ^ 1;
    expect(hashesEqual(a, b)).toBe(false);
    expect(hashesEqual(a, hashApiKey('two'))).toBe(false);
  });

  it('is false, without throwing, for different lengths', () => {
    const a = hashApiKey('one');
    expect(hashesEqual(a, a.subarray(0, 31))).toBe(false);
    expect(hashesEqual(a, Buffer.alloc(0))).toBe(false);
  });
});
