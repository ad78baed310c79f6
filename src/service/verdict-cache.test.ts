import { describe, expect, it } from 'vitest';

import { emptySignals, type Verdict } from '../engine/verdict.js';
import { VerdictCache } from './verdict-cache.js';

const verdict = (reason: string): Verdict => ({
  verdict: 'safe',
  trust_score: 90,
  brand: null,
  confidence: 0.7,
  reason,
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
    matched_patterns: [],
  },
});

describe('VerdictCache', () => {
  it('admits a URL on its second sighting only', () => {
    const cache = new VerdictCache(2);
    const first = cache.set('https://once.example/', verdict('once'));
    expect(Object.isFrozen(first)).toBe(false);
    expect(cache.get('https://once.example/')).toBeUndefined();
    const second = cache.set('https://once.example/', verdict('twice'));
    expect(cache.get('https://once.example/')).toBe(second);
  });

  it('returns what was stored, frozen all the way down', () => {
    const cache = new VerdictCache(2);
    cache.set('https://a.example/', verdict('a'));
    const stored = cache.set('https://a.example/', verdict('a'));
    expect(cache.get('https://a.example/')).toBe(stored);
    expect(Object.isFrozen(stored)).toBe(true);
    expect(Object.isFrozen(stored.details.matched_patterns)).toBe(true);
    expect(() => {
      (stored.signals as { known_threat: boolean }).known_threat = true;
    }).toThrow(TypeError);
  });

  it('evicts the least recently used entry beyond its capacity', () => {
    const cache = new VerdictCache(2);
    const twice = (key: string) => {
      cache.set(key, verdict(key));
      cache.set(key, verdict(key));
    };
    twice('a');
    twice('b');
    expect(cache.get('a')?.reason).toBe('a'); // a is now the most recent
    twice('c');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.reason).toBe('a');
    expect(cache.get('c')?.reason).toBe('c');
    expect(cache.size).toBe(2);
  });

  it('keeps nothing with capacity 0', () => {
    const cache = new VerdictCache(0);
    cache.set('a', verdict('a'));
    cache.set('a', verdict('a'));
    expect(cache.get('a')).toBeUndefined();
  });
});
