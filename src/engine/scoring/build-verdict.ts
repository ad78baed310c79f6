/**
 * @module engine/scoring/build-verdict
 * Builds the spec §2.2 result from layer-1 evidence and rule hits.
 *
 * Verdict: a brand's own domain and popular sites are `safe` (DESIGN §5: official domains and
 * popular sites are not flagged); otherwise any danger rule gives `danger`, any caution rule or a
 * soft score with p ≥ 0.40 gives `caution`, and the rest is `safe`.
 *
 * Trust score (0 scam … 100 safe) = round(100 · (1 − p)), kept inside the band of the verdict:
 * danger 0–19, caution 20–59, safe 60–100 (detection.md §4.2 step 5, bands chosen so the score
 * never contradicts the verdict).
 *
 * Confidence is the certainty of the verdict itself (spec §2.2): for danger, the strongest rule's
 * precision estimate (+0.02 per further rule); for safe, high on official and popular domains,
 * lower when the verdict rests on the URL alone because threat intelligence or page analysis did
 * not run (DESIGN §5 "unknown is not safe").
 */
import { isLureGroup, type UrlAnalysis } from '../rules/analyze-url.js';
import { type BrandFinding, findingPattern } from '../rules/brand-finding.js';
import {
  type Details,
  emptySignals,
  type Signals,
  THREAT_TYPES,
  type ThreatType,
  type Verdict,
  type VerdictValue,
} from '../verdict.js';
import { describeFinding } from './describe-finding.js';
import { urlThreatTypes } from './threat-types.js';
import { CAUTION_LOGIT, type UrlJudgement } from './url-rules.js';

/** Which later layers contributed, for the reason and confidence. */
export interface LayerCoverage {
  /** Threat intelligence (layer 2): `ran`, or why not. */
  intel: 'ran' | 'offline' | 'unavailable';
  /** Page analysis (layer 3): `ran`, or why not. */
  page: 'ran' | 'offline' | 'unavailable';
}

/** Verdict of a URL carried in a redirect parameter, analysed one level deep. */
export interface RedirectVerdict {
  target: string;
  verdict: Verdict;
}

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));
const clamp = (value: number, low: number, high: number): number =>
  Math.min(high, Math.max(low, value));
const round2 = (value: number): number => Math.round(value * 100) / 100;

/**
 * Assemble the verdict.
 *
 * @param analysis layer-1 evidence.
 * @param judgement rule hits and soft score from `judgeUrl()`.
 * @param coverage which other layers ran.
 * @param redirect verdict of a redirect-parameter target, or null.
 * @param nested true when judging a redirect target for an outer URL: its reason then leaves the
 *   coverage note to the outer verdict.
 */
export function buildVerdict(
  analysis: UrlAnalysis,
  judgement: UrlJudgement,
  coverage: LayerCoverage,
  redirect: RedirectVerdict | null,
  nested = false,
): Verdict {
  const { findings, rules } = judgement;
  const p = sigmoid(judgement.logit);
  const ownSite = analysis.owner !== null && analysis.hosting === null;
  const dangerRules = rules
    .filter((r) => r.level === 'danger')
    .sort((a, b) => b.confidence - a.confidence);
  const allowlisted =
    (ownSite || analysis.popular) && !rules.some((r) => r.id === 'rule:userinfo_brand');

  let verdict: VerdictValue;
  if (allowlisted) verdict = 'safe';
  else if (dangerRules.length > 0) verdict = 'danger';
  else if (rules.length > 0 || judgement.logit >= CAUTION_LOGIT) verdict = 'caution';
  else verdict = 'safe';

  // A URL that forwards to a worse target takes the target's verdict whole (brand, signals,
  // details), so the result stays consistent; the outer URL's evidence stays in the patterns.
  if (redirect !== null && rank(redirect.verdict.verdict) > rank(verdict)) {
    return forwarded(analysis, judgement, ownSite, redirect, nested ? null : coverage);
  }

  const skipped = (coverage.intel === 'ran' ? 0 : 1) + (coverage.page === 'ran' ? 0 : 1);
  let confidence: number;
  let trust: number;
  if (verdict === 'danger') {
    const best = dangerRules[0]?.confidence ?? 0.85;
    confidence = Math.min(0.99, best + 0.02 * (dangerRules.length - 1));
    trust = clamp(Math.round(100 * (1 - confidence)), 0, 19);
  } else if (verdict === 'caution') {
    confidence = findings.length > 0 ? 0.6 : 0.55;
    trust = clamp(Math.round(100 * (1 - p)), 20, 59);
  } else if (ownSite) {
    confidence = 0.97;
    trust = 98;
  } else if (analysis.popular) {
    confidence = 0.9;
    trust = 92;
  } else {
    const margin = clamp(1 - p / 0.4, 0, 1);
    confidence = clamp(0.5 + 0.45 * margin - 0.1 * skipped, 0.4, 0.95);
    trust = clamp(Math.round(100 * (1 - p)), 60, 95);
  }

  const threatTypes = verdict === 'safe' ? [] : sortThreatTypes(urlThreatTypes(analysis, findings));
  const impersonating = verdict !== 'safe' && findings.length > 0;
  const primary = impersonating ? findings[0] : undefined;
  const brand = primary?.brand ?? (ownSite ? analysis.owner : null);

  const details: Details = {
    matched_brand: brand?.name ?? null,
    official_domain: brand?.primaryDomain ?? null,
    domain_matches_brand: ownSite && brand !== null && brand === analysis.owner,
    target_country: brand?.scope === 'national' ? brand.country : null,
    page_language: null,
    tld: analysis.url.icannSuffix,
    domain_age_days: null,
    matched_patterns: patterns(analysis, judgement, ownSite, verdict, redirect),
  };

  return {
    verdict,
    trust_score: trust,
    brand: primary?.brand.name ?? null,
    confidence: round2(confidence),
    reason: reasonText(
      analysis,
      verdict,
      findings,
      dangerRules.length > 0 ? dangerRules : rules,
      nested ? null : coverage,
      ownSite,
    ),
    threat_types: threatTypes,
    signals: signalsOf(analysis, threatTypes, impersonating),
    details,
  };
}

function forwarded(
  analysis: UrlAnalysis,
  judgement: UrlJudgement,
  ownSite: boolean,
  redirect: RedirectVerdict,
  coverage: LayerCoverage | null,
): Verdict {
  const inner = redirect.verdict;
  const note = coverage === null ? '' : coverageNote(coverage, false);
  return {
    ...inner,
    reason: `The link forwards to ${redirect.target}, which is judged ${inner.verdict}: ${inner.reason}${note}`,
    details: {
      ...inner.details,
      matched_patterns: patterns(analysis, judgement, ownSite, inner.verdict, redirect),
    },
  };
}

function rank(verdict: VerdictValue): number {
  return verdict === 'danger' ? 2 : verdict === 'caution' ? 1 : 0;
}

function sortThreatTypes(types: ThreatType[]): ThreatType[] {
  return [...types].sort((a, b) => THREAT_TYPES.indexOf(a) - THREAT_TYPES.indexOf(b));
}

function signalsOf(
  analysis: UrlAnalysis,
  threatTypes: readonly ThreatType[],
  impersonating: boolean,
): Signals {
  const signals = emptySignals();
  for (const type of threatTypes) {
    if (type !== 'fresh_domain') signals[type] = true;
  }
  signals.brand_impersonation = impersonating;
  signals.domain_mismatch = impersonating;
  // Facts about the infrastructure hold whatever the verdict (DESIGN §4.10: null = unknown).
  signals.disposable_tld = analysis.tldTier === 'a' || analysis.tldTier === 'b';
  signals.free_hosting_subdomain = analysis.hosting !== null;
  signals.fresh_domain = null;
  signals.known_threat = false;
  return signals;
}

function patterns(
  analysis: UrlAnalysis,
  judgement: UrlJudgement,
  ownSite: boolean,
  verdict: VerdictValue,
  redirect: RedirectVerdict | null,
): string[] {
  const out: string[] = [];
  if (ownSite && analysis.owner !== null) out.push(`official_domain:${analysis.owner.id}`);
  if (analysis.popular) out.push('popular_domain');
  if (verdict !== 'safe' || !ownSite) {
    out.push(...judgement.findings.map(findingPattern));
    out.push(...judgement.rules.map((r) => r.id));
    out.push(...judgement.softCodes);
  }
  if (redirect !== null) {
    out.push(`redirect_target:${redirect.verdict.verdict}`);
    out.push(...redirect.verdict.details.matched_patterns.map((code) => `redirect:${code}`));
  }
  return [...new Set(out)];
}

function reasonText(
  analysis: UrlAnalysis,
  verdict: VerdictValue,
  findings: readonly BrandFinding[],
  rules: readonly { text: string }[],
  coverage: LayerCoverage | null,
  ownSite: boolean,
): string {
  const host = analysis.url.hostname;
  // On path-tenancy platforms the "site" is the tenant's path, not the platform's host.
  const site = analysis.hosting?.tenancy === 'path' ? `${host}/${analysis.hosting.tenant}` : host;
  const parts: string[] = [];
  if (verdict === 'safe') {
    if (ownSite && analysis.owner !== null)
      parts.push(`${host} is an official domain of ${analysis.owner.name}.`);
    else if (analysis.popular)
      parts.push(
        `${analysis.url.registrableDomain ?? host} is a widely used site and the link shows no sign of impersonation.`,
      );
    else parts.push('No phishing indicators in the URL.');
  } else {
    const lead = findings[0];
    if (lead !== undefined) {
      const official = lead.brand.primaryDomain;
      parts.push(
        `Looks like ${lead.brand.name}: ${describeFinding(lead, site)} (official site: ${official}).`,
      );
    }
    const why = rules.map((r) => r.text).filter((text, i, all) => all.indexOf(text) === i);
    if (why.length > 0) parts.push(`${capitalize(why.slice(0, 3).join('; '))}.`);
    const lure = [...analysis.hostWords].filter(([g]) => isLureGroup(g)).flatMap(([, w]) => w);
    if (lure.length > 0) parts.push(`Lure words: ${[...new Set(lure)].slice(0, 5).join(', ')}.`);
    if (analysis.tldTier === 'a' || analysis.tldTier === 'b')
      parts.push(`The .${analysis.tld ?? ''} TLD is heavily abused.`);
    if (analysis.hosting !== null)
      parts.push(
        `Hosted as a tenant of ${analysis.hosting.operator} (${analysis.hosting.suffix}).`,
      );
    if (parts.length === 0) parts.push('Several weak phishing indicators in the URL.');
  }
  const allowlisted = verdict === 'safe' && (ownSite || analysis.popular);
  return parts.join(' ') + (coverage === null ? '' : coverageNote(coverage, allowlisted));
}

/**
 * The sentence that says which layers did not run (DESIGN §5: unknown is not safe), or '' when
 * all ran or when the URL is a brand's own or a popular site (the verdict does not rest on them).
 */
function coverageNote(coverage: LayerCoverage, allowlisted: boolean): string {
  const missing = [
    coverage.intel === 'ran' ? null : 'threat intelligence',
    coverage.page === 'ran' ? null : 'page content',
  ].filter((x): x is string => x !== null);
  if (missing.length === 0 || allowlisted) return '';
  const why = coverage.intel === 'offline' || coverage.page === 'offline' ? ' (offline mode)' : '';
  return ` Based on the URL only: ${missing.join(' and ')} not checked${why}.`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
