/**
 * @module engine/page/page-language
 * The language a page is written in (`details.page_language`) and the country it targets
 * (`details.target_country`).
 *
 * Language: the primary subtag of `<html lang>` (BCP 47, RFC 5646 §2.2.1) when it is a real
 * language; otherwise detected from the visible text with franc-min (trigram profiles of 82
 * languages, ISO 639-3 codes mapped to ISO 639-1 with the `iso-639-3` table), only when the text
 * has enough letters. Chosen by measurement on the page corpus with `lang` removed: franc-min
 * misread 2 of 98 readable pages (two UI-label-only dApp pages), tinyld 18 (it reads menus with
 * `·` as Greek), and ELD's databases cost 90–150 MB of RSS, too much next to a million-entry
 * threat index; franc-min adds ~15 MB.
 * n-grams cannot tell Chinese from Japanese on Han characters alone, so scripts decide first:
 * kana means Japanese, Hangul Korean, Han without kana Chinese.
 *
 * Target country: the home country of a national brand a finding names (a USPS lure targets the
 * United States, whatever language it is in), else the region subtag of `<html lang>` (`pt-BR` →
 * `BR`), else unknown.
 */
import { franc } from 'franc-min';
import { iso6393 } from 'iso-639-3';

import type { PageDocument } from './page-document.js';
import type { PageFinding } from './page-finding.js';

/** Visible text given to the detector (characters): a few sentences decide; more adds nothing. */
const MAX_DETECT_CHARS = 2_000;
/** Fewer letters than this ("Loading…", "302 Found nginx") cannot be told reliably. */
const MIN_LETTERS = 24;
/**
 * Shares of the letters that settle CJK text without n-grams: Japanese prose is at least a
 * sixth kana; a language menu listing "简体中文" on an English page is far below a third Han.
 */
const KANA_SHARE = 0.15;
const CJK_SHARE = 0.3;
/** Primary subtags that name no language (RFC 5646 §4.1: undetermined, no content, multiple). */
const NOT_A_LANGUAGE = new Set(['und', 'zxx', 'mul', 'mis']);

/** ISO 639-3 → ISO 639-1 for the languages that have a two-letter code. */
const ISO_639_1: ReadonlyMap<string, string> = new Map(
  iso6393.flatMap((language) =>
    language.iso6391 === undefined ? [] : [[language.iso6393, language.iso6391] as const],
  ),
);

const LETTER = /\p{L}/gu;
const KANA = /[\u3040-\u30ff]/g;
const HANGUL = /[\uac00-\ud7af\u1100-\u11ff]/g;
const HAN = /[\u4e00-\u9fff\u3400-\u4dbf]/g;

const LEVEL_RANK: Readonly<Record<PageFinding['level'], number>> = {
  danger: 2,
  caution: 1,
  soft: 0,
};

/**
 * The page's primary language.
 *
 * @returns an ISO 639 code, lower-case (`en`, `pt`, `ja`), or null when the page does not say and
 *   its text is too short or too mixed to tell.
 */
export function pageLanguage(doc: PageDocument): string | null {
  const declared = subtags(doc.lang)[0];
  if (declared !== undefined && /^[a-z]{2,3}$/.test(declared) && !NOT_A_LANGUAGE.has(declared)) {
    return declared;
  }
  return detectLanguage(doc.visibleText.slice(0, MAX_DETECT_CHARS));
}

/**
 * The country a page targets.
 *
 * @param findings the page's findings; the strongest one naming a national brand decides.
 * @param doc the page (its `<html lang>` region subtag is the fallback).
 * @param language the page's language from {@link pageLanguage}; a region is trusted only when
 *   the declared language agrees with it.
 * @returns ISO 3166-1 alpha-2, upper-case, or null.
 */
export function targetCountry(
  findings: readonly PageFinding[],
  doc: PageDocument,
  language: string | null,
): string | null {
  const national = findings
    .filter((f) => f.brand?.scope === 'national')
    .sort((a, b) => LEVEL_RANK[b.level] - LEVEL_RANK[a.level])[0]?.brand;
  if (national !== undefined) return national.country;
  const [primary, ...rest] = subtags(doc.lang);
  if (primary === undefined || (language !== null && primary !== language)) return null;
  // Subtags after the language: an optional 4-letter script, then a 2-letter or 3-digit region.
  const region = rest.find((tag) => tag.length !== 4);
  return region !== undefined && /^[a-z]{2}$/.test(region) ? region.toUpperCase() : null;
}

/** Lower-case subtags of a language tag (`pt_BR` is accepted as `pt-BR`). */
function subtags(tag: string | null): string[] {
  if (tag === null) return [];
  return tag.trim().toLowerCase().split(/[-_]/);
}

function detectLanguage(text: string): string | null {
  const letters = text.match(LETTER)?.length ?? 0;
  if (letters < MIN_LETTERS) return null;
  const kana = text.match(KANA)?.length ?? 0;
  if (kana >= KANA_SHARE * letters) return 'ja';
  if ((text.match(HANGUL)?.length ?? 0) >= CJK_SHARE * letters) return 'ko';
  if ((text.match(HAN)?.length ?? 0) >= CJK_SHARE * letters) return kana > 0 ? 'ja' : 'zh';
  return ISO_639_1.get(franc(text, { minLength: MIN_LETTERS })) ?? null;
}
