import { describe, expect, it } from 'vitest';

import {
  createFeatureBuffer,
  HASH_BITS,
  hostFeatures,
  hostNgrams,
  MAX_FEATURES,
  modelHost,
} from './host-features.js';

function features(host: string, suffix: string): Map<number, number> {
  const buffer = createFeatureBuffer();
  hostFeatures(host, suffix, buffer);
  const out = new Map<number, number>();
  for (let i = 0; i < buffer.count; i++) {
    const index = buffer.indices[i] ?? -1;
    out.set(index, (out.get(index) ?? 0) + (buffer.values[i] ?? 0));
  }
  return out;
}

describe('modelHost', () => {
  it('drops www labels, case and the trailing dot', () => {
    expect(modelHost('WWW.Example.COM.')).toBe('example.com');
    expect(modelHost('www.www.x.pages.dev')).toBe('x.pages.dev');
    expect(modelHost('www')).toBe('www');
  });
});

describe('hostFeatures', () => {
  it('is deterministic and stays inside the hash space', () => {
    const a = features('paypal-secure-login.top', 'top');
    const b = features('paypal-secure-login.top', 'top');
    expect([...a]).toEqual([...b]);
    for (const index of a.keys()) {
      expect(index).toBeGreaterThanOrEqual(0);
      expect(index).toBeLessThan(1 << HASH_BITS);
    }
  });

  it('reads n-grams of the name left of the suffix: the suffix is one token', () => {
    // Same name, different platforms: they share every n-gram and differ in the suffix token.
    const pages = features('wallet-sync.pages.dev', 'pages.dev');
    const vercel = features('wallet-sync.vercel.app', 'vercel.app');
    const shared = [...pages.keys()].filter((k) => vercel.has(k));
    expect(pages.size - shared.length).toBeLessThanOrEqual(2);
    expect(hostNgrams('wallet-sync.pages.dev', 'pages.dev').map((g) => g.text)).not.toContain(
      'pag',
    );
    expect(hostNgrams('wallet-sync.pages.dev', 'pages.dev').map((g) => g.text)).toContain('^wal');
  });

  it('weighs n-grams by 1/√count, so a long name does not score by length alone', () => {
    const buffer = createFeatureBuffer();
    hostFeatures('abcdefgh.com', 'com', buffer);
    // `^abcdefgh$` has 10 characters: 8 + 7 + 6 = 21 n-grams of lengths 3–5.
    expect(buffer.values[0]).toBeCloseTo(1 / Math.sqrt(21), 6);
  });

  it('caps the number of features for the longest legal host', () => {
    const label = 'a'.repeat(63);
    const host = `${label}.${label}.${label}.${'b'.repeat(57)}.com`;
    const buffer = createFeatureBuffer();
    hostFeatures(host, 'com', buffer);
    expect(buffer.count).toBeLessThanOrEqual(MAX_FEATURES);
    expect(buffer.count).toBeGreaterThan(700);
  });

  it('names the n-grams behind each index, anchors included', () => {
    const grams = hostNgrams('ab-cd.com', 'com').map((g) => g.text);
    expect(grams).toContain('^ab');
    expect(grams).toContain('cd$');
    expect(grams).toHaveLength(5 + 4 + 3);
  });
});
