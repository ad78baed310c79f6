/**
 * @module engine/brand/mixed-script
 * Script mixing inside one host label, after Chromium's IDN display policy (detection.md §1.3):
 * Latin, Cyrillic and Greek may not mix with each other; a label written wholly in Cyrillic or
 * Greek whose skeleton is plain ASCII (`аррӏе`) is a whole-script confusable unless the TLD belongs
 * to that script's countries.
 */

/** Scripts that matter for Latin look-alikes; other letters count as `other`. */
export type LetterScript = 'latin' | 'cyrillic' | 'greek' | 'other';

const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const GREEK = /\p{Script=Greek}/u;
const LETTER = /\p{L}/u;

/**
 * TLDs where a Cyrillic-only label is expected (Chromium's list: ru, su, рф, ua, укр, by, бел, kz,
 * қаз, bg, бг, mk, мкд, rs, срб, mn, мон, kg, tj, uz), in ASCII form.
 */
const CYRILLIC_TLDS: ReadonlySet<string> = new Set([
  'ru',
  'su',
  'xn--p1ai',
  'ua',
  'xn--j1amh',
  'by',
  'xn--90ais',
  'kz',
  'xn--80ao21a',
  'bg',
  'xn--90ae',
  'mk',
  'xn--d1alf',
  'rs',
  'xn--90a3ac',
  'mn',
  'xn--l1acc',
  'kg',
  'tj',
  'uz',
]);
/** TLDs where a Greek-only label is expected: gr, ελ, cy. */
const GREEK_TLDS: ReadonlySet<string> = new Set(['gr', 'xn--qxam', 'cy']);

/** The set of letter scripts present in `label` (digits, hyphens and marks are ignored). */
export function letterScripts(label: string): Set<LetterScript> {
  const scripts = new Set<LetterScript>();
  for (const char of label) {
    if (char < '\u0080') {
      if ((char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z')) scripts.add('latin');
      continue;
    }
    if (!LETTER.test(char)) continue;
    if (LATIN.test(char)) scripts.add('latin');
    else if (CYRILLIC.test(char)) scripts.add('cyrillic');
    else if (GREEK.test(char)) scripts.add('greek');
    else scripts.add('other');
  }
  return scripts;
}

/** True when a label mixes two of Latin, Cyrillic and Greek (Chromium: show punycode). */
export function isMixedScript(scripts: ReadonlySet<LetterScript>): boolean {
  let count = 0;
  if (scripts.has('latin')) count++;
  if (scripts.has('cyrillic')) count++;
  if (scripts.has('greek')) count++;
  return count > 1;
}

/**
 * True when a single-script Cyrillic or Greek label looks entirely Latin (its skeleton is ASCII
 * letters/digits/hyphens) and the TLD does not belong to that script.
 *
 * @param scripts result of {@link letterScripts}.
 * @param skeleton skeleton of the label.
 * @param tld last label of the host, ASCII.
 */
export function isWholeScriptConfusable(
  scripts: ReadonlySet<LetterScript>,
  skeleton: string,
  tld: string,
): boolean {
  if (scripts.size !== 1 || !/^[a-z0-9-]+$/.test(skeleton)) return false;
  if (scripts.has('cyrillic')) return !CYRILLIC_TLDS.has(tld);
  if (scripts.has('greek')) return !GREEK_TLDS.has(tld);
  return false;
}
