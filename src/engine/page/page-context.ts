/**
 * @module engine/page/page-context
 * What analyzers know besides the page: the final URL after redirects and what layers 1–2 said
 * about it. Analyzers use it for the corroboration rules of detection.md (a drainer request is
 * danger on a fresh, free-hosted, abused-TLD or brand-impersonating site; a brand named by a page
 * is a mismatch only on a domain the brand does not own).
 */
import type { Brand, BrandIndex } from '../brand/brand-index.js';
import type { UrlAnalysis } from '../rules/analyze-url.js';
import type { PageDocument } from './page-document.js';

/** Context of one page analysis. */
export interface PageContext {
  /** Layer-1 analysis of the final URL (after HTTP redirects). */
  analysis: UrlAnalysis;
  brands: BrandIndex;
  /** Domain age verdict of layer 2: true under 30 days, null when unknown. */
  fresh: boolean | null;
  /** The brand owning the final URL's registrable domain (not for hosting tenants), or null. */
  owner: Brand | null;
  /** Brands the URL rules credibly found impersonated in the final URL (`judgeUrl` findings). */
  urlBrands: ReadonlySet<Brand>;
  /**
   * The site is a brand's own or a popular domain (not a hosting tenant): corroboration rules
   * that need "an unknown site" do not hold.
   */
  reputable: boolean;
  /**
   * Risky infrastructure per detection.md §2.1: fresh domain, free hosting or tunnel, tier A/B
   * abused TLD, a URL-level brand finding, or a name the learned URL model flags.
   */
  riskyInfrastructure: boolean;
}

/** A page plus views derived once and shared by every analyzer. */
export interface PageView {
  doc: PageDocument;
  /** `doc.text` lower-cased (NFKC), for keyword rules. */
  textLower: string;
  /** Title, `og:site_name`, `og:title`, description, headings, lower-cased, joined by ` | `. */
  identityLower: string;
  /**
   * All code of the page: inline and fetched external scripts, inline event handlers, and
   * `javascript:` link targets, joined by newlines.
   */
  code: string;
  /**
   * Strings recovered from obfuscated code (base64, hex and unicode escapes, `String.fromCharCode`,
   * array joins, reversed strings, concatenations), one per entry. Command and wallet patterns
   * are matched over `code` and over these.
   */
  decoded: readonly string[];
}
