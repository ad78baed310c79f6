/**
 * @module store/ports/store
 * The whole store: every port, opened once per process. Part of the persistence ports: services
 * depend on these interfaces only; `store/sqlite/` and `store/postgres/` implement them. Every
 * operation that must happen exactly once is a single atomic statement or transaction in the
 * adapter, never a read-then-write in application code; all methods are async for that reason.
 * Times are epoch milliseconds (UTC), months `YYYY-MM` (UTC).
 */
import type { OverrideStore, ReportStore } from './correction-store.js';
import type { IntelStore } from './intel-store.js';
import type { KeyStore } from './key-store.js';
import type { LicenseStore } from './license-store.js';
import type { OAuthStore } from './oauth-store.js';
import type { PaymentStore } from './payment-store.js';
import type { UsageStore } from './usage-store.js';
/** The whole store, opened once per process and shared by the server and the CLI. */
export interface Store {
  readonly keys: KeyStore;
  readonly usage: UsageStore;
  readonly payments: PaymentStore;
  readonly intel: IntelStore;
  readonly licenses: LicenseStore;
  readonly oauth: OAuthStore;
  readonly reports: ReportStore;
  readonly overrides: OverrideStore;
  /**
   * Cheap liveness check for readiness probes; throws when the store is unusable, including when
   * buffered writes are failing.
   */
  ping(): Promise<void>;
  /** Flush buffered writes and close. */
  close(): Promise<void>;
}
