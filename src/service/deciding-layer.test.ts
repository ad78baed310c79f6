import { describe, expect, it } from 'vitest';

import { emptySignals, type Verdict, type VerdictValue } from '../engine/verdict.js';
import { decidingLayer } from './deciding-layer.js';

/** A verdict with the given value and evidence codes (what `decidingLayer` reads). */
const verdict = (value: VerdictValue, matched_patterns: string[]): Verdict => ({
  verdict: value,
  trust_score: value === 'safe' ? 90 : value === 'caution' ? 40 : 5,
  brand: null,
  confidence: 0.8,
  reason: 'test',
  threat_types: [],
  signals: emptySignals(),
  details: {
    matched_brand: null,
    official_domain: null,
    domain_matches_brand: false,
    target_country: null,
    page_language: null,
    tld: 'com',
    domain_age_days: null,
    matched_patterns,
  },
});

describe('decidingLayer', () => {
  it.each<[VerdictValue, string[], string]>([
    // A list hit outranks every other layer: it alone makes the verdict danger.
    ['danger', ['page:llm_judge', 'intel:openphish', 'intel_match:url', 'rule:x'], 'intel'],
    ['danger', ['combosquat:paypal+login', 'page:llm_judge', 'page:llm_judge=…'], 'llm_judge'],
    ['danger', ['rule:brand_lookalike', 'page:fake_captcha', 'page:fake_captcha=…'], 'page'],
    ['danger', ['combosquat:metamask+restore', 'fresh_domain', 'rule:fresh_lookalike'], 'intel'],
    ['caution', ['rule:web_risk_extended_coverage'], 'intel'],
    ['caution', ['combosquat:metamask+restore', 'rule:brand_in_subdomain'], 'url'],
    ['danger', ['redirect_target:danger', 'redirect:intel:urlhaus'], 'url'],
    ['safe', ['allowlist:metamask', 'official_domain:metamask'], 'intel'],
    ['safe', ['official_domain:paypal'], 'url'],
    ['safe', ['popular_domain'], 'url'],
    ['safe', [], 'none'],
    ['safe', ['page_not_analysed:timeout'], 'none'],
    // An operator's override decides whatever the layers found (its code comes first).
    [
      'safe',
      ['override:allow:ovr_0123456789ab', 'override_of:danger', 'intel:openphish'],
      'override',
    ],
    ['danger', ['override:deny:ovr_0123456789ab', 'override_of:safe'], 'override'],
  ])('%s with %j rests on %s', (value, codes, layer) => {
    expect(decidingLayer(verdict(value, codes))).toBe(layer);
  });
});
