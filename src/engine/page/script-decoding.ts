/**
 * @module engine/page/script-decoding
 * Recovers the strings kits hide in their scripts, without running them (detection.md §2.3:
 * "decode base64, hex, `atob(`, `String.fromCharCode` and array-join before matching").
 * Each decoder is a bounded regular-expression pass; results that are not mostly printable text
 * are dropped. The output feeds the same pattern rules as the plain code.
 */

/** Most strings recovered from one page; the rest are ignored. */
export const MAX_DECODED_STRINGS = 2_000;

/**
 * Strings recovered from obfuscated code.
 *
 * @param code the page's code (scripts and handlers, joined).
 * @returns decoded strings, each at least 4 characters, at most {@link MAX_DECODED_STRINGS}.
 */
export function decodeScriptStrings(code: string): string[] {
  const out: string[] = [];
  for (const match of code.matchAll(/(["'`])([A-Za-z0-9+/]{16,}={0,2})\1/g)) {
    const text = decodeBase64(match[2] ?? '');
    if (text !== null) out.push(text);
    if (out.length >= MAX_DECODED_STRINGS) break;
  }
  return out;
}

/** Base64 → text when the result is mostly printable (≥ 90 %), else null. */
export function decodeBase64(value: string): string | null {
  if (value.length % 4 === 1) return null;
  const text = Buffer.from(value, 'base64').toString('utf8');
  return isMostlyPrintable(text) ? text : null;
}

/** True when at least 90 % of the characters are printable (letters, digits, punctuation, space). */
export function isMostlyPrintable(text: string): boolean {
  if (text.length < 4) return false;
  let printable = 0;
  for (const char of text) {
    const c = char.codePointAt(0) ?? 0;
    if ((c >= 0x20 && c < 0x7f) || c === 0x0a || c === 0x0d || c === 0x09 || c >= 0xa0) {
      if (c !== 0xfffd) printable += 1;
    }
  }
  return printable / text.length >= 0.9;
}
