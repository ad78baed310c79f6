/**
 * @module engine/page/analyzers/decoded-documents
 * The page's own document plus the HTML a kit hides in its scripts. Cloaked kits ship an almost
 * empty page and write the real login form with `document.write(atob("…"))` once the visitor
 * passed their checks (detection.md §2.0 "cloaking awareness", §6.6 obfuscation
 * `document\.write\s*\(\s*(unescape|atob)\s*\(`). `script-decoding.ts` already recovers those
 * strings into `PageView.decoded`; the ones that look like markup are parsed here with the same
 * streaming parser so the form, its fields and the brand it shows can be judged like static HTML.
 *
 * Shared by the credential and lure analyzers (both need the hidden form); the parsed documents
 * are remembered per view so a page's blobs are parsed once.
 */
import type { PageView } from '../page-context.js';
import type { PageDocument } from '../page-document.js';
import { parsePage } from '../parse-page.js';

/** Decoded strings parsed per page: a kit has one or two blobs; more is noise or an attack. */
const MAX_DECODED_DOCUMENTS = 3;
/**
 * Characters of one decoded string given to the parser. A login form is a few kilobytes; the cap
 * bounds the parse (htmlparser2 slows down on thousands of unclosed nested elements).
 */
const MAX_DECODED_HTML_CHARS = 32 * 1024;
/** Markup that can carry a form or an identity: an element tag, not a stray `<`. */
const LOOKS_LIKE_HTML =
  /<(?:form|input|button|html|body|div|h[1-3]|img|p|a|iframe|title)\b[^<>]*>/i;

const cache = new WeakMap<PageView, readonly PageDocument[]>();

/**
 * The page's document followed by documents parsed from decoded script strings that look like
 * HTML (at most {@link MAX_DECODED_DOCUMENTS}, each cut at {@link MAX_DECODED_HTML_CHARS}).
 */
export function pageDocuments(page: PageView): readonly PageDocument[] {
  const known = cache.get(page);
  if (known !== undefined) return known;
  const docs: PageDocument[] = [page.doc];
  for (const text of page.decoded) {
    if (docs.length > MAX_DECODED_DOCUMENTS) break; // the page's own document plus the cap
    if (text.length < 24 || !LOOKS_LIKE_HTML.test(text.slice(0, MAX_DECODED_HTML_CHARS))) continue;
    docs.push(parsePage(text.slice(0, MAX_DECODED_HTML_CHARS)));
  }
  cache.set(page, docs);
  return docs;
}
