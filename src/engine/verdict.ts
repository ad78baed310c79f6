/**
 * @module engine/verdict
 * The detection result of spec §2.2 with the decisions of DESIGN §4.10–4.11: all 23 signals are
 * always present, every `details` field is always present, unknown strings are `null`.
 */

/** Verdict values (spec §2.2). */
export type VerdictValue = 'safe' | 'caution' | 'danger';

/** Allowed `threat_types` values, exactly spec §2.3. */
export const THREAT_TYPES = [
  'wallet_drainer',
  'seed_phrase_phishing',
  'brand_impersonation',
  'crypto_scam',
  'crypto_airdrop_scam',
  'crypto_giveaway_scam',
  'credential_phishing',
  'account_phishing',
  'delivery_scam',
  'government_impersonation',
  'invoice_scam',
  'tech_support_scam',
  'fake_captcha',
  'pastejacking',
  'disposable_tld',
  'fresh_domain',
  'free_hosting_subdomain',
] as const;

export type ThreatType = (typeof THREAT_TYPES)[number];

/** The 23 signal names of DESIGN §4.10, in that order. */
export const SIGNAL_NAMES = [
  'brand_impersonation',
  'credential_phishing',
  'account_phishing',
  'crypto_scam',
  'crypto_airdrop_scam',
  'crypto_giveaway_scam',
  'wallet_drainer',
  'seed_phrase_phishing',
  'fake_captcha',
  'pastejacking',
  'tech_support_scam',
  'delivery_scam',
  'government_impersonation',
  'invoice_scam',
  'no_contact_info',
  'domain_mismatch',
  'fake_urgency',
  'too_good_prices',
  'suspicious_payment',
  'fresh_domain',
  'disposable_tld',
  'free_hosting_subdomain',
  'known_threat',
] as const;

export type SignalName = (typeof SIGNAL_NAMES)[number];

/** Boolean flags per signal; `fresh_domain` is null when the domain age is unknown (spec §2.4). */
export type Signals = Record<Exclude<SignalName, 'fresh_domain'>, boolean> & {
  fresh_domain: boolean | null;
};

/** spec §2.5, every field always present (DESIGN §4.11). */
export interface Details {
  /** The brand the URL was matched to (impersonated or owned), or null. */
  matched_brand: string | null;
  /** The brand's primary official registrable domain, or null. */
  official_domain: string | null;
  /** True when the URL's registrable domain is an official domain of `matched_brand`. */
  domain_matches_brand: boolean;
  /** ISO 3166-1 alpha-2 of the country a national brand serves, or null. */
  target_country: string | null;
  /** BCP 47 language of the page (layer 3), or null when the page was not analysed. */
  page_language: string | null;
  /** The ICANN public suffix of the host (`com`, `co.uk`), or null for IP hosts. */
  tld: string | null;
  /** Days since registration (layer 2), or null when unknown. */
  domain_age_days: number | null;
  /** Evidence codes of every rule that fired, e.g. `combosquat:metamask+restore,wallet`. */
  matched_patterns: string[];
}

/** The 200 body of `POST /v1/detect` (spec §2.2). */
export interface Verdict {
  verdict: VerdictValue;
  /** 0–100; 100 = safe, 0 = scam. */
  trust_score: number;
  /** Impersonated brand if detected (not set for a brand's own domain). */
  brand: string | null;
  /** 0.0–1.0 certainty of the verdict itself. */
  confidence: number;
  reason: string;
  threat_types: ThreatType[];
  signals: Signals;
  details: Details;
}

const EMPTY_SIGNALS: Readonly<Signals> = Object.freeze({
  ...(Object.fromEntries(SIGNAL_NAMES.map((name) => [name, false])) as Record<SignalName, boolean>),
  fresh_domain: null,
});

/** A new signals object with every flag false and `fresh_domain` unknown. */
export function emptySignals(): Signals {
  return { ...EMPTY_SIGNALS };
}
