/**
 * Layer 1 on the classes of misses an independent evaluation found (issue "detection that
 * generalizes"): brands as whole host labels, brands next to ordinary words, common-word brands,
 * hosts that are public suffixes, digit-for-letter swaps, brand-less wallet lures, self-hosted
 * software, threat typing and lure words inside other words. Every URL is invented for these tests.
 *
 * The rules are tested with the learned model switched off (`rules`), and with stand-in models
 * whose every site scores one fixed logit (`silent`, `supporting`, `cautious`, `strong`), so each
 * rule's dependence on the model is pinned down independently of what the shipped weights say.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import { createEngine, type Engine } from '../../src/engine/create-engine.js';
import { detectUrl } from '../../src/engine/detect.js';
import { HASH_BITS } from '../../src/engine/model/host-features.js';
import { URL_MODEL_FORMAT } from '../../src/engine/model/url-model.js';
import type { Verdict } from '../../src/engine/verdict.js';
import { loadEngineData } from '../../src/engine-data/load-engine-data.js';

const THRESHOLDS = { support: 1, caution: 3, strong: 5 };
let rules: Engine;
let engines: Record<'silent' | 'supporting' | 'cautious' | 'strong', Engine>;

/** An engine whose URL model scores every site `logit` (all weights zero, bias = logit). */
function withConstantModel(logit: number): Engine {
  const data = loadEngineData(undefined, { urlModel: false });
  return createEngine({
    ...data,
    urlModel: {
      weights: new Int16Array(1 << HASH_BITS),
      params: {
        format: URL_MODEL_FORMAT,
        hash_bits: HASH_BITS,
        scale: 1,
        bias: logit,
        thresholds: THRESHOLDS,
      },
    },
  });
}

beforeAll(() => {
  rules = createEngine(loadEngineData(undefined, { urlModel: false }));
  engines = {
    silent: withConstantModel(0),
    supporting: withConstantModel(2),
    cautious: withConstantModel(4),
    strong: withConstantModel(6),
  };
});

function judge(url: string, engine: Engine = rules): Verdict {
  const outcome = detectUrl(engine, url);
  if (!outcome.ok) throw new Error(`${url} was refused: ${outcome.reason}`);
  return outcome.verdict;
}

describe('a brand as a whole host label of a domain it does not own', () => {
  it.each([
    ['https://paypal.example-store.in/', 'PayPal', 'brand_label@subdomain:paypal'],
    ['https://metamask.some-blog.co/', 'MetaMask', 'brand_label@subdomain:metamask'],
  ])('%s is at least caution without lure words', (url, brand, pattern) => {
    const v = judge(url);
    expect(v.verdict).not.toBe('safe');
    expect(v.brand).toBe(brand);
    expect(v.details.matched_patterns).toContain(pattern);
  });

  it('leaves self-hosted software installs alone, but not its name with lure words', () => {
    expect(judge('https://roundcube.mycompany-mail.de/').verdict).toBe('safe');
    expect(judge('https://cpanel.smallhosting-example.net/').verdict).toBe('safe');
    const lure = judge('https://roundcube-mailbox-verify.com/');
    expect(lure.verdict).toBe('danger');
    expect(lure.brand).toBe('Roundcube Webmail');
  });
});

describe('a brand next to ordinary words needs the model or corroboration', () => {
  it.each([
    'https://paypal-offer.com/',
    'https://coinbase-app.com/',
    'https://ledger-resolution-center.net/',
  ])('%s: caution with the model\u2019s support, not on the name alone', (url) => {
    expect(judge(url, engines.supporting).verdict).not.toBe('safe');
    expect(judge(url, engines.supporting).details.matched_patterns).toContain(
      'rule:brand_impersonation',
    );
    expect(judge(url, engines.silent).verdict).toBe(url.includes('resolution') ? 'danger' : 'safe');
  });

  it('treats words companies use for their own domains as needing corroboration', () => {
    // `usa`, `group`, `cdn` are how companies name secondary domains.
    expect(judge('https://paypal-usa-group.com/', engines.supporting).verdict).toBe('safe');
    expect(judge('https://paypal-cdn.top/', engines.silent).verdict).toBe('danger');
  });

  it('gates lookalikes on the model too', () => {
    expect(judge('https://paypai.com/', engines.silent).verdict).toBe('safe');
    const v = judge('https://paypai.com/', engines.supporting);
    expect(v.verdict).toBe('caution');
    expect(v.details.matched_patterns).toContain('lookalike:paypal');
  });
});

describe('brands named by ordinary words', () => {
  it('are found glued to lure words', () => {
    const v = judge('https://appleidverifyaccount.com/');
    expect(v.verdict).toBe('danger');
    expect(v.brand).toBe('Apple');
  });

  it('count as a TLD swap under a heavily abused TLD, not under a country TLD', () => {
    expect(judge('https://apple.cfd/').brand).toBe('Apple');
    expect(judge('https://apple.tj/').verdict).toBe('safe');
  });

  it('stay ordinary words in ordinary compounds and next to weak lures', () => {
    expect(judge('https://applepierecipes.com/').verdict).toBe('safe');
    expect(judge('https://luckyorange-analytics.com/').brand).toBeNull();
  });
});

describe('hosts that are public suffixes themselves', () => {
  it('are valid input: a registry or platform name is its own site', () => {
    for (const url of ['https://gov.uk/', 'https://nhs.uk/conditions/', 'https://bubbleapps.io/']) {
      const v = judge(url);
      expect(v.verdict).toBe('safe');
    }
  });

  it('judge the tenant of a path-style S3 bucket', () => {
    const v = judge('https://s3.amazonaws.com/paypal-login-secure/index.html');
    expect(v.verdict).toBe('danger');
    expect(v.brand).toBe('PayPal');
    expect(v.details.matched_patterns).toContain('hosting:s3.amazonaws.com');
  });

  it('judge the tenant of an IPFS path gateway and of an ENS gateway', () => {
    const cid = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi';
    expect(judge(`https://dweb.link/ipfs/${cid}/`).signals.free_hosting_subdomain).toBe(true);
    const ens = judge('https://metamask-wallet-restore.eth.limo/');
    expect(ens.verdict).toBe('danger');
    expect(ens.brand).toBe('MetaMask');
  });
});

describe('digit-for-letter swaps of short brands', () => {
  it.each([
    ['https://0kx.com/', 'OKX'],
    ['https://dh1.com/', 'DHL'],
    ['https://dh1-tracking.com/', 'DHL'],
  ])('%s looks like %s', (url, brand) => {
    const v = judge(url);
    expect(v.verdict).toBe('caution');
    expect(v.brand).toBe(brand);
    expect(v.details.matched_patterns.some((p) => p.startsWith('confusable:'))).toBe(true);
  });

  it('leaves ordinary alphanumeric names alone', () => {
    expect(judge('https://a01-parts.com/').verdict).toBe('safe');
    expect(judge('https://a1-hotel.com/').verdict).toBe('safe');
    expect(judge('https://h2o-water.com/').verdict).toBe('safe');
  });
});

describe('brand-less wallet recovery lures', () => {
  it('name the recovery secret or wallet repair: caution', () => {
    for (const url of ['https://seedphrase-validator.com/', 'https://rectify-wallet.com/']) {
      const v = judge(url);
      expect(v.verdict).toBe('caution');
      expect(v.details.matched_patterns).toContain('rule:wallet_recovery_lure');
      expect(v.threat_types).toContain('seed_phrase_phishing');
    }
  });

  it('on throwaway infrastructure: danger', () => {
    const v = judge('https://wallet-rectify-node.top/');
    expect(v.verdict).toBe('danger');
    expect(v.details.matched_patterns).toContain('rule:wallet_recovery_lure');
  });

  it('need a wallet word next to a generic restore word', () => {
    expect(judge('https://photo-restore-studio.com/').verdict).toBe('safe');
  });
});

describe('lure words spelled with digits for letters', () => {
  it('are caution alone, danger with a brand or on throwaway infrastructure', () => {
    const alone = judge('https://acc0unt-update.net/');
    expect(alone.verdict).toBe('caution');
    expect(alone.details.matched_patterns).toContain('rule:disguised_lure_word');
    expect(alone.reason).toContain('"acc0unt"');
    expect(judge('https://ver1fication-center.top/').verdict).toBe('danger');
  });

  it('need a digit between letters that reads as a lure word', () => {
    for (const url of [
      'https://w3schools-notes.com/',
      'https://shop24-garden.com/',
      'https://g4mes-arcade.net/',
      'https://b2b-catalog.com/',
      'https://5h1pm3n7.com/',
    ]) {
      expect(judge(url).details.matched_patterns).not.toContain('rule:disguised_lure_word');
    }
  });
});

describe('an ordinary-word brand written as a company writes its own domain', () => {
  it('counts glued to a country or web word when another part carries a lure word', () => {
    const v = judge('https://orangeuk-login.com/');
    expect(v.verdict).not.toBe('safe');
    expect(v.brand).toBe('Orange');
    expect(judge('https://orangeuk-gardens.com/').verdict).toBe('safe');
  });

  it('counts glued to a lure that fits it, not to a prize or crypto word', () => {
    const refund = judge('https://profile-irsrefund-tax.com/');
    expect(refund.brand).toBe('IRS');
    expect(refund.verdict).toBe('danger');
    expect(judge('https://formgetmypayment-irs.com/').brand).toBe('IRS');
    expect(judge('https://luckyorange-games.com/').brand).toBeNull();
    expect(judge('https://skybridge-labs.com/').brand).toBeNull();
  });

  it('an account alert is an account lure', () => {
    const v = judge('https://chase-online-alerts.com/verify-identity');
    expect(v.verdict).not.toBe('safe');
    expect(v.brand).toBe('Chase');
  });
});

describe('reasons and types', () => {
  it('names the primary official domain first', () => {
    expect(judge('https://google.com.account-check.top/').details.official_domain).toBe(
      'google.com',
    );
    expect(judge('https://microsoft-login.xyz/').details.official_domain).toBe('microsoft.com');
  });

  it('does not type a tax-refund lure as a crypto scam', () => {
    const v = judge('https://hmrc-tax-refund-claim.com/');
    expect(v.threat_types).toContain('government_impersonation');
    expect(v.threat_types.some((t) => t.startsWith('crypto'))).toBe(false);
  });

  it('does not read lure words out of other words', () => {
    const v = judge('https://contoso.weebly.com/');
    expect(v.details.matched_patterns.some((p) => p.includes(':conto'))).toBe(false);
  });
});

describe('the learned model as a layer-1 signal', () => {
  it('raises an otherwise clean name to caution alone, naming itself in the evidence', () => {
    const v = judge('https://quiet-garden-notes.com/', engines.cautious);
    expect(v.verdict).toBe('caution');
    expect(v.details.matched_patterns).toContain('rule:url_model');
    expect(v.details.matched_patterns).toContain('url_model:caution');
    expect(v.reason).toMatch(/learned URL model/);
  });

  it('gives danger only with other evidence', () => {
    expect(judge('https://quiet-garden-notes.com/', engines.strong).verdict).toBe('caution');
    const v = judge('https://secure-login-portal.com/', engines.strong);
    expect(v.verdict).toBe('danger');
    expect(v.details.matched_patterns).toContain('rule:url_model_corroborated');
  });

  it('never lowers a verdict and never runs on allowlisted sites', () => {
    expect(judge('https://paypal-account-verify.com/', engines.silent).verdict).toBe('danger');
    expect(judge('https://www.paypal.com/signin', engines.strong).verdict).toBe('safe');
    expect(judge('https://www.wikipedia.org/', engines.strong).verdict).toBe('safe');
  });

  it('is silent below its caution threshold', () => {
    expect(judge('https://quiet-garden-notes.com/', engines.supporting).verdict).toBe('safe');
  });
});
