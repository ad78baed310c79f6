/** Brand names in page text: tokens and multi-word names count, short everyday aliases do not. */
import { describe, expect, it } from 'vitest';

import { brandsInText } from '../../src/engine/page/page-brands.js';
import { defaultEngine } from '../../src/engine-data/load-engine-data.js';

const names = (text: string): string[] =>
  brandsInText(text, defaultEngine().brands).map((brand) => brand.name);

describe('brandsInText', () => {
  it.each([
    ['Entrar no PayPal', ['PayPal']],
    ['DHL Paket: Zollgebühren', ['DHL']],
    ['Itaú Unibanco · Atualização de segurança', ['Itaú']],
    ['HM Revenue and Customs tax refund', ['HMRC']],
    ['United States Postal Service redelivery', ['USPS']],
  ])('%s names %j', (text, expected) => {
    expect(names(text)).toEqual(expect.arrayContaining(expected));
  });

  it.each([
    // `e&` (Etisalat) normalizes to the Portuguese and Italian "e".
    ['Acesse sua conta e confirme', 'e& (Etisalat)'],
    // HBO's alias `max`.
    ['Nike Air Max 90 – 90% Rabatt', 'Max (HBO)'],
    // United Airlines' alias `united`.
    ['Shipping to the United Kingdom', 'United Airlines'],
  ])('%s does not name %s', (text, brand) => {
    expect(names(text)).not.toContain(brand);
  });
});
