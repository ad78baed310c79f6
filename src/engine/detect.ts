/**
 * @module engine/detect
 * `detectUrl()`: validate a URL and judge it with the engine's URL layer. Pure and synchronous:
 * later layers (threat intelligence, page analysis) run in the detection service and report
 * which of them ran through {@link LayerCoverage}.
 */
import type { Engine } from './create-engine.js';
import { type IntelEvidence, NO_INTEL } from './intel-evidence.js';
import type { PageEvidence } from './page-evidence.js';
import { analyzeUrl, type UrlAnalysis } from './rules/analyze-url.js';
import {
  buildVerdict,
  isAllowlisted,
  type LayerCoverage,
  type RedirectVerdict,
} from './scoring/build-verdict.js';
import { judgeUrl } from './scoring/url-rules.js';
import { normalizeUrl, type ParsedUrl, type UrlRejection } from './url/normalize-url.js';
import type { Verdict } from './verdict.js';

/** Outcome of {@link detectUrl}: a verdict, or why the input is not a URL we judge. */
export type DetectOutcome =
  | { ok: true; url: ParsedUrl; verdict: Verdict }
  | { ok: false; reason: UrlRejection; message: string };

/** Coverage when only the URL layer ran because the others do not exist in this process. */
export const URL_LAYER_ONLY: LayerCoverage = Object.freeze({
  intel: 'unavailable',
  page: 'unavailable',
});

/**
 * Judge one URL with the URL layer.
 *
 * A URL carried in a redirect parameter (`google.com/url?q=https://evil.top/`) is judged one level
 * deep, and the worse of the two verdicts wins: a trusted redirector must not launder its target.
 *
 * @param engine built by `createEngine()`.
 * @param input URL or bare host, untrusted.
 * @param coverage which other layers ran, for the reason and confidence.
 */
export function detectUrl(
  engine: Engine,
  input: string,
  coverage: LayerCoverage = URL_LAYER_ONLY,
): DetectOutcome {
  const parsed = normalizeUrl(input);
  if (!parsed.ok) return parsed;
  return { ok: true, url: parsed.url, verdict: judgeParsedUrl(engine, parsed.url, coverage) };
}

/**
 * Layer 1's reading of a URL already accepted by `normalizeUrl()`: the one analysis of a request
 * URL. The detection service makes it once and hands it to layer 2 (which reads whose site it
 * is), to the allowlist check, to the page context and to {@link judgeAnalysedUrl}.
 *
 * @param engine built by `createEngine()`.
 */
export function analyzeParsedUrl(engine: Engine, url: ParsedUrl): UrlAnalysis {
  return analyzeUrl(engine.context, url);
}

/**
 * Judge a URL already accepted by `normalizeUrl()` (callers that validate first and hold only the
 * parsed URL); analyses it and calls {@link judgeAnalysedUrl}.
 */
export function judgeParsedUrl(
  engine: Engine,
  url: ParsedUrl,
  coverage: LayerCoverage = URL_LAYER_ONLY,
  intel: IntelEvidence = NO_INTEL,
  page: PageEvidence | null = null,
  landing: RedirectVerdict | null = null,
): Verdict {
  return judge(engine, analyzeUrl(engine.context, url), coverage, true, intel, page, landing);
}

/**
 * Judge a URL from its analysis ({@link analyzeParsedUrl}), without analysing it again.
 *
 * @param coverage which other layers ran, for the reason and confidence.
 * @param intel what layer 2 found about this URL (the service looks it up); a redirect-parameter
 *   target is judged by the URL layer only.
 * @param page what layer 3 found in the URL's page, or null when it was not fetched.
 * @param landing the verdict of the URL the page fetch ended on when redirects left the site
 *   (from {@link judgeLanding}): the user lands there, so its verdict wins unless this URL's own
 *   is worse.
 */
export function judgeAnalysedUrl(
  engine: Engine,
  analysis: UrlAnalysis,
  coverage: LayerCoverage = URL_LAYER_ONLY,
  intel: IntelEvidence = NO_INTEL,
  page: PageEvidence | null = null,
  landing: RedirectVerdict | null = null,
): Verdict {
  return judge(engine, analysis, coverage, true, intel, page, landing);
}

/**
 * True when the URL is on a hard allow (a brand's own or a popular site, or a feed's allow entry):
 * the verdict is `safe` without reading the page (issue "layer 3": the page is fetched only when
 * layers 1–2 are not conclusive).
 *
 * @param analysis the URL's analysis ({@link analyzeParsedUrl}).
 */
export function allowlistedSite(analysis: UrlAnalysis, intel: IntelEvidence): boolean {
  return isAllowlisted(analysis, judgeUrl(analysis), intel);
}

/**
 * Judge the URL a page fetch landed on after redirects (layers 1–2 plus its page), for
 * {@link judgeAnalysedUrl}'s `landing`. Its reason leaves the coverage note to the outer verdict.
 *
 * @param analysis the landing URL's analysis ({@link analyzeParsedUrl}).
 */
export function judgeLanding(
  engine: Engine,
  analysis: UrlAnalysis,
  coverage: LayerCoverage,
  intel: IntelEvidence,
  page: PageEvidence,
): RedirectVerdict {
  return {
    target: analysis.url.hostname,
    verdict: judge(engine, analysis, coverage, false, intel, page),
    landed: true,
  };
}

function judge(
  engine: Engine,
  analysis: UrlAnalysis,
  coverage: LayerCoverage,
  followRedirect: boolean,
  intel: IntelEvidence = NO_INTEL,
  page: PageEvidence | null = null,
  landing: RedirectVerdict | null = null,
): Verdict {
  let redirect: RedirectVerdict | null = landing;
  if (redirect === null && followRedirect && analysis.redirectTarget !== null) {
    // Another URL (the redirect parameter's target), so analysed on its own.
    const target = normalizeUrl(analysis.redirectTarget);
    if (target.ok) {
      redirect = {
        target: target.url.hostname,
        verdict: judge(engine, analyzeUrl(engine.context, target.url), coverage, false),
      };
    }
  }
  return buildVerdict(
    analysis,
    judgeUrl(analysis),
    coverage,
    redirect,
    !followRedirect,
    intel,
    page,
  );
}
