import { describe, expect, it } from 'vitest';

import type { BrandRecord } from '../engine-data.js';
import { BrandIndex, lookalikeTolerance, normalizeBrandName, tokenCore } from './brand-index.js';

const brand = (
  over: Partial<BrandRecord> & Pick<BrandRecord, 'id' | 'name' | 'tokens' | 'domains'>,
): BrandRecord => ({
  aliases: [],
  common_word: false,
  category: 'payment',
  country: 'US',
  scope: 'global',
  ...over,
});

/** Identity skeleton except `1` → `l`, enough to exercise the skeleton indexes. */
const skeleton = (text: string): string => text.replace(/1/g, 'l');

const index = new BrandIndex(
  [
    brand({
      id: 'paypal',
      name: 'PayPal',
      tokens: ['paypal'],
      domains: ['paypal.com', 'paypal.co.uk'],
    }),
    brand({
      id: 'metamask',
      name: 'MetaMask',
      tokens: ['metamask'],
      domains: ['metamask.io'],
      category: 'wallet',
    }),
    brand({
      id: 'mbank',
      name: 'mBank',
      tokens: ['mbank'],
      domains: ['mbank.pl'],
      category: 'bank',
    }),
    brand({
      id: 'bank-of-example',
      name: 'Bank of Example',
      tokens: ['bankofexample'],
      domains: ['bankofexample.com'],
      category: 'bank',
    }),
    brand({
      id: 'myetherwallet',
      name: 'MyEtherWallet',
      tokens: ['myetherwallet'],
      domains: ['myetherwallet.com'],
      category: 'wallet',
    }),
    brand({
      id: 'apple',
      name: 'Apple',
      tokens: ['apple'],
      domains: ['apple.com'],
      common_word: true,
      category: 'tech',
      aliases: ['apple inc'],
    }),
  ],
  skeleton,
);

describe('tokenCore and lookalikeTolerance', () => {
  it.each([
    ['mbank', 'm'],
    ['isbank', 'is'],
    ['paypal', 'paypal'],
    ['myetherwallet', 'myether'],
    ['bank', 'bank'],
  ])('core of %s is %s', (token, core) => {
    expect(tokenCore(token)).toBe(core);
  });

  it.each([
    ['paypal', 1],
    ['metamask', 1],
    ['myetherwallet', 1],
    ['bankofexample', 2],
    ['mbank', 0],
    ['tesco', 0],
  ])('%s tolerates %i edits', (token, tolerance) => {
    expect(lookalikeTolerance(token)).toBe(tolerance);
  });
});

describe('BrandIndex', () => {
  it('maps official domains and domain labels to their brand', () => {
    expect(index.officialBrand('paypal.co.uk')?.id).toBe('paypal');
    expect(index.officialBrand('paypal.de')).toBeUndefined();
    expect(index.brandByDomainLabel('paypal')?.id).toBe('paypal');
  });

  it('marks short-core and common-word tokens as not distinctive', () => {
    expect(index.token('paypal')?.distinctive).toBe(true);
    expect(index.token('mbank')?.distinctive).toBe(false);
    expect(index.token('apple')?.distinctive).toBe(false);
  });

  it('finds distinctive tokens inside text, with their offsets', () => {
    expect(index.findDistinctive('xxpaypalsecure').map((h) => [h.entry.token, h.index])).toEqual([
      ['paypal', 2],
    ]);
    expect(index.findDistinctive('fincombank')).toEqual([]);
  });

  it('finds distinctive tokens by skeleton', () => {
    expect(index.tokenBySkeleton(skeleton('paypa1'))?.token).toBe('paypal');
    expect(
      index.findDistinctiveInSkeleton(skeleton('paypa1login')).map((h) => h.entry.token),
    ).toEqual(['paypal']);
  });

  it.each<[string, string | null, number]>([
    ['paypai', 'paypal', 1],
    ['paypla', 'paypal', 1],
    ['paypall', 'paypal', 1],
    ['metamsk', 'metamask', 1],
    ['bankofexamle', 'bankofexample', 1],
    ['bnkofexamle', 'bankofexample', 2],
    ['paypal', null, 0],
    ['pypl', null, 0],
    ['mbanq', null, 0],
  ])('lookalike of %s: %s', (label, token, distance) => {
    const hits = index.findLookalikes(label);
    if (token === null) {
      expect(hits).toEqual([]);
    } else {
      expect(hits.map((h) => [h.entry.token, h.distance])).toEqual([[token, distance]]);
      // Memoized answers are identical.
      expect(index.findLookalikes(label)).toEqual(hits);
    }
  });

  it('recognises a multi-word display name spelled with hyphens, not informal splits', () => {
    const bank = index.brandByName('Bank of Example');
    const metamask = index.brandByName('metamask');
    expect(bank && index.isSpelledName(bank, 'bank-of-example')).toBe(true);
    expect(metamask && index.isSpelledName(metamask, 'meta-mask')).toBe(false);
  });

  it('looks brands up by id, name, alias and corporate spellings', () => {
    expect(index.brandByName('PAYPAL')?.id).toBe('paypal');
    expect(index.brandByName('PayPal, Inc.')?.id).toBe('paypal');
    expect(index.brandByName('paypal.com')?.id).toBe('paypal');
    expect(index.brandByName('Apple Inc.')?.id).toBe('apple');
    expect(index.brandByName('Bank of Example Corporation')?.id).toBe('bank-of-example');
    expect(index.brandByName('Nobody Bank')).toBeUndefined();
  });

  it('refuses a catalog where two brands claim one domain or token', () => {
    const twice = (field: 'domains' | 'tokens') =>
      new BrandIndex(
        [
          brand({ id: 'a', name: 'A', tokens: ['alpha'], domains: ['alpha.com'] }),
          brand({
            id: 'b',
            name: 'B',
            tokens: field === 'tokens' ? ['alpha'] : ['beta'],
            domains: field === 'domains' ? ['alpha.com'] : ['beta.com'],
          }),
        ],
        skeleton,
      );
    expect(() => twice('domains')).toThrow(/domain "alpha.com" is claimed twice/);
    expect(() => twice('tokens')).toThrow(/token "alpha" is claimed twice/);
  });
});

describe('normalizeBrandName', () => {
  it.each([
    ['eBay, Inc.', 'ebay'],
    ['Amazon.com', 'amazon'],
    ["Her Majesty's Revenue", 'her majesty revenue'],
    ['AT&amp;T', 'at t'],
    ['Banco Santander, S.A.', 'banco santander'],
  ])('%s → %s', (name, normalized) => {
    expect(normalizeBrandName(name)).toBe(normalized);
  });
});
