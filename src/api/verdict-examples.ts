/**
 * @module api/verdict-examples
 * Real verdicts shown as examples in the API reference: what `POST /v1/detect` answered for the
 * URLs of `example-urls.ts`, judged by the URL layer with no feeds loaded and RDAP and page
 * analysis off. Written by `npx tsx scripts/update-api-examples.ts`; do not edit by hand.
 * `test/http/api-examples.test.ts` judges the URLs again and fails when these drift.
 */
import type { Verdict } from '../engine/verdict.js';

/** The verdict of `EXAMPLE_URLS.safe`. */
export const SAFE_VERDICT_EXAMPLE: Verdict = {
  verdict: 'safe',
  trust_score: 98,
  brand: null,
  confidence: 0.97,
  reason: 'docs.github.com is an official domain of GitHub.',
  threat_types: [],
  signals: {
    brand_impersonation: false,
    credential_phishing: false,
    account_phishing: false,
    crypto_scam: false,
    crypto_airdrop_scam: false,
    crypto_giveaway_scam: false,
    wallet_drainer: false,
    seed_phrase_phishing: false,
    fake_captcha: false,
    pastejacking: false,
    tech_support_scam: false,
    delivery_scam: false,
    government_impersonation: false,
    invoice_scam: false,
    no_contact_info: false,
    domain_mismatch: false,
    fake_urgency: false,
    too_good_prices: false,
    suspicious_payment: false,
    fresh_domain: null,
    disposable_tld: false,
    free_hosting_subdomain: false,
    known_threat: false,
  },
  details: {
    matched_brand: 'GitHub',
    official_domain: 'github.com',
    domain_matches_brand: true,
    target_country: null,
    page_language: null,
    tld: 'com',
    domain_age_days: null,
    matched_patterns: ['official_domain:github', 'popular_domain'],
  },
};

/** The verdict of `EXAMPLE_URLS.danger`. */
export const DANGER_VERDICT_EXAMPLE: Verdict = {
  verdict: 'danger',
  trust_score: 6,
  brand: 'MetaMask',
  confidence: 0.94,
  reason:
    "Looks like MetaMask: metamask-restore-wallet.com combines the name MetaMask with other words (official site: metamask.io). A brand name is paired with credential or wallet lure words; MetaMask's name is used with web3 words on a domain it does not own; its real apps live on its own domain; the name closely resembles known phishing sites, and other evidence agrees. Lure words: restore, wallet. Based on the URL only: threat intelligence and page content not checked.",
  threat_types: ['seed_phrase_phishing', 'brand_impersonation', 'crypto_scam'],
  signals: {
    brand_impersonation: true,
    credential_phishing: false,
    account_phishing: false,
    crypto_scam: true,
    crypto_airdrop_scam: false,
    crypto_giveaway_scam: false,
    wallet_drainer: false,
    seed_phrase_phishing: true,
    fake_captcha: false,
    pastejacking: false,
    tech_support_scam: false,
    delivery_scam: false,
    government_impersonation: false,
    invoice_scam: false,
    no_contact_info: false,
    domain_mismatch: true,
    fake_urgency: false,
    too_good_prices: false,
    suspicious_payment: false,
    fresh_domain: null,
    disposable_tld: false,
    free_hosting_subdomain: false,
    known_threat: false,
  },
  details: {
    matched_brand: 'MetaMask',
    official_domain: 'metamask.io',
    domain_matches_brand: false,
    target_country: null,
    page_language: null,
    tld: 'com',
    domain_age_days: null,
    matched_patterns: [
      'combosquat:metamask',
      'rule:brand_with_lure_words',
      'rule:crypto_brand_with_web3_words',
      'rule:brand_impersonation',
      'rule:url_model_corroborated',
      'lure:crypto:restore',
      'lure:crypto:wallet',
      'lure:seed:restore',
      'url_model:strong',
      'url_model_ngram:resto',
      'url_model_ngram:mask',
      'url_model_ngram:walle',
    ],
  },
};
