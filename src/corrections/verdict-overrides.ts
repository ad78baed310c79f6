/**
 * @module corrections/verdict-overrides
 * The operator's overrides as the detection service applies them: the store's snapshot of the
 * overrides in force (cached by the adapter, refreshed when any process commits a change), an
 * index rebuilt only when the snapshot changes, and the override that decides a URL.
 */
import type { Clock } from '../clock.js';
import type { ParsedUrl } from '../engine/url/normalize-url.js';
import type {
  OverrideRecord,
  OverrideSnapshot,
  OverrideStore,
} from '../store/ports/correction-store.js';
import { OverrideIndex } from './override-index.js';

export class VerdictOverrides {
  #snapshot: OverrideSnapshot | null = null;
  #index = new OverrideIndex([]);

  /**
   * @param store the overrides port; `activeOverrides()` is called once per look-up and must be
   *   cheap (the adapters cache it).
   * @param clock decides expiry.
   */
  constructor(
    private readonly store: OverrideStore,
    private readonly clock: Clock,
  ) {}

  /**
   * The override that decides `url` now, or null.
   *
   * @throws what the store throws (an unreachable PostgreSQL: `service_unavailable`): a verdict
   *   must not be served as if no override existed when the overrides cannot be read.
   */
  async match(url: ParsedUrl): Promise<OverrideRecord | null> {
    const snapshot = await this.store.activeOverrides();
    if (snapshot !== this.#snapshot) {
      this.#index = new OverrideIndex(snapshot.overrides);
      this.#snapshot = snapshot;
    }
    return this.#index.match(url, this.clock.now());
  }
}
