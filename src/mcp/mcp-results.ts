/**
 * @module mcp/mcp-results
 * The connector's view of a verdict (spec §2.8, DESIGN §4.12–4.13): the detection result plus
 * `agent_action` and the `domain_age` label, and the short human text every tool result carries.
 */
import { FRESH_DOMAIN_DAYS } from '../engine/intel-evidence.js';
import type { Verdict, VerdictValue } from '../engine/verdict.js';
import type { CheckUrlResult } from './mcp-schemas.js';

/** DESIGN §4.12: what an agent must do with each verdict. */
const AGENT_ACTION: Readonly<Record<VerdictValue, CheckUrlResult['agent_action']>> = {
  safe: 'proceed',
  caution: 'ask_human',
  danger: 'block',
};

/** DESIGN §4.13: `"<n> days"`, `"fresh (<n> days)"` under 30 days, or `"unknown"`. */
function domainAgeLabel(days: number | null): string {
  if (days === null) return 'unknown';
  return days < FRESH_DOMAIN_DAYS ? `fresh (${String(days)} days)` : `${String(days)} days`;
}

/** The check_url structured result of a verdict for the normalized URL `url`. */
export function checkUrlResult(url: string, verdict: Verdict): CheckUrlResult {
  return {
    url,
    verdict: verdict.verdict,
    agent_action: AGENT_ACTION[verdict.verdict],
    trust_score: verdict.trust_score,
    brand: verdict.brand,
    confidence: verdict.confidence,
    reason: verdict.reason,
    threat_types: [...verdict.threat_types],
    signals: { ...verdict.signals },
    details: {
      ...verdict.details,
      matched_patterns: [...verdict.details.matched_patterns],
      domain_age: domainAgeLabel(verdict.details.domain_age_days),
    },
  };
}

/** One line for a person: verdict, action, host and the reason. */
export function checkUrlText(result: CheckUrlResult): string {
  return `${result.verdict.toUpperCase()} (${result.agent_action}) ${result.url}: ${result.reason}`;
}
