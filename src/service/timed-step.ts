/**
 * @module service/timed-step
 * Time one asynchronous step of a fresh verdict for the metrics (`DetectionObserver.layerTimed`)
 * without touching the step itself: with no observer the promise is returned as it is, so a
 * process without metrics pays nothing (docs/decisions.md, decision 150).
 */
import type { DetectionObserver, TimedLayer } from '../observability/observer.js';

/**
 * `step`, reporting its duration (from `started`, a `performance.now()` value in ms, to its
 * settlement, success or failure) as `layer` to `observer`.
 *
 * @returns `step` itself without an observer; else a promise settling like it.
 */
export function timedStep<T>(
  step: Promise<T>,
  observer: DetectionObserver | null,
  layer: TimedLayer,
  started: number,
): Promise<T> {
  if (observer === null) return step;
  return step.finally(() => {
    observer.layerTimed(layer, performance.now() - started);
  });
}
