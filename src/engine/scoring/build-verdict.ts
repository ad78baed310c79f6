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
import type { Brand } from '../brand/brand-index.js';
import { FRESH_DOMAIN_DAYS, type IntelEvidence, NO_INTEL } from '../intel-evidence.js';
import { PAGE_FAILURE_TEXT, type PageEvidence } from '../page-evidence.js';
import { isLureGroup, type UrlAnalysis } from '../rules/analyze-url.js';
import { type BrandFinding, findingPattern } from '../rules/brand-finding.js';
import {
  type Details,
  emptySignals,
  type SignalName,
  type Signals,
  THREAT_TYPES,
  type ThreatType,
  type Verdict,
  type VerdictValue,
} from '../verdict.js';
import { describeFinding } from './describe-finding.js';
import { judgePage } from './page-rules.js';
import { urlThreatTypes } from './threat-types.js';
import { CAUTION_LOGIT, type UrlJudgement } from './url-rules.js';

/** Which later layers contributed, for the reason and confidence. */
export interface LayerCoverage {
  /** Threat intelligence (layer 2): `ran`, or why not. */
  intel: 'ran' | 'offline' | 'unavailable';
  /**
   * Page analysis (layer 3): `ran` (the page evidence says whether it was analysed),
   * `not_needed` (layers 1–2 were conclusive: allowlisted or a known threat), or why not.
   */
  page: 'ran' | 'not_needed' | 'offline' | 'unavailable';
}

/** Verdict of a URL carried in a redirect parameter, analysed one level deep. */
export interface RedirectVerdict {
  target: string;
  verdict: Verdict;
  /**
   * True when the page fetch landed there (HTTP or meta-refresh redirects): the page the user
   * sees is the target's, so its verdict is taken when it is at least as severe. A redirect
   * parameter (`?url=`) is only taken when strictly worse.
   */
  landed?: boolean;
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
 * @param intel what threat intelligence and domain age found (layer 2). A deny hit (feed or Web
 *   Risk) is `danger` whatever layer 1 says, unless an allow entry matched, which makes the URL
 *   `safe` like an official domain; a brand lookalike on a domain younger than 30 days is
 *   `danger` (DESIGN §5).
 * @param page what layer 3 found in the page (null when it did not run): its hard rules give
 *   `danger` even on an allowlisted site (compromised sites host kits, detection.md §4.2 step 2),
 *   its other findings count only elsewhere; a page that could not be analysed is named in the
 *   reason and lowers confidence.
 */
export function buildVerdict(
  analysis: UrlAnalysis,
  judgement: UrlJudgement,
  coverage: LayerCoverage,
  redirect: RedirectVerdict | null,
  nested = false,
  intel: IntelEvidence = NO_INTEL,
  page: PageEvidence | null = null,
): Verdict {
  const { findings } = judgement;
  const ownSite = analysis.owner !== null && analysis.hosting === null;
  // Web Risk's extended coverage lists "possibly" deceptive sites: caution, not danger alone.
  const listed =
    intel.denied.length > 0 || intel.webRisk.some((type) => type !== WEB_RISK_EXTENDED);
  const fresh =
    intel.domainAge.status === 'known' ? intel.domainAge.days < FRESH_DOMAIN_DAYS : null;
  const allowlisted = isAllowlisted(analysis, judgement, intel);
  const fromPage = judgePage(page, allowlisted);
  const p = sigmoid(judgement.logit + fromPage.softLogit);
  // A lookalike on a freshly registered domain is strong evidence (DESIGN §5).
  const rules = [
    ...judgement.rules,
    ...fromPage.rules,
    ...(fresh === true && findings.length > 0 && !allowlisted ? [FRESH_LOOKALIKE_RULE] : []),
    ...(intel.webRisk.includes(WEB_RISK_EXTENDED) && !listed ? [WEB_RISK_EXTENDED_RULE] : []),
  ];
  const dangerRules = rules
    .filter((r) => r.level === 'danger')
    .sort((a, b) => b.confidence - a.confidence);

  let verdict: VerdictValue;
  if (listed) verdict = 'danger';
  else if (allowlisted)
    verdict = fromPage.rules.some((r) => r.level === 'danger') ? 'danger' : 'safe';
  else if (dangerRules.length > 0) verdict = 'danger';
  else if (rules.length > 0 || Math.log(p / (1 - p)) >= CAUTION_LOGIT) verdict = 'caution';
  else verdict = 'safe';

  // A URL that forwards to a worse target takes the target's verdict whole (brand, signals,
  // details), so the result stays consistent; the outer URL's evidence stays in the patterns.
  const worse = redirect === null ? 0 : rank(redirect.verdict.verdict) - rank(verdict);
  if (
    redirect !== null &&
    (worse > 0 || (redirect.landed === true && worse === 0 && verdict !== 'safe'))
  ) {
    return forwarded(analysis, judgement, ownSite, redirect, nested ? null : coverage);
  }

  const pageMissing =
    page?.status === 'not_analysed' || (page === null && coverage.page !== 'not_needed');
  const skipped = (coverage.intel === 'ran' ? 0 : 1) + (pageMissing ? 1 : 0);
  // An unread page leaves room for evidence the verdict could not see (DESIGN §5).
  const unread = page?.status === 'not_analysed' ? PAGE_UNREAD_PENALTY : 0;
  let confidence: number;
  let trust: number;
  if (listed) {
    // A curated list named this URL: the strongest evidence this layer has.
    confidence = Math.min(0.99, LISTED_CONFIDENCE + 0.02 * dangerRules.length);
    trust = clamp(Math.round(100 * (1 - confidence)), 0, 19);
  } else if (verdict === 'danger') {
    const best = dangerRules[0]?.confidence ?? 0.85;
    confidence = Math.min(0.99, best + 0.02 * (dangerRules.length - 1)) - unread;
    trust = clamp(Math.round(100 * (1 - confidence)), 0, 19);
  } else if (verdict === 'caution') {
    confidence = (findings.length > 0 || rules.length > 0 ? 0.6 : 0.55) - unread;
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

  const primary = verdict !== 'safe' ? findings[0] : undefined;
  // A feed's target brand names the impersonated brand when the URL itself did not.
  const feedBrand =
    primary === undefined && listed
      ? (intel.denied.find((hit) => hit.brand !== null && hit.brand !== analysis.owner)?.brand ??
        null)
      : null;
  const pageBrand =
    verdict !== 'safe' && fromPage.brand !== null && fromPage.brand !== analysis.owner
      ? fromPage.brand
      : null;
  const impersonated: Brand | null = primary?.brand ?? feedBrand ?? pageBrand;
  const impersonating = impersonated !== null;
  const threatTypes =
    verdict === 'safe'
      ? []
      : sortThreatTypes([
          ...urlCategories(urlThreatTypes(analysis, findings), fromPage.threatTypes),
          ...intelThreatTypes(intel, impersonating, fresh),
          ...fromPage.threatTypes,
        ]);
  const brand = impersonated ?? (ownSite ? analysis.owner : null);

  const details: Details = {
    matched_brand: brand?.name ?? null,
    official_domain: brand?.primaryDomain ?? null,
    domain_matches_brand: ownSite && brand !== null && brand === analysis.owner,
    target_country:
      brand?.scope === 'national'
        ? brand.country
        : page?.status === 'analysed'
          ? page.analysis.targetCountry
          : null,
    page_language: page?.status === 'analysed' ? page.analysis.language : null,
    tld: analysis.url.icannSuffix,
    domain_age_days: intel.domainAge.status === 'known' ? intel.domainAge.days : null,
    matched_patterns: [
      ...new Set([
        ...intelPatterns(intel),
        ...patterns(analysis, { ...judgement, rules }, ownSite, verdict, redirect),
        ...(verdict === 'safe' && allowlisted ? [] : fromPage.patterns),
        ...(page?.status === 'not_analysed' ? [`page_not_analysed:${page.failure}`] : []),
      ]),
    ],
  };

  return {
    verdict,
    trust_score: trust,
    brand: impersonated?.name ?? null,
    confidence: round2(confidence),
    reason:
      intelLead(intel, analysis, listed) +
      reasonText(
        analysis,
        verdict,
        findings,
        dangerRules.length > 0 ? dangerRules : rules,
        nested ? null : coverage,
        ownSite || intel.allowedBy.length > 0,
        listed,
        page,
      ),
    threat_types: threatTypes,
    signals: signalsOf(
      analysis,
      threatTypes,
      impersonating,
      listed,
      fresh,
      verdict === 'safe' ? [] : fromPage.signals,
    ),
    details,
  };
}

/** Threat types that describe the infrastructure or the name, not what the site does. */
const NOT_CONTENT: ReadonlySet<ThreatType> = new Set([
  'brand_impersonation',
  'disposable_tld',
  'fresh_domain',
  'free_hosting_subdomain',
]);

/**
 * The URL layer's categories, given what the page showed. URL words only suggest what a site does
 * (`claim` in a tax-refund host reads as an airdrop); when the page itself shows a category, the
 * page's categories replace those guesses and the URL keeps only its facts (brand, TLD, hosting).
 */
function urlCategories(
  fromUrl: readonly ThreatType[],
  fromPage: readonly ThreatType[],
): readonly ThreatType[] {
  if (!fromPage.some((type) => !NOT_CONTENT.has(type))) return fromUrl;
  return fromUrl.filter((type) => NOT_CONTENT.has(type));
}

/** Confidence taken off a verdict whose page could not be read. */
const PAGE_UNREAD_PENALTY = 0.05;

/**
 * True when the URL is on a hard allow (detection.md §4.2 step 2): a brand's own site or a
 * popular site (not a hosting tenant, no brand in the userinfo), or an allow entry of a feed.
 */
export function isAllowlisted(
  analysis: UrlAnalysis,
  judgement: UrlJudgement,
  intel: IntelEvidence,
): boolean {
  const ownSite = analysis.owner !== null && analysis.hosting === null;
  return (
    ((ownSite || analysis.popular) &&
      !judgement.rules.some((r) => r.id === 'rule:userinfo_brand')) ||
    intel.allowedBy.length > 0
  );
}

/** Precision estimate of a curated-list hit (feeds and Web Risk are reviewed lists). */
const LISTED_CONFIDENCE = 0.95;

/** The danger rule a fresh domain adds to a brand lookalike. */
const FRESH_LOOKALIKE_RULE = {
  id: 'rule:fresh_lookalike',
  level: 'danger' as const,
  confidence: 0.9,
  text: `the domain imitating a brand was registered less than ${FRESH_DOMAIN_DAYS} days ago`,
};

/** Web Risk's extended-coverage list (cloud.google.com/web-risk/docs/extended-coverage). */
const WEB_RISK_EXTENDED = 'SOCIAL_ENGINEERING_EXTENDED_COVERAGE';

const WEB_RISK_EXTENDED_RULE = {
  id: 'rule:web_risk_extended_coverage',
  level: 'caution' as const,
  confidence: 0.7,
  text: "Google Web Risk's extended coverage lists this address as possibly deceptive",
};

/** Web Risk threat types (cloud.google.com/web-risk/docs/reference/rest/v1/ThreatType). */
const WEB_RISK_THREATS: Readonly<Record<string, ThreatType>> = {
  SOCIAL_ENGINEERING: 'credential_phishing',
  SOCIAL_ENGINEERING_EXTENDED_COVERAGE: 'credential_phishing',
};

function intelThreatTypes(
  intel: IntelEvidence,
  impersonating: boolean,
  fresh: boolean | null,
): ThreatType[] {
  const types: ThreatType[] = [];
  for (const hit of intel.denied) if (hit.threat !== null) types.push(hit.threat);
  for (const type of intel.webRisk) {
    const mapped = WEB_RISK_THREATS[type];
    if (mapped !== undefined) types.push(mapped);
  }
  if (impersonating) types.push('brand_impersonation');
  if (fresh === true) types.push('fresh_domain');
  return [...new Set(types)];
}

function intelPatterns(intel: IntelEvidence): string[] {
  const out: string[] = [];
  for (const hit of intel.denied) out.push(`intel:${hit.source}`, `intel_match:${hit.match}`);
  for (const type of intel.webRisk) out.push(`intel:web_risk:${type.toLowerCase()}`);
  for (const source of intel.allowedBy) out.push(`allowlist:${source}`);
  if (intel.domainAge.status === 'known' && intel.domainAge.days < FRESH_DOMAIN_DAYS) {
    out.push('fresh_domain');
  }
  return out;
}

/** The sentence that names the lists, put before the URL-layer reason. */
function intelLead(intel: IntelEvidence, analysis: UrlAnalysis, listed: boolean): string {
  if (!listed) {
    return intel.allowedBy.length > 0
      ? `${analysis.url.hostname} is on the allowlist of ${intel.allowedBy.join(', ')}. `
      : '';
  }
  const sources = [...new Set(intel.denied.map((hit) => hit.source))];
  if (intel.webRisk.length > 0) sources.push('Google Web Risk');
  const first = intel.denied
    .map((hit) => hit.firstSeen)
    .filter((t): t is number => t !== null)
    .sort((a, b) => a - b)[0];
  const what = intel.denied.some((hit) => hit.match === 'host') ? 'This site' : 'This address';
  const since = first === undefined ? '' : ` since ${new Date(first).toISOString().slice(0, 10)}`;
  return `Known threat: ${what} is listed by ${sources.join(', ')}${since}. `;
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

/** Each type once, in spec §2.3 order (URL rules and feeds may name the same type). */
function sortThreatTypes(types: ThreatType[]): ThreatType[] {
  return [...new Set(types)].sort((a, b) => THREAT_TYPES.indexOf(a) - THREAT_TYPES.indexOf(b));
}

function signalsOf(
  analysis: UrlAnalysis,
  threatTypes: readonly ThreatType[],
  impersonating: boolean,
  listed = false,
  fresh: boolean | null = null,
  pageSignals: readonly SignalName[] = [],
): Signals {
  const signals = emptySignals();
  for (const type of threatTypes) {
    if (type !== 'fresh_domain') signals[type] = true;
  }
  for (const name of pageSignals) {
    if (name !== 'fresh_domain') signals[name] = true;
  }
  signals.brand_impersonation = impersonating;
  signals.domain_mismatch = impersonating || pageSignals.includes('domain_mismatch');
  // Facts about the infrastructure hold whatever the verdict (DESIGN §4.10: null = unknown).
  signals.disposable_tld = analysis.tldTier === 'a' || analysis.tldTier === 'b';
  signals.free_hosting_subdomain = analysis.hosting !== null;
  signals.fresh_domain = fresh;
  signals.known_threat = listed;
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
  listed = false,
  page: PageEvidence | null = null,
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
    if (parts.length === 0 && !listed) {
      parts.push(
        page?.status === 'analysed'
          ? 'Several weak warning signs in the address and the page.'
          : 'Several weak phishing indicators in the URL.',
      );
    }
  }
  const allowlisted = verdict === 'safe' && (ownSite || analysis.popular);
  const note =
    coverage === null
      ? ''
      : page?.status === 'not_analysed'
        ? ` Page not analysed: ${PAGE_FAILURE_TEXT[page.failure]}.`
        : coverageNote(coverage, allowlisted);
  return parts.join(' ') + (parts.length === 0 ? note.trimStart() : note);
}

/**
 * The sentence that says which layers did not run (DESIGN §5: unknown is not safe), or '' when
 * all ran or when the URL is a brand's own or a popular site (the verdict does not rest on them).
 */
function coverageNote(coverage: LayerCoverage, allowlisted: boolean): string {
  const missing = [
    coverage.intel === 'ran' ? null : 'threat intelligence',
    coverage.page === 'ran' || coverage.page === 'not_needed' ? null : 'page content',
  ].filter((x): x is string => x !== null);
  if (missing.length === 0 || allowlisted) return '';
  const why = coverage.intel === 'offline' || coverage.page === 'offline' ? ' (offline mode)' : '';
  // When one other layer ran the verdict rests on more than the URL: say only what is missing.
  return missing.length === 1
    ? ` ${capitalize(missing[0] ?? '')} not checked${why}.`
    : ` Based on the URL only: ${missing.join(' and ')} not checked${why}.`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
