/**
 * @module engine/page/analyzers/money
 * Money amounts as pages print them, for the small-fee rule of the lure analyzer (detection.md
 * §2.6 `[$€£]\s?[0-4][.,]\d{2}`) and the struck/current price ratio of the social analyzer (§2.8).
 */

/**
 * Money amounts with a currency sign or code in lower-cased text: `$1.99`, `1,79 €`, `r$ 999,00`,
 * `330円`, `¥330`.
 * The number part has no nested free repetition (separators are required between groups).
 */
export const MONEY =
  /(?:(r\$|us\$|[$€£¥₹])\s?(\d{1,3}(?:[.,\s]\d{3})*(?:[.,]\d{1,2})?)|(\d{1,3}(?:[.,\s]\d{3})*(?:[.,]\d{1,2})?)\s?(€|eur\b|usd\b|£|円|元|zł|chf\b))/gu;

/**
 * The value of a printed number: `1,79` → 1.79, `9.299,00` → 9299, `1,280.00` → 1280, `330` →
 * 330. A final `.` or `,` followed by one or two digits is the decimal separator; other dots,
 * commas and spaces group thousands.
 */
export function parseAmount(text: string): number | null {
  const compact = text.replace(/\s/g, '');
  const decimal = /[.,](\d{1,2})$/.exec(compact);
  const integer = (decimal === null ? compact : compact.slice(0, decimal.index)).replace(
    /[.,]/g,
    '',
  );
  const value = Number(`${integer}.${decimal?.[1] ?? '0'}`);
  return Number.isFinite(value) && integer !== '' ? value : null;
}
