/**
 * @module corrections/code-points
 * Length of user and operator text in Unicode code points: what JSON Schema's `maxLength` counts
 * (JSON Schema Validation 2020-12, §6.3.1), so a comment the API's schema admits is admitted by
 * the service on every door, and an emoji counts once, not as two UTF-16 units.
 */

/** Number of Unicode code points in `text` (a lone surrogate counts as one). */
export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}
