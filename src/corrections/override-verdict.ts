/**
 * @module corrections/override-verdict
 * The verdict served when an operator's override applies. The override decides the verdict, but
 * nothing the layers found is hidden: every evidence code stays in `matched_patterns` after the
 * override's own (`override:allow:<id>` or `override:deny:<id>`, always first, then
 * `override_of:<verdict the layers gave>`), the signals stay as the layers set them, and the
 * reason names the override, the operator's reason and the verdict it replaced with the
 * listings and rules behind it (README "Verdict corrections"; docs/decisions.md).
 */
import type { Verdict } from '../engine/verdict.js';
import type { OverrideRecord } from '../store/ports/correction-store.js';

/**
 * Trust score and confidence of an overridden verdict: inside the bands of build-verdict (safe
 * 60–100, danger 0–19), near their ends because a person decided, not at them because people
 * err too.
 */
const ALLOW_TRUST = 95;
const DENY_TRUST = 2;
const OVERRIDE_CONFIDENCE = 0.99;

/** Evidence worth naming in the reason: listings (feeds, Web Risk), named rules, page findings. */
const NAMED_EVIDENCE = ['intel:', 'rule:', 'page:'];

/**
 * `verdict` as decided by `override`: `safe` for an allow, `danger` for a deny.
 *
 * - allow: `trust_score` 95, `confidence` 0.99, `brand` null (the operator vouches for the site),
 *   `threat_types` empty; signals and details as the layers left them.
 * - deny: `trust_score` 2, `confidence` 0.99, brand, threat types, signals and details kept.
 *
 * @param verdict the verdict of the layers (may be frozen; never modified).
 * @param override the override that applies (see `OverrideIndex.match()`).
 * @returns a new verdict object.
 */
export function applyOverride(verdict: Verdict, override: OverrideRecord): Verdict {
  const allow = override.action === 'allow';
  const replaced = verdict.verdict;
  const evidence = verdict.details.matched_patterns.filter((code) =>
    NAMED_EVIDENCE.some((prefix) => code.startsWith(prefix)),
  );
  const layers =
    `The layers' verdict was ${replaced}` +
    (evidence.length === 0 ? '' : ` (${evidence.join(', ')})`) +
    `: ${verdict.reason}`;
  // The operator's sentence ends once, whether or not they ended it.
  const said = /[.!?]$/.test(override.reason) ? override.reason : `${override.reason}.`;
  const head = allow
    ? `Allowed by an override of this service's operator (${override.id}): ${said}`
    : `Blocked by an override of this service's operator (${override.id}): ${said}`;
  return {
    ...verdict,
    verdict: allow ? 'safe' : 'danger',
    trust_score: allow ? ALLOW_TRUST : DENY_TRUST,
    confidence: OVERRIDE_CONFIDENCE,
    brand: allow ? null : verdict.brand,
    reason: `${head} ${layers}`,
    threat_types: allow ? [] : [...verdict.threat_types],
    signals: { ...verdict.signals },
    details: {
      ...verdict.details,
      matched_patterns: [
        `override:${override.action}:${override.id}`,
        `override_of:${replaced}`,
        ...verdict.details.matched_patterns,
      ],
    },
  };
}
