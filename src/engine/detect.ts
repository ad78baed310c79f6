/**
 * @module engine/detect
 * `detectUrl()`: validate a URL and judge it with the engine's URL layer. Pure and synchronous:
 * later layers (threat intelligence, page analysis) run in the detection service and report
 * which of them ran through {@link LayerCoverage}.
 */
import type { Engine } from './create-engine.js';
import { type IntelEvidence, NO_INTEL } from './intel-evidence.js';
import { analyzeUrl } from './rules/analyze-url.js';
import { buildVerdict, type LayerCoverage, type RedirectVerdict } from './scoring/build-verdict.js';
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
 */
export function judgeParsedUrl(
  engine: Engine,
  url: ParsedUrl,
  coverage: LayerCoverage = URL_LAYER_ONLY,
  intel: IntelEvidence = NO_INTEL,
): Verdict {
  return judge(engine, url, coverage, true, intel);
}

function judge(
  engine: Engine,
  url: ParsedUrl,
  coverage: LayerCoverage,
  followRedirect: boolean,
  intel: IntelEvidence = NO_INTEL,
): Verdict {
  const analysis = analyzeUrl(engine.context, url);
  let redirect: RedirectVerdict | null = null;
  if (followRedirect && analysis.redirectTarget !== null) {
    const target = normalizeUrl(analysis.redirectTarget);
    if (target.ok) {
      redirect = {
        target: target.url.hostname,
        verdict: judge(engine, target.url, coverage, false),
      };
    }
  }
  return buildVerdict(analysis, judgeUrl(analysis), coverage, redirect, !followRedirect, intel);
}
