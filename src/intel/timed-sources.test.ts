import { describe, expect, it } from 'vitest';

import type { DetectionObserver, TimedLayer } from '../observability/observer.js';
import type { DomainAgeSource, SourcedAge, UrlReputationSource } from './intel-layer.js';
import { timedDomainAge, timedReputation } from './timed-sources.js';

/** An observer that keeps the layer timings it is told (the port the metrics implement). */
function recorder(): DetectionObserver & { timings: [TimedLayer, number][] } {
  const timings: [TimedLayer, number][] = [];
  return {
    timings,
    verdictServed: () => undefined,
    cacheLookup: () => undefined,
    allowanceRefused: () => undefined,
    layerTimed: (layer, ms) => timings.push([layer, ms]),
  };
}

describe('timed layer-2 sources', () => {
  it('report each RDAP lookup as rdap when it settles, answering exactly what the source answers', async () => {
    const observer = recorder();
    let answer: (age: SourcedAge) => void = () => undefined;
    const source: DomainAgeSource = {
      domainAge: () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    };
    const pending = timedDomainAge(source, observer).domainAge('example.net');
    await Promise.resolve();
    // Timed to the source's own end: nothing is reported while it is still out.
    expect(observer.timings).toEqual([]);
    answer({ status: 'known', ageDays: 11 });
    expect(await pending).toEqual({ status: 'known', ageDays: 11 });
    expect(observer.timings.map(([layer]) => layer)).toEqual(['rdap']);
    expect(observer.timings[0]?.[1]).toBeGreaterThanOrEqual(0);
  });

  it('report each Web Risk lookup as web_risk', async () => {
    const observer = recorder();
    const source: UrlReputationSource = {
      lookup: () => Promise.resolve({ status: 'listed', threatTypes: ['SOCIAL_ENGINEERING'] }),
    };
    const timed = timedReputation(source, observer);
    expect(await timed.lookup('https://example.net/')).toEqual({
      status: 'listed',
      threatTypes: ['SOCIAL_ENGINEERING'],
    });
    expect(observer.timings.map(([layer]) => layer)).toEqual(['web_risk']);
  });
});
