import { describe, expect, it } from 'vitest';

import { applyOverride } from '../../src/corrections/override-verdict.js';
import { detectUrl } from '../../src/engine/detect.js';
import type { Verdict } from '../../src/engine/verdict.js';
import type { OverrideRecord } from '../../src/store/ports/correction-store.js';
import { rulesEngine } from '../helpers/rules-engine.js';

function verdictOf(url: string): Verdict {
  const outcome = detectUrl(rulesEngine(), url);
  if (!outcome.ok) throw new Error(outcome.message);
  return Object.freeze(outcome.verdict);
}

function override(action: 'allow' | 'deny', target: string): OverrideRecord {
  return {
    id: 'ovr_0123456789ab',
    action,
    scope: 'domain',
    target,
    reason: 'Customer domain, checked by hand',
    createdBy: 'ops',
    createdAt: 1,
    expiresAt: null,
    removedAt: null,
    removedBy: null,
    reportId: null,
  };
}

describe('applyOverride', () => {
  it('serves safe for an allow and names the override and every hit it overrode', () => {
    const layers = verdictOf('https://metamask-restore-wallet.com/');
    expect(layers.verdict).toBe('danger');
    const served = applyOverride(layers, override('allow', 'metamask-restore-wallet.com'));
    expect(served.verdict).toBe('safe');
    expect(served.trust_score).toBeGreaterThanOrEqual(60);
    expect(served.brand).toBeNull();
    expect(served.threat_types).toEqual([]);
    expect(served.details.matched_patterns.slice(0, 2)).toEqual([
      'override:allow:ovr_0123456789ab',
      'override_of:danger',
    ]);
    // Nothing the layers found is dropped.
    expect(served.details.matched_patterns.slice(2)).toEqual(layers.details.matched_patterns);
    expect(served.signals).toEqual(layers.signals);
    expect(served.reason).toContain('ovr_0123456789ab');
    expect(served.reason).toContain('Customer domain, checked by hand');
    expect(served.reason).toContain("The layers' verdict was danger");
    const rule = layers.details.matched_patterns.find((code) => code.startsWith('rule:'));
    expect(rule).toBeDefined();
    expect(served.reason).toContain(rule);
    expect(served.reason).toContain(layers.reason);
  });

  it('serves danger for a deny and keeps brand and threat types', () => {
    const layers = verdictOf('https://metamask-restore-wallet.com/');
    const served = applyOverride(layers, override('deny', 'metamask-restore-wallet.com'));
    expect(served.verdict).toBe('danger');
    expect(served.trust_score).toBeLessThan(20);
    expect(served.brand).toBe(layers.brand);
    expect(served.threat_types).toEqual(layers.threat_types);
    expect(served.details.matched_patterns[0]).toBe('override:deny:ovr_0123456789ab');
    expect(served.reason.startsWith('Blocked by an override')).toBe(true);
  });

  it('turns a safe verdict into danger with a deny, saying the layers found it safe', () => {
    const layers = verdictOf('https://example.com/');
    expect(layers.verdict).toBe('safe');
    const served = applyOverride(layers, override('deny', 'example.com'));
    expect(served.verdict).toBe('danger');
    expect(served.details.matched_patterns[1]).toBe('override_of:safe');
    expect(served.reason).toContain("The layers' verdict was safe");
  });

  it('ends the operator reason once, whether or not it ends with a full stop', () => {
    const layers = verdictOf('https://example.com/');
    const ended = { ...override('deny', 'example.com'), reason: 'Compromised.' };
    expect(applyOverride(layers, ended).reason).toContain('(ovr_0123456789ab): Compromised. The');
    const bare = { ...override('deny', 'example.com'), reason: 'Compromised' };
    expect(applyOverride(layers, bare).reason).toContain('(ovr_0123456789ab): Compromised. The');
  });

  it('never modifies the layers verdict (cached verdicts are frozen and shared)', () => {
    const layers = verdictOf('https://metamask-restore-wallet.com/');
    const before = JSON.stringify(layers);
    applyOverride(layers, override('allow', 'metamask-restore-wallet.com'));
    expect(JSON.stringify(layers)).toBe(before);
  });
});
