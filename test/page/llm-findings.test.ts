/**
 * The rules that bound what an LLM judge's answer adds (detection.md §3.3): it never lowers, on
 * its own it gives at most caution, danger needs an asks_for item a static finding shows, and a
 * brand counts only through the catalog and only off the brand's own domains.
 */
import { describe, expect, it } from 'vitest';

import { createPageContext } from '../../src/engine/page/create-page-context.js';
import { llmFindings } from '../../src/engine/page/llm-findings.js';
import type { LlmVerdict } from '../../src/engine/page/llm-verdict.js';
import type { PageContext } from '../../src/engine/page/page-context.js';
import type { PageFinding } from '../../src/engine/page/page-finding.js';
import { normalizeUrl } from '../../src/engine/url/normalize-url.js';
import { rulesEngine } from '../helpers/rules-engine.js';

function contextFor(url: string): PageContext {
  const parsed = normalizeUrl(url);
  if (!parsed.ok) throw new Error(parsed.message);
  return createPageContext(rulesEngine(), parsed.url, null);
}

/** An unknown site on an abused TLD: the usual place the judge is asked about. */
const UNKNOWN_SITE = contextFor('https://secure-verify-account.top/login');

function answer(overrides: Partial<LlmVerdict> = {}): LlmVerdict {
  return {
    impersonated_brand: null,
    brand_confidence: 0,
    page_purpose: 'collects account passwords',
    asks_for: ['credentials'],
    threat_types: ['credential_phishing'],
    urgency: false,
    too_good_offer: false,
    evidence: ['Verify your account within 24 hours'],
    verdict: 'danger',
    confidence: 0.9,
    ...overrides,
  };
}

function staticFinding(overrides: Partial<PageFinding>): PageFinding {
  return {
    id: 'static_rule',
    level: 'soft',
    threatTypes: [],
    signals: [],
    confidence: 0.6,
    weight: 1,
    group: 'content',
    evidence: 'password field',
    text: 'test',
    ...overrides,
  };
}

const CREDENTIAL_FORM = staticFinding({
  id: 'password_form',
  threatTypes: ['credential_phishing'],
  signals: ['credential_phishing'],
});

describe('llmFindings never lowers', () => {
  it('adds nothing for a safe answer, whatever the static findings say', () => {
    const drainer = staticFinding({
      id: 'drainer_kit',
      level: 'danger',
      threatTypes: ['wallet_drainer'],
      signals: ['wallet_drainer'],
      confidence: 0.95,
    });
    const statics = [drainer, CREDENTIAL_FORM];
    const copy = structuredClone(statics);
    expect(
      llmFindings(answer({ verdict: 'safe', confidence: 0.99 }), statics, UNKNOWN_SITE),
    ).toEqual([]);
    expect(statics).toEqual(copy);
  });

  it('only adds: a caution answer next to a static danger finding leaves that finding as it is', () => {
    const seed = staticFinding({
      id: 'seed_grid',
      level: 'danger',
      threatTypes: ['seed_phrase_phishing'],
      confidence: 0.95,
    });
    const statics = [seed];
    const copy = structuredClone(statics);
    const added = llmFindings(answer({ verdict: 'caution' }), statics, UNKNOWN_SITE);
    expect(added.map((f) => [f.id, f.level])).toEqual([['llm_judge', 'caution']]);
    expect(statics).toEqual(copy);
  });

  it('adds nothing below a model confidence of 0.5', () => {
    expect(llmFindings(answer({ confidence: 0.49 }), [CREDENTIAL_FORM], UNKNOWN_SITE)).toEqual([]);
  });
});

describe('llmFindings levels', () => {
  it('gives at most caution without corroboration, confidence capped at 0.8', () => {
    const [finding, ...rest] = llmFindings(
      answer({ confidence: 0.99, threat_types: ['credential_phishing', 'brand_impersonation'] }),
      [],
      UNKNOWN_SITE,
    );
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      id: 'llm_judge',
      level: 'caution',
      confidence: 0.8,
      weight: 0,
      // brand_impersonation needs a catalog brand; the answer named none.
      threatTypes: ['credential_phishing'],
      signals: ['credential_phishing'],
      evidence: 'Verify your account within 24 hours',
      text: 'a language-model review judged the page suspicious',
    });
    expect(finding?.brand).toBeUndefined();
  });

  it('gives danger when the answer says danger and a static finding shows what it asks for', () => {
    const [finding] = llmFindings(answer({ threat_types: [] }), [CREDENTIAL_FORM], UNKNOWN_SITE);
    expect(finding).toMatchObject({
      id: 'llm_judge',
      level: 'danger',
      confidence: 0.9,
      threatTypes: ['credential_phishing'],
      text: 'a language-model review confirms the page asks for account credentials',
    });
  });

  it('keeps danger confidence within 0.85–0.95', () => {
    const high = llmFindings(answer({ confidence: 1 }), [CREDENTIAL_FORM], UNKNOWN_SITE);
    const low = llmFindings(answer({ confidence: 0.7 }), [CREDENTIAL_FORM], UNKNOWN_SITE);
    expect([high[0]?.confidence, low[0]?.confidence]).toEqual([0.95, 0.85]);
  });

  it('gives caution for a corroborated danger answer of low confidence', () => {
    const [finding] = llmFindings(answer({ confidence: 0.65 }), [CREDENTIAL_FORM], UNKNOWN_SITE);
    expect(finding).toMatchObject({ level: 'caution', confidence: 0.65 });
  });

  it('gives caution for a caution answer even when corroborated', () => {
    const [finding] = llmFindings(answer({ verdict: 'caution' }), [CREDENTIAL_FORM], UNKNOWN_SITE);
    expect(finding?.level).toBe('caution');
  });

  it('gives at most caution on a reputable site that no catalog brand owns', () => {
    const [finding] = llmFindings(
      answer(),
      [CREDENTIAL_FORM],
      contextFor('https://medium.com/@a/b'),
    );
    expect(finding?.level).toBe('caution');
  });

  const wallet = staticFinding({ threatTypes: ['wallet_drainer'], signals: ['wallet_drainer'] });
  const seed = staticFinding({ threatTypes: ['seed_phrase_phishing'] });
  const captcha = staticFinding({ threatTypes: ['fake_captcha'], signals: ['fake_captcha'] });
  const paste = staticFinding({ signals: ['pastejacking'] });
  const techSupport = staticFinding({ threatTypes: ['tech_support_scam'] });
  const cardForm = staticFinding({
    threatTypes: ['delivery_scam'],
    signals: ['delivery_scam', 'suspicious_payment'],
  });
  const cardEvidence = staticFinding({
    threatTypes: ['invoice_scam'],
    evidence: 'inputs named cardnumber, cvv',
  });
  const addressForm = staticFinding({ threatTypes: ['delivery_scam'], evidence: 'address form' });

  it.each([
    ['credentials', CREDENTIAL_FORM, 'danger'],
    ['credentials', seed, 'caution'],
    ['seed_phrase', seed, 'danger'],
    ['private_key', seed, 'danger'],
    ['seed_phrase', CREDENTIAL_FORM, 'caution'],
    ['wallet_signature', wallet, 'danger'],
    ['wallet_signature', seed, 'caution'],
    ['command_paste', captcha, 'danger'],
    ['command_paste', paste, 'danger'],
    ['phone_call', techSupport, 'danger'],
    ['phone_call', captcha, 'caution'],
    ['card', cardForm, 'danger'],
    ['card', cardEvidence, 'danger'],
    ['card', addressForm, 'caution'],
    ['otp', CREDENTIAL_FORM, 'caution'],
    ['download', captcha, 'caution'],
  ] as const)('asks_for %s with static %o gives %s', (ask, corroborating, level) => {
    const [finding] = llmFindings(
      answer({ asks_for: [ask], threat_types: [] }),
      [corroborating],
      UNKNOWN_SITE,
    );
    expect(finding?.level).toBe(level);
  });
});

describe('llmFindings brands', () => {
  it('accepts a catalog brand off its domains: brand, brand_impersonation, domain_mismatch', () => {
    const [finding] = llmFindings(
      answer({ impersonated_brand: 'PayPal, Inc.', brand_confidence: 0.9, verdict: 'caution' }),
      [],
      UNKNOWN_SITE,
    );
    expect(finding?.brand?.id).toBe('paypal');
    expect(finding?.threatTypes).toEqual(['credential_phishing', 'brand_impersonation']);
    expect(finding?.signals).toEqual(
      expect.arrayContaining(['brand_impersonation', 'domain_mismatch', 'credential_phishing']),
    );
    expect(finding?.text).toBe('a language-model review judged the page to imitate PayPal');
    expect(finding?.evidence).toBe('Verify your account within 24 hours');
  });

  it('puts an unknown brand name only into the evidence', () => {
    const [finding] = llmFindings(
      answer({ impersonated_brand: 'Frobnitz Credit Union', brand_confidence: 0.95 }),
      [],
      UNKNOWN_SITE,
    );
    expect(finding?.brand).toBeUndefined();
    expect(finding?.threatTypes).not.toContain('brand_impersonation');
    expect(finding?.signals).not.toContain('domain_mismatch');
    expect(finding?.evidence).toBe(
      'claims to be "Frobnitz Credit Union": Verify your account within 24 hours',
    );
  });

  it('ignores a brand named with low confidence', () => {
    const [finding] = llmFindings(
      answer({ impersonated_brand: 'PayPal', brand_confidence: 0.3 }),
      [],
      UNKNOWN_SITE,
    );
    expect(finding?.brand).toBeUndefined();
    expect(finding?.threatTypes).not.toContain('brand_impersonation');
  });

  it('adds nothing on the brand own domain', () => {
    const paypal = contextFor('https://www.paypal.com/signin');
    const claim = answer({ impersonated_brand: 'PayPal', brand_confidence: 0.99 });
    expect(llmFindings(claim, [CREDENTIAL_FORM], paypal)).toEqual([]);
  });

  it('does not accept a brand for a tenant page on the brand own registrable domain', () => {
    const tenant = contextFor('https://sites.google.com/view/account-help');
    const [finding] = llmFindings(
      answer({ impersonated_brand: 'Google', brand_confidence: 0.99, verdict: 'caution' }),
      [],
      tenant,
    );
    expect(finding?.level).toBe('caution');
    expect(finding?.brand).toBeUndefined();
    expect(finding?.signals).not.toContain('domain_mismatch');
  });
});

describe('llmFindings evidence and signals', () => {
  it('cuts the first non-empty quote to 120 characters, else uses the page purpose', () => {
    const long = llmFindings(answer({ evidence: ['  ', 'x'.repeat(300)] }), [], UNKNOWN_SITE);
    expect(long[0]?.evidence).toHaveLength(120);
    expect(long[0]?.evidence.startsWith('xxx')).toBe(true);
    const none = llmFindings(answer({ evidence: [] }), [], UNKNOWN_SITE);
    expect(none[0]?.evidence).toBe('collects account passwords');
  });

  it('maps urgency, offers, card requests and crypto types to signals', () => {
    const [finding] = llmFindings(
      answer({
        asks_for: ['card', 'wallet_signature'],
        threat_types: ['wallet_drainer', 'crypto_giveaway_scam'],
        urgency: true,
        too_good_offer: true,
      }),
      [],
      UNKNOWN_SITE,
    );
    expect(new Set(finding?.signals)).toEqual(
      new Set([
        'wallet_drainer',
        'crypto_giveaway_scam',
        'crypto_scam',
        'fake_urgency',
        'too_good_prices',
        'suspicious_payment',
      ]),
    );
  });
});
