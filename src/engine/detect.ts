/**
 * @module engine/detect
 * `detectUrl()`: validate a URL and judge it with the engine's URL layer. Pure and synchronous:
 * later layers (threat intelligence, page analysis) run in the detection service and report
 * which of them ran through {@link LayerCoverage}.
 */
import type { Engine } from './create-engine.js';
import { type IntelEvidence, NO_INTEL } from './intel-evidence.js';
import type { PageEvidence } from './page-evidence.js';
import { analyzeUrl } from './rules/analyze-url.js';
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
 * Judge a URL already accepted by `normalizeUrl()` (callers that validate first, such as the
 * HTTP layer, which must answer 400 before it looks at payment or keys).
 *
 * @param intel what layer 2 found about this URL (the service looks it up); a redirect-parameter
 *   target is judged by the URL layer only.
 * @param page what layer 3 found in the URL's page, or null when it was not fetched.
 * @param landing the verdict of the URL the page fetch ended on when redirects left the site
 *   (from {@link judgeLanding}): the user lands there, so its verdict wins unless this URL's own
 *   is worse.
 */
export function judgeParsedUrl(
  engine: Engine,
  url: ParsedUrl,
  coverage: LayerCoverage = URL_LAYER_ONLY,
  intel: IntelEvidence = NO_INTEL,
  page: PageEvidence | null = null,
  landing: RedirectVerdict | null = null,
): Verdict {
  return judge(engine, url, coverage, true, intel, page, landing);
}

/**
 * True when the URL is on a hard allow (a brand's own or a popular site, or a feed's allow entry):
 * the verdict is `safe` without reading the page (issue "layer 3": the page is fetched only when
 * layers 1–2 are not conclusive).
 */
export function allowlistedSite(engine: Engine, url: ParsedUrl, intel: IntelEvidence): boolean {
  const analysis = analyzeUrl(engine.context, url);
  return isAllowlisted(analysis, judgeUrl(analysis), intel);
}

/**
 * Judge the URL a page fetch landed on after redirects (layers 1–2 plus its page), for
 * {@link judgeParsedUrl}'s `landing`. Its reason leaves the coverage note to the outer verdict.
 */
export function judgeLanding(
  engine: Engine,
  url: ParsedUrl,
  coverage: LayerCoverage,
  intel: IntelEvidence,
  page: PageEvidence,
): RedirectVerdict {
  return {
    target: url.hostname,
    verdict: judge(engine, url, coverage, false, intel, page),
    landed: true,
  };
}

function judge(
  engine: Engine,
  url: ParsedUrl,
  coverage: LayerCoverage,
  followRedirect: boolean,
  intel: IntelEvidence = NO_INTEL,
  page: PageEvidence | null = null,
  landing: RedirectVerdict | null = null,
): Verdict {
  const analysis = analyzeUrl(engine.context, url);
  let redirect: RedirectVerdict | null = landing;
  if (redirect === null && followRedirect && analysis.redirectTarget !== null) {
    const target = normalizeUrl(analysis.redirectTarget);
    if (target.ok) {
      redirect = {
        target: target.url.hostname,
        verdict: judge(engine, target.url, coverage, false),
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
