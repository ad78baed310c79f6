/**
 * @module engine/page/create-page-context
 * Builds the {@link PageContext} of a final URL from the engine and layer 2's domain age.
 */
import type { Engine } from '../create-engine.js';
import { analyzeUrl, type UrlAnalysis } from '../rules/analyze-url.js';
import { judgeUrl } from '../scoring/url-rules.js';
import type { ParsedUrl } from '../url/normalize-url.js';
import type { PageContext } from './page-context.js';

/**
 * @param engine the built engine.
 * @param url the final URL of the page (after redirects).
 * @param fresh layer 2's domain age verdict (true under 30 days, null unknown).
 */
export function createPageContext(
  engine: Engine,
  url: ParsedUrl,
  fresh: boolean | null,
): PageContext {
  return pageContextOf(engine, analyzeUrl(engine.context, url), fresh);
}

/**
 * {@link createPageContext} from the final URL's analysis (`analyzeParsedUrl()`), for callers
 * that hold it already (the detection service): the URL is not analysed again.
 *
 * @param fresh layer 2's domain age verdict (true under 30 days, null unknown).
 */
export function pageContextOf(
  engine: Engine,
  analysis: UrlAnalysis,
  fresh: boolean | null,
): PageContext {
  const owner = analysis.hosting === null ? analysis.owner : null;
  const findings = judgeUrl(analysis).findings;
  return {
    analysis,
    brands: engine.brands,
    fresh,
    owner,
    urlBrands: new Set(findings.map((f) => f.brand)),
    reputable: owner !== null || analysis.popular,
    riskyInfrastructure:
      fresh === true ||
      analysis.hosting !== null ||
      analysis.tldTier === 'a' ||
      analysis.tldTier === 'b' ||
      findings.length > 0 ||
      (analysis.model !== null && analysis.model.level !== 'none'),
  };
}
