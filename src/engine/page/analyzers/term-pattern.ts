/**
 * @module engine/page/analyzers/term-pattern
 * Keyword lists → one linear regular expression, and bounded matching over page text. Shared by
 * the credential, lure and social analyzers, whose multilingual keyword lists (detection.md §2.6,
 * §2.8) are data in their `*-patterns.ts` files.
 *
 * One alternation per list scans the text once instead of once per keyword. Words of scripts with
 * spaces must stand alone (`paket` does not match inside `paketdienst`… but `pakete` neither, so
 * lists spell the forms they need); CJK terms have no word boundaries and match anywhere.
 */
import { around } from '../page-finding.js';

const ESCAPE = /[.*+?^${}()|[\]\\]/g;
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]/;

/**
 * One global, Unicode pattern matching any of `terms` (lower-case literals; a space matches any
 * run of whitespace) in lower-cased text. Terms with CJK characters match without boundaries.
 * Case-sensitive on purpose: the texts are lower-cased already, and Unicode case folding makes a
 * long alternation about twenty times slower in V8.
 */
export function termPattern(terms: readonly string[]): RegExp {
  const literal = (t: string): string => t.replace(ESCAPE, '\\$&').replace(/ +/g, '\\s+');
  const spaced = terms.filter((t) => !CJK.test(t)).map(literal);
  const cjk = terms.filter((t) => CJK.test(t)).map(literal);
  const parts: string[] = [];
  // Longest first so "entrega fallida" wins over "entrega" at the same position.
  const byLength = (a: string, b: string): number => b.length - a.length;
  if (spaced.length > 0) {
    parts.push(`(?<![\\p{L}\\p{N}])(?:${spaced.sort(byLength).join('|')})(?![\\p{L}\\p{N}])`);
  }
  if (cjk.length > 0) parts.push(`(?:${cjk.sort(byLength).join('|')})`);
  return new RegExp(parts.join('|'), 'gu');
}

/** A match and the text around it (evidence). */
export interface TermHit {
  term: string;
  evidence: string;
}

/**
 * The distinct terms of `pattern` (global) found in `text`, first occurrence of each, at most
 * `max` distinct terms and `4 × max` matches looked at.
 */
export function distinctTerms(pattern: RegExp, text: string, max = 8): TermHit[] {
  const hits: TermHit[] = [];
  let seen = 0;
  for (const match of text.matchAll(pattern)) {
    const term = match[0].replace(/\s+/g, ' ');
    if (!hits.some((h) => h.term === term)) {
      hits.push({ term, evidence: around(text, match.index, match[0].length) });
      if (hits.length >= max) break;
    }
    seen += 1;
    if (seen >= 4 * max) break;
  }
  return hits;
}

/** The first match of any of `patterns` in `text`, with the text around it; null when none. */
export function firstHit(patterns: readonly RegExp[], text: string): TermHit | null {
  for (const pattern of patterns) {
    pattern.lastIndex = 0;
    const match = pattern.exec(text);
    pattern.lastIndex = 0;
    if (match !== null) {
      return {
        term: match[0].replace(/\s+/g, ' '),
        evidence: around(text, match.index, match[0].length),
      };
    }
  }
  return null;
}
