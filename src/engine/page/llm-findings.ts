/**
 * @module engine/page/llm-findings
 * What an LLM judge's answer may add to layer 3's findings, per detection.md §3.3:
 * - it never lowers anything: it only adds a finding, and a `safe` answer adds none;
 * - on its own it gives at most `caution`;
 * - it gives `danger` only when it says danger and names an `asks_for` item that a static
 *   finding also shows ("upgrade caution to danger only when its output names a concrete
 *   asks_for item that the static parser also sees");
 * - the brand it names counts only through the brand catalog, and only on a domain the brand
 *   does not own (§3.2: "the LLM proposes the brand; the table decides domain legitimacy");
 *   an unknown name is only quoted in the evidence.
 *
 * LLMs have more false positives than reference-based detectors on benign pages (Ji and Kim
 * 2025, §3.1), hence the extra guards: nothing on a catalog brand's own site, at most caution on
 * another reputable site, nothing below a model confidence of 0.5.
 */
import type { Brand } from '../brand/brand-index.js';
import type { ThreatType } from '../verdict.js';
import type { LlmAsk, LlmVerdict } from './llm-verdict.js';
import { ownsDomain } from './page-brands.js';
import type { PageContext } from './page-context.js';
import { excerpt, type PageFinding } from './page-finding.js';

type PageSignal = PageFinding['signals'][number];

/** Id of the finding; `matched_patterns` shows `page:llm_judge`. */
const FINDING_ID = 'llm_judge';
/** Below this model confidence an answer adds nothing. */
const MIN_CONFIDENCE = 0.5;
/** A danger answer with less confidence than this gives caution even when corroborated. */
const DANGER_MIN_CONFIDENCE = 0.7;
/** Confidence of a caution finding is the model's, capped here: a model alone is not certain. */
const CAUTION_CONFIDENCE_CAP = 0.8;
/** Danger findings are ≥ 0.85 (page-finding.ts); a model never makes one certain. */
const DANGER_CONFIDENCE_RANGE = [0.85, 0.95] as const;
/** A brand claim below this certainty is ignored. */
const MIN_BRAND_CONFIDENCE = 0.5;
/** A card-number, CVV or expiry mention in a static finding's evidence. */
const CARD_EVIDENCE = /\b(?:card|cvv|cvc|cc-(?:number|exp|csc)|expir)/i;

/** The finding stands for one of these threat types (as a threat type or as a signal). */
function hasAny(finding: PageFinding, types: readonly ThreatType[]): boolean {
  const names: readonly string[] = [...finding.threatTypes, ...finding.signals];
  return types.some((type) => names.includes(type));
}

/** What each `asks_for` item corresponds to among static findings (detection.md §2.9). */
const CORROBORATION: Readonly<
  Record<LlmAsk, { types: readonly ThreatType[]; matches: (finding: PageFinding) => boolean }>
> = {
  credentials: corroboratedBy(['credential_phishing', 'account_phishing']),
  seed_phrase: corroboratedBy(['seed_phrase_phishing']),
  private_key: corroboratedBy(['seed_phrase_phishing']),
  card: {
    types: ['credential_phishing', 'delivery_scam', 'government_impersonation', 'invoice_scam'],
    matches: (finding) =>
      hasAny(finding, [
        'credential_phishing',
        'delivery_scam',
        'government_impersonation',
        'invoice_scam',
      ]) &&
      (finding.signals.includes('suspicious_payment') || CARD_EVIDENCE.test(finding.evidence)),
  },
  // No static analyzer sees one-time codes or downloads: the model alone never makes them danger.
  otp: { types: [], matches: () => false },
  download: { types: [], matches: () => false },
  wallet_signature: corroboratedBy(['wallet_drainer']),
  phone_call: corroboratedBy(['tech_support_scam']),
  command_paste: corroboratedBy(['fake_captcha', 'pastejacking']),
};

function corroboratedBy(types: readonly ThreatType[]): {
  types: readonly ThreatType[];
  matches: (finding: PageFinding) => boolean;
} {
  return { types, matches: (finding) => hasAny(finding, types) };
}

/** How the reason names what the page asks for. */
const ASK_TEXT: Readonly<Record<LlmAsk, string>> = {
  credentials: 'account credentials',
  seed_phrase: 'a wallet recovery phrase',
  private_key: 'a wallet private key',
  card: 'payment card details',
  otp: 'a one-time code',
  wallet_signature: 'a wallet signature',
  phone_call: 'a call to a fake support number',
  download: 'a download',
  command_paste: 'pasting a command',
};

const CRYPTO_TYPES: readonly ThreatType[] = [
  'wallet_drainer',
  'seed_phrase_phishing',
  'crypto_airdrop_scam',
  'crypto_giveaway_scam',
];

/**
 * Turn a judge's answer into findings.
 *
 * @param verdict the validated answer of the model.
 * @param staticFindings the page's findings from `analyzePage()` (used for corroboration only;
 *   never changed or removed).
 * @param context the final URL's context (brand catalog, owner, reputation).
 * @returns `[]` or one finding with id `llm_judge`: level `danger` (confidence 0.85–0.95) when
 *   corroborated as described in the module comment, otherwise `caution` (confidence ≤ 0.8).
 *   Threat types are the answer's content types, plus `brand_impersonation` when a catalog brand
 *   is accepted (then `brand` is set and `domain_mismatch` signalled). Evidence is the answer's
 *   first quote through `excerpt()`, prefixed by the claimed name when it is not in the catalog.
 */
export function llmFindings(
  verdict: LlmVerdict,
  staticFindings: readonly PageFinding[],
  context: PageContext,
): PageFinding[] {
  if (verdict.verdict === 'safe' || verdict.confidence < MIN_CONFIDENCE) return [];
  // On a catalog brand's own site the catalog has already decided legitimacy.
  if (context.owner !== null) return [];

  const claimed = verdict.impersonated_brand?.trim() ?? '';
  const catalogBrand = claimed === '' ? undefined : context.brands.brandByName(claimed);
  const brand = acceptedBrand(verdict, catalogBrand, context);

  const asks = [...new Set(verdict.asks_for)];
  const corroborated = asks.filter((ask) =>
    staticFindings.some((finding) => CORROBORATION[ask].matches(finding)),
  );
  const danger =
    verdict.verdict === 'danger' &&
    verdict.confidence >= DANGER_MIN_CONFIDENCE &&
    corroborated.length > 0 &&
    !context.reputable;

  const threatTypes = new Set<ThreatType>(
    verdict.threat_types.filter((type) => type !== 'brand_impersonation'),
  );
  if (danger) {
    for (const ask of corroborated) {
      for (const type of CORROBORATION[ask].types) {
        if (staticFindings.some((f) => f.threatTypes.includes(type))) threatTypes.add(type);
      }
    }
  }
  if (brand !== null) threatTypes.add('brand_impersonation');

  const signals = new Set<PageSignal>();
  for (const type of threatTypes) {
    if (type !== 'fresh_domain') signals.add(type);
    if (CRYPTO_TYPES.includes(type)) signals.add('crypto_scam');
  }
  if (brand !== null) signals.add('domain_mismatch');
  if (verdict.urgency) signals.add('fake_urgency');
  if (verdict.too_good_offer) signals.add('too_good_prices');
  if (asks.includes('card')) signals.add('suspicious_payment');

  const quote = verdict.evidence.find((e) => e.trim() !== '') ?? verdict.page_purpose;
  const unknownName = brand === null && catalogBrand === undefined && claimed !== '';
  const evidence = excerpt(unknownName ? `claims to be "${claimed}": ${quote}` : quote);

  const [dangerFloor, dangerCap] = DANGER_CONFIDENCE_RANGE;
  const firstAsk = corroborated[0];
  const finding: PageFinding = {
    id: FINDING_ID,
    level: danger ? 'danger' : 'caution',
    threatTypes: [...threatTypes],
    signals: [...signals],
    confidence: danger
      ? Math.min(dangerCap, Math.max(dangerFloor, verdict.confidence))
      : Math.min(CAUTION_CONFIDENCE_CAP, verdict.confidence),
    weight: 0,
    group: 'content',
    evidence,
    text:
      danger && firstAsk !== undefined
        ? `a language-model review confirms the page asks for ${ASK_TEXT[firstAsk]}`
        : brand === null
          ? 'a language-model review judged the page suspicious'
          : `a language-model review judged the page to imitate ${brand.name}`,
  };
  if (brand !== null) finding.brand = brand;
  return [finding];
}

/**
 * The claimed brand when the catalog knows it, the model is confident of it, and it does not own
 * the site; else null.
 */
function acceptedBrand(
  verdict: LlmVerdict,
  catalogBrand: Brand | undefined,
  context: PageContext,
): Brand | null {
  if (catalogBrand === undefined || verdict.brand_confidence < MIN_BRAND_CONFIDENCE) return null;
  return ownsDomain(catalogBrand, context.analysis.url.registrableDomain) ? null : catalogBrand;
}
