/**
 * @module engine/scoring/page-rules
 * Turns layer-3 findings into rule hits and soft evidence (detection.md §4.2): a `danger` finding
 * is a hard rule, a `caution` finding a caution rule, and `soft` findings add log-odds, taking
 * only the strongest finding of each group (infrastructure, brand, content, social, cloaking are
 * correlated within a group, independent across).
 *
 * On a brand's own or a popular site (hard allow, §4.2 step 2) only content hard rules count:
 * compromised sites host kits, but a countdown on a retailer's own page is marketing.
 */
import type { Brand } from '../brand/brand-index.js';
import type { PageFinding } from '../page/page-finding.js';
import type { PageEvidence } from '../page-evidence.js';
import type { SignalName, ThreatType } from '../verdict.js';
import type { RuleHit } from './url-rules.js';

/** What the page adds to a verdict. */
export interface PageJudgement {
  rules: RuleHit[];
  /** Log-odds added by soft findings (Σ over groups of the group's strongest weight). */
  softLogit: number;
  threatTypes: ThreatType[];
  signals: SignalName[];
  /** The brand the strongest finding naming one impersonates, or null. */
  brand: Brand | null;
  /** `page:<id>` and `page:<id>=<evidence>` codes of the findings that counted. */
  patterns: string[];
}

/** Nothing from the page. */
export const NO_PAGE_JUDGEMENT: PageJudgement = Object.freeze({
  rules: [],
  softLogit: 0,
  threatTypes: [],
  signals: [],
  brand: null,
  patterns: [],
});

/**
 * @param page layer 3's evidence, or null when it did not run.
 * @param allowlisted the site is a brand's own, a popular or an allowlisted one.
 */
export function judgePage(page: PageEvidence | null, allowlisted: boolean): PageJudgement {
  if (page?.status !== 'analysed') return NO_PAGE_JUDGEMENT;
  const counted = page.analysis.findings.filter((f) => !allowlisted || f.level === 'danger');
  if (counted.length === 0) return NO_PAGE_JUDGEMENT;

  const rules: RuleHit[] = [];
  const strongest = new Map<string, number>();
  for (const finding of counted) {
    if (finding.level === 'soft') {
      strongest.set(finding.group, Math.max(strongest.get(finding.group) ?? 0, finding.weight));
    } else {
      rules.push({
        id: `page:${finding.id}`,
        level: finding.level,
        confidence: finding.confidence,
        text: finding.text,
      });
    }
  }
  const ranked = [...counted].sort((a, b) => rank(b) - rank(a));
  return {
    rules,
    softLogit: [...strongest.values()].reduce((sum, w) => sum + w, 0),
    threatTypes: [...new Set(counted.flatMap((f) => f.threatTypes))],
    signals: [...new Set(counted.flatMap((f) => f.signals))],
    brand: ranked.find((f) => f.brand !== undefined)?.brand ?? null,
    patterns: counted.flatMap((f) => [`page:${f.id}`, `page:${f.id}=${f.evidence}`]),
  };
}

/** Danger findings first, then caution, then soft; within a level, the most confident. */
function rank(finding: PageFinding): number {
  const level = finding.level === 'danger' ? 2 : finding.level === 'caution' ? 1 : 0;
  return level * 10 + finding.confidence;
}
