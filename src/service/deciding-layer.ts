/**
 * @module service/deciding-layer
 * Which layer a verdict rests on, read from its evidence codes (`details.matched_patterns`), so a
 * cached verdict is attributed like a fresh one without storing anything beside it
 * (docs/decisions.md, decision 164).
 */
import type { Verdict } from '../engine/verdict.js';
import type { DecidingLayer } from '../observability/observer.js';

/**
 * The layer a verdict rests on.
 *
 * - `caution` / `danger`: `intel` when a feed or Web Risk listed the URL (`intel:` codes); else
 *   `llm_judge` when the LLM judge's finding counted (`page:llm_judge`); else `page` for any other
 *   page finding (`page:` codes); else `intel` when the domain age or Web Risk's extended coverage
 *   added the rule (`rule:fresh_lookalike`, `rule:web_risk_extended_coverage`); else `url`.
 * - An operator's override (`override:` codes, always first) decides whatever the layers found:
 *   `override`.
 * - `safe`: `intel` for a feed's allow entry (`allowlist:`), `url` for a brand's own or a popular
 *   domain (`official_domain:`, `popular_domain`), else `none`.
 *
 * @param verdict a verdict as served (README, 'API').
 * @returns one value of `DECIDING_LAYERS`; allocates nothing.
 */
export function decidingLayer(verdict: Verdict): DecidingLayer {
  const codes = verdict.details.matched_patterns;
  if (codes[0]?.startsWith('override:') === true) return 'override';
  if (verdict.verdict === 'safe') {
    let url = false;
    for (const code of codes) {
      if (code.startsWith('allowlist:')) return 'intel';
      if (code.startsWith('official_domain:') || code === 'popular_domain') url = true;
    }
    return url ? 'url' : 'none';
  }
  let page = false;
  let llm = false;
  let intelRule = false;
  for (const code of codes) {
    if (code.startsWith('intel:')) return 'intel';
    if (code === 'page:llm_judge') llm = true;
    else if (code.startsWith('page:')) page = true;
    else if (code === 'rule:fresh_lookalike' || code === 'rule:web_risk_extended_coverage') {
      intelRule = true;
    }
  }
  if (llm) return 'llm_judge';
  if (page) return 'page';
  return intelRule ? 'intel' : 'url';
}
