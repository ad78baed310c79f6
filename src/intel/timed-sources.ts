/**
 * @module intel/timed-sources
 * Layer 2's outbound sources with their durations reported to the metrics
 * (`linkguard_layer_duration_seconds{layer="rdap"|"web_risk"}`): decorators over the ports the
 * intel layer already takes, so neither the RDAP nor the Web Risk client changes. A lookup the
 * layer stopped waiting for (its deadline passed) is still timed to its end: the duration is the
 * source's, not the verdict's.
 */
import type { DetectionObserver } from '../observability/observer.js';
import type { DomainAgeSource, SourcedAge, UrlReputationSource } from './intel-layer.js';

/**
 * `source` reporting each lookup's duration as `rdap`.
 *
 * @param observer told the duration of every lookup (ms), answered from RDAP's cache or not.
 */
export function timedDomainAge(
  source: DomainAgeSource,
  observer: DetectionObserver,
): DomainAgeSource {
  return {
    domainAge: (registrableDomain: string): Promise<SourcedAge> => {
      const started = performance.now();
      return source.domainAge(registrableDomain).finally(() => {
        observer.layerTimed('rdap', performance.now() - started);
      });
    },
  };
}

/** `source` reporting each lookup's duration as `web_risk`. */
export function timedReputation(
  source: UrlReputationSource,
  observer: DetectionObserver,
): UrlReputationSource {
  return {
    lookup: (url) => {
      const started = performance.now();
      return source.lookup(url).finally(() => {
        observer.layerTimed('web_risk', performance.now() - started);
      });
    },
  };
}
