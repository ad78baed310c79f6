/**
 * Layer-1 behaviour through the real engine and data: one invented URL per rule, the verdict,
 * brand and evidence it must produce, and the invariants of spec §2.2 and DESIGN §4.10–4.11 on
 * every result. The URLs are made up for these tests (none comes from an evaluation file).
 *
 * The rules are pinned down apart from the learned model's weights: the engine here carries a
 * stand-in model that scores every site just above its `support` threshold and below `caution`
 * (weak evidence counts, the model never fires alone). test/engine/brand-host-rules.test.ts
 * covers the model's own rules; test/engine/url-model.test.ts the shipped weights.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import { createEngine, type Engine } from '../../src/engine/create-engine.js';
import { detectUrl } from '../../src/engine/detect.js';
import { HASH_BITS } from '../../src/engine/model/host-features.js';
import { URL_MODEL_FORMAT } from '../../src/engine/model/url-model.js';
import {
  SIGNAL_NAMES,
  THREAT_TYPES,
  type ThreatType,
  type Verdict,
  type VerdictValue,
} from '../../src/engine/verdict.js';
import { loadEngineData } from '../../src/engine-data/load-engine-data.js';

let engine: Engine;
beforeAll(() => {
  const data = loadEngineData(undefined, { urlModel: false });
  engine = createEngine({
    ...data,
    urlModel: {
      weights: new Int16Array(1 << HASH_BITS),
      params: {
        format: URL_MODEL_FORMAT,
        hash_bits: HASH_BITS,
        scale: 1,
        bias: 2,
        thresholds: { support: 1, caution: 3, strong: 5 },
      },
    },
  });
});

function judge(url: string): Verdict {
  const outcome = detectUrl(engine, url);
  if (!outcome.ok) throw new Error(`${url} was refused: ${outcome.reason}`);
  expectInvariants(outcome.verdict);
  return outcome.verdict;
}

/** Shape rules every verdict must satisfy, whatever its value. */
function expectInvariants(v: Verdict): void {
  expect(Object.keys(v.signals).sort()).toEqual([...SIGNAL_NAMES].sort());
  for (const name of SIGNAL_NAMES) {
    if (name === 'fresh_domain') expect(v.signals.fresh_domain).toBeNull();
    else expect(typeof v.signals[name]).toBe('boolean');
  }
  expect(Object.keys(v.details).sort()).toEqual(
    [
      'domain_age_days',
      'domain_matches_brand',
      'matched_brand',
      'matched_patterns',
      'official_domain',
      'page_language',
      'target_country',
      'tld',
    ].sort(),
  );
  expect(v.threat_types.every((t) => THREAT_TYPES.includes(t))).toBe(true);
  expect(
    [...v.threat_types].sort((a, b) => THREAT_TYPES.indexOf(a) - THREAT_TYPES.indexOf(b)),
  ).toEqual(v.threat_types);
  expect(Number.isInteger(v.trust_score)).toBe(true);
  expect(v.confidence).toBeGreaterThanOrEqual(0);
  expect(v.confidence).toBeLessThanOrEqual(1);
  const band: Record<VerdictValue, [number, number]> = {
    danger: [0, 19],
    caution: [20, 59],
    safe: [60, 100],
  };
  const [low, high] = band[v.verdict];
  expect(v.trust_score).toBeGreaterThanOrEqual(low);
  expect(v.trust_score).toBeLessThanOrEqual(high);
  if (v.verdict === 'safe') {
    expect(v.threat_types).toEqual([]);
    expect(v.brand).toBeNull();
  }
  if (v.brand !== null) {
    expect(v.signals.brand_impersonation).toBe(true);
    expect(v.signals.domain_mismatch).toBe(true);
    expect(v.details.matched_brand).toBe(v.brand);
    expect(v.details.domain_matches_brand).toBe(false);
    expect(v.reason).toContain(v.brand);
  }
  expect(v.reason.length).toBeGreaterThan(10);
}

describe('safe', () => {
  it.each([
    ['https://www.paypal.com/signin', 'PayPal'],
    ['https://www.paypal.co.uk/myaccount', 'PayPal'],
    ['metamask.io', 'MetaMask'],
    ['https://accounts.google.com/ServiceLogin', 'Google'],
    ['https://github.com/login', 'GitHub'],
  ])('%s is an official domain of %s', (url, brand) => {
    const v = judge(url);
    expect(v.verdict).toBe('safe');
    expect(v.details.matched_brand).toBe(brand);
    expect(v.details.domain_matches_brand).toBe(true);
    expect(v.confidence).toBeGreaterThanOrEqual(0.95);
    expect(v.details.matched_patterns.some((p) => p.startsWith('official_domain:'))).toBe(true);
  });

  it('trusts a popular site and says why', () => {
    const v = judge('https://www.wikipedia.org/');
    expect(v.verdict).toBe('safe');
    expect(v.details.matched_patterns).toContain('popular_domain');
  });

  it.each([
    'https://gardening-tips-for-beginners.com/blog/tomatoes',
    'https://my-portfolio.github.io/',
    // Brands named by ordinary words need phishing context: these are not Apple, Orange or Chase.
    'https://apple-pie-recipes.com/',
    'https://orange-county-library.org/events',
    'https://chase-the-sunset-photography.com/',
    // A token inside other words is not the brand (`arca|debank`, `pacif|icloud…`).
    'https://arcadebank.com/',
    'https://pacificloudservices.com/',
    // Two real words glued together are not a typo of a brand (`bit|bank` ≠ `bitbank`).
    'https://bigbank-savings.org/',
  ])('%s shows no phishing indicator', (url) => {
    const v = judge(url);
    expect(v.verdict).toBe('safe');
    expect(v.brand).toBeNull();
  });

  it('reports infrastructure facts in signals even when safe, and admits it only read the URL', () => {
    const v = judge('https://my-portfolio.github.io/');
    expect(v.signals.free_hosting_subdomain).toBe(true);
    expect(v.threat_types).toEqual([]);
    expect(v.reason).toMatch(/URL only/);
    expect(v.confidence).toBeLessThan(0.9);
  });

  it('lets a brand name its own country domains and multi-word spellings', () => {
    expect(judge('https://www.paypal.de/').verdict).toBe('safe');
  });
});

describe('caution: lookalikes and weak evidence', () => {
  it.each<[string, string, string]>([
    ['https://paypai.com/', 'PayPal', 'lookalike:paypal'],
    ['https://metamask.xyz/', 'MetaMask', 'tld_swap:metamask'],
    ['https://meta-mask.io/', 'MetaMask', 'lookalike:metamask'],
    ['https://paypa1.net/', 'PayPal', 'confusable:paypal'],
    ['https://x7f3k2.weebly.com/paypal/', 'PayPal', 'rule:brand_in_path_on_free_hosting'],
  ])('%s looks like %s and is caution', (url, brand, pattern) => {
    const v = judge(url);
    expect(v.verdict).toBe('caution');
    expect(v.brand).toBe(brand);
    expect(v.details.matched_patterns).toContain(pattern);
    expect(v.threat_types).toContain('brand_impersonation');
  });

  it.each<[string, string]>([
    ['https://bit.ly/3xYzAbc', 'rule:hidden_destination'],
    ['http://8.8.4.4/index.html', 'rule:ip_host'],
    ['https://visitor@gardening-tips-for-beginners.com/', 'rule:userinfo'],
    ['https://secure-account-verify.top/', 'rule:lure_on_abused_tld'],
    ['https://verify-account-portal.pages.dev/', 'rule:lure_on_free_hosting'],
    ['https://x9q27841.cfd/', 'rule:throwaway_name'],
    ['https://myhomeserver.duckdns.org/', 'rule:tunnel_or_ddns'],
  ])('%s is caution by %s, without a brand', (url, rule) => {
    const v = judge(url);
    expect(v.verdict).toBe('caution');
    expect(v.brand).toBeNull();
    expect(v.details.matched_patterns).toContain(rule);
  });
});

describe('danger: strong evidence', () => {
  it.each<[string, string, string, ThreatType[]]>([
    [
      'https://paypal-account-verify.com/',
      'PayPal',
      'rule:brand_with_lure_words',
      ['brand_impersonation', 'credential_phishing', 'account_phishing'],
    ],
    [
      'metamask-restore-wallet.com',
      'MetaMask',
      'rule:brand_with_lure_words',
      ['seed_phrase_phishing', 'brand_impersonation', 'crypto_scam'],
    ],
    [
      'https://paypal.com.secure-login.example-host.top/',
      'PayPal',
      'rule:embedded_brand_domain',
      ['brand_impersonation'],
    ],
    [
      'https://paypal.com-signin.help/',
      'PayPal',
      'rule:embedded_brand_domain',
      ['brand_impersonation'],
    ],
    ['https://pаypal.com/', 'PayPal', 'rule:homoglyph_brand', ['brand_impersonation']],
    [
      'https://paypal.com@account-center-example.top/',
      'PayPal',
      'rule:userinfo_brand',
      ['brand_impersonation'],
    ],
    [
      'https://usps-redelivery-notice.com/',
      'USPS',
      'rule:brand_with_theme_words',
      ['brand_impersonation', 'delivery_scam'],
    ],
    [
      'https://irs-tax-refund-claim.com/',
      'IRS',
      'rule:brand_with_theme_words',
      ['brand_impersonation', 'government_impersonation'],
    ],
    [
      'https://coinbase-login.vercel.app/',
      'Coinbase',
      'rule:brand_on_free_hosting',
      ['brand_impersonation', 'credential_phishing', 'free_hosting_subdomain'],
    ],
    [
      'https://app-uniswap.net/',
      'Uniswap',
      'rule:crypto_brand_with_web3_words',
      ['brand_impersonation', 'crypto_scam'],
    ],
    [
      'https://x7f3k2.weebly.com/paypal/signin.php',
      'PayPal',
      'rule:brand_in_path_on_free_hosting',
      ['brand_impersonation', 'credential_phishing', 'free_hosting_subdomain'],
    ],
    [
      'https://binance-bonus.top/',
      'Binance',
      'rule:brand_on_abused_tld',
      ['brand_impersonation', 'crypto_scam', 'disposable_tld'],
    ],
  ])('%s impersonates %s (%s)', (url, brand, rule, types) => {
    const v = judge(url);
    expect(v.verdict).toBe('danger');
    expect(v.brand).toBe(brand);
    expect(v.details.matched_patterns).toContain(rule);
    for (const type of types) expect(v.threat_types).toContain(type);
    expect(v.confidence).toBeGreaterThanOrEqual(0.85);
    expect(v.reason).toMatch(/official site: /);
  });

  it('judges the target of a redirect parameter: a trusted redirector does not launder it', () => {
    const v = judge('https://www.google.com/url?q=https://paypal-account-verify.com/');
    expect(v.verdict).toBe('danger');
    expect(v.brand).toBe('PayPal');
    expect(v.details.matched_patterns).toContain('redirect_target:danger');
    expect(v.reason).toContain('forwards to paypal-account-verify.com');
  });

  it('sets target_country for a national brand', () => {
    expect(judge('https://irs-tax-refund-claim.com/').details.target_country).toBe('US');
    expect(judge('https://paypal-account-verify.com/').details.target_country).toBeNull();
  });
});

describe('input handling', () => {
  it.each<[string, string]>([
    ['http://127.0.0.1/', 'private_address'],
    ['http://localhost:8080/', 'special_use_name'],
    ['javascript:alert(1)', 'unsupported_scheme'],
    ['https://intranet/', 'unknown_tld'],
  ])('%s is refused (%s)', (url, reason) => {
    const outcome = detectUrl(engine, url);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.reason).toBe(reason);
  });

  it('gives the same verdict for equivalent spellings of a URL', () => {
    const a = judge('HTTPS://PAYPAL-ACCOUNT-VERIFY.COM.');
    const b = judge('paypal-account-verify.com');
    expect(a).toEqual(b);
  });
});
