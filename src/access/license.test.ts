import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { generateApiKey, isWellFormedApiKey } from './api-key.js';
import { generateLicense, hashLicense, isWellFormedLicense } from './license.js';

const bytes = (n: number, value: number): Uint8Array => new Uint8Array(n).fill(value);

describe('generateLicense', () => {
  it('returns lic_ + 43 base62, an lk_ id, the display prefix and the SHA-256', () => {
    const license = generateLicense();
    expect(license.raw).toMatch(/^lic_[0-9A-Za-z]{43}$/);
    expect(license.id).toMatch(/^lk_[0-9A-Za-z]{12}$/);
    expect(license.prefix).toBe(license.raw.slice(0, 8));
    expect(license.hash.equals(createHash('sha256').update(license.raw).digest())).toBe(true);
    expect(hashLicense(license.raw).equals(license.hash)).toBe(true);
    expect(isWellFormedLicense(license.raw)).toBe(true);
  });

  it('pads small values and uses all 43 digits for the largest', () => {
    const zero = generateLicense((size) => bytes(size, 0));
    expect(zero.raw).toBe(`lic_${'0'.repeat(43)}`);
    expect(zero.id).toBe(`lk_${'0'.repeat(12)}`);
    const max = generateLicense((size) => bytes(size, 0xff));
    expect(max.raw).toHaveLength(47);
    expect(max.raw[4]).not.toBe('0');
  });

  it('produces distinct licenses and ids', () => {
    const licenses = Array.from({ length: 200 }, () => generateLicense());
    expect(new Set(licenses.map((l) => l.raw)).size).toBe(200);
    expect(new Set(licenses.map((l) => l.id)).size).toBe(200);
  });
});

describe('isWellFormedLicense', () => {
  const good = generateLicense().raw;

  it('rejects other lengths, characters, prefixes and credential types', () => {
    for (const bad of [
      '',
      good.slice(0, -1),
      `${good}0`,
      ` ${good}`,
      `${good.slice(0, -1)}-`,
      `LIC_${good.slice(4)}`,
      `lk_${good.slice(4)}0`,
      generateApiKey().raw,
      'x'.repeat(100_000),
    ]) {
      expect(isWellFormedLicense(bad), JSON.stringify(bad.slice(0, 60))).toBe(false);
    }
  });

  it('is not an API key either', () => {
    expect(isWellFormedApiKey(good)).toBe(false);
  });
});
