/**
 * @module engine/scoring/threat-types
 * Maps layer-1 evidence to the threat categories of spec §2.3 and the signals of DESIGN §4.10
 * (detection.md §2.9). Categories are only claimed for a non-safe verdict and only from named
 * evidence: a wallet brand next to `restore`/`seed` words suggests seed-phrase phishing, a postal
 * brand next to `redelivery` a delivery scam. Behaviour that only a page can show (drainer code,
 * fake CAPTCHA, pastejacking, urgency, prices, payment demands, contact details) stays false here.
 */
import { CRYPTO_BRAND_CATEGORIES, type WordGroup } from '../engine-data.js';
import type { UrlAnalysis } from '../rules/analyze-url.js';
import type { BrandFinding } from '../rules/brand-finding.js';
import type { ThreatType } from '../verdict.js';

/** The URL-level threat categories, in spec §2.3 order. */
export function urlThreatTypes(
  analysis: UrlAnalysis,
  findings: readonly BrandFinding[],
): ThreatType[] {
  const words = new Set<WordGroup>([...analysis.hostWords.keys(), ...analysis.pathWords.keys()]);
  const categories = new Set(findings.map((f) => f.brand.category));
  const cryptoContext =
    [...categories].some((c) => CRYPTO_BRAND_CATEGORIES.has(c)) || hasCryptoWords(analysis);
  const out = new Set<ThreatType>();

  if (cryptoContext && words.has('seed')) out.add('seed_phrase_phishing');
  if (findings.length > 0) out.add('brand_impersonation');
  if (cryptoContext) out.add('crypto_scam');
  if (cryptoContext && words.has('airdrop')) out.add('crypto_airdrop_scam');
  if (cryptoContext && words.has('giveaway')) out.add('crypto_giveaway_scam');
  const nonCryptoBrand = [...categories].some(
    (c) => !CRYPTO_BRAND_CATEGORIES.has(c) && c !== 'government',
  );
  if (words.has('credential') || (nonCryptoBrand && !themed(words))) out.add('credential_phishing');
  if (words.has('account')) out.add('account_phishing');
  if (categories.has('delivery') || words.has('delivery')) out.add('delivery_scam');
  if (categories.has('government') || words.has('government')) out.add('government_impersonation');
  if (words.has('invoice')) out.add('invoice_scam');
  if (
    words.has('support') &&
    (categories.has('tech') || categories.has('email') || findings.length === 0)
  ) {
    out.add('tech_support_scam');
  }
  if (analysis.tldTier === 'a' || analysis.tldTier === 'b') out.add('disposable_tld');
  if (analysis.hosting !== null) out.add('free_hosting_subdomain');
  return [...out];
}

/** True when the words point to a specific non-credential theme. */
function themed(words: ReadonlySet<WordGroup>): boolean {
  return (
    words.has('delivery') || words.has('government') || words.has('invoice') || words.has('support')
  );
}

/**
 * Words of the `crypto` group that are everyday words of other scams as well: a tax refund is
 * `claimed`, a parcel `rescheduled`, an account `restored`. On their own they make no crypto
 * context (a `tax-refund-claim` host is not an airdrop scam).
 */
const SHARED_CRYPTO_WORDS: ReadonlySet<string> = new Set([
  'approve',
  'backup',
  'bonus',
  'claim',
  'claims',
  'connect',
  'connection',
  'drop',
  'eligibility',
  'eligible',
  'giveaway',
  'import',
  'migrate',
  'migration',
  'phrase',
  'repair',
  'restore',
  'reward',
  'rewards',
  'secret',
  'sync',
  'synchronize',
  'unclaimed',
  'validate',
  'validation',
]);

/** True when the host or path carries a crypto word that is not also everyday scam vocabulary. */
function hasCryptoWords(analysis: UrlAnalysis): boolean {
  for (const groups of [analysis.hostWords, analysis.pathWords]) {
    if ((groups.get('crypto') ?? []).some((word) => !SHARED_CRYPTO_WORDS.has(word))) return true;
  }
  return false;
}
