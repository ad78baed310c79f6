/**
 * @module store/ports/license-store
 * Premium licenses of the MCP connector and their monthly checks. Part of the persistence ports:
 * services depend on these interfaces only; `store/sqlite/` implements them. Every operation that
 * must happen exactly once is a single atomic statement in the adapter, never a read-then-write in
 * application code; all methods are async for that reason. Times are epoch milliseconds (UTC),
 * months `YYYY-MM` (UTC).
 */

/** A Premium license of the MCP connector as stored: never the raw license, only its SHA-256. */
export interface LicenseRecord {
  /** Public identifier, `lk_` + 12 base62 characters; safe to show and log. */
  id: string;
  /** Human label given at creation. */
  name: string;
  /** First characters of the raw license (`lic_` + 4), to recognise it without revealing it. */
  prefix: string;
  /** SHA-256 of the raw license (32 bytes). */
  hash: Buffer;
  createdAt: number;
  /** Revocation instant or null while active. */
  revokedAt: number | null;
}

/** Fields given when creating a license; the id, prefix and hash come from `access/license.ts`. */
export type NewLicense = Omit<LicenseRecord, 'revokedAt'>;

/** Connector checks spent by one license in one month. */
export interface LicenseUsage {
  licenseId: string;
  month: string;
  checks: number;
}

export interface LicenseStore {
  /** Insert a new license. @throws if the id or hash already exists. */
  createLicense(license: NewLicense): Promise<void>;
  /**
   * Look a license up by the SHA-256 of the presented raw license; null when unknown. Adapters
   * may cache, but a revocation or creation committed by any process is seen on the next call.
   */
  findLicenseByHash(hash: Buffer): Promise<LicenseRecord | null>;
  /** Look a license up by id; null when unknown. */
  findLicenseById(id: string): Promise<LicenseRecord | null>;
  /** All licenses, oldest first. */
  listLicenses(): Promise<LicenseRecord[]>;
  /**
   * Revoke a license at `at`. Atomic and idempotent.
   * @returns `revoked` on the first call, `already_revoked` afterwards, `not_found` for an unknown id.
   */
  revokeLicense(id: string, at: number): Promise<'revoked' | 'already_revoked' | 'not_found'>;
  /**
   * Atomically spend `count` checks (one per URL, a whole batch at once) of a license's month.
   * Refuses the whole reservation, incrementing nothing, when `used + count` would exceed `cap`.
   *
   * @param count checks to spend, an integer ≥ 1.
   * @param cap the month's limit, an integer ≥ 0 (`PREMIUM_MONTHLY_CHECKS` for Premium).
   * @returns `ok` and the month's checks after the call (unchanged when refused).
   * @throws RangeError for a non-integer or out-of-range `count` or `cap`; a store error for an
   *   unknown license or a malformed month.
   */
  reserveChecks(
    licenseId: string,
    month: string,
    count: number,
    cap: number,
  ): Promise<{ ok: boolean; used: number }>;
  /**
   * Give back `count` checks of a reservation whose request failed; never below zero.
   * @throws RangeError for a `count` that is not an integer ≥ 1.
   */
  releaseChecks(licenseId: string, month: string, count: number): Promise<void>;
  /**
   * Checks spent per license in `month` (only `licenseId` unless null), licenses oldest first;
   * licenses without checks that month are omitted.
   * @throws RangeError when `month` is not `YYYY-MM`.
   */
  licenseUsage(month: string, licenseId: string | null): Promise<LicenseUsage[]>;
}
