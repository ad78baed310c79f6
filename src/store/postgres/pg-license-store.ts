/**
 * @module store/postgres/pg-license-store
 * {@link LicenseStore} on PostgreSQL: Premium licenses of the MCP connector and their monthly
 * check counters. Look-ups by hash go through a {@link CredentialCache} cleared by every change to
 * `licenses` through LISTEN/NOTIFY (see `credential-cache.ts` for the bound). A reservation is one conditional UPSERT: it adds the batch only
 * while the month's sum stays within the cap, and the conflicting row's lock serializes
 * concurrent reservations of every instance, so the cap is never exceeded and a batch that does
 * not fit is refused whole.
 */

import type {
  LicenseRecord,
  LicenseStore,
  LicenseUsage,
  NewLicense,
} from '../ports/license-store.js';
import { MONTH, requireInteger } from '../store-values.js';
import type { CredentialCache } from './credential-cache.js';
import type { PgDatabase } from './pg-database.js';

const SELECT_LICENSE = `SELECT id, name, prefix, hash, created_at AS "createdAt",
  revoked_at AS "revokedAt" FROM licenses`;

/** Field by field, so records have one shape whatever the driver returns. */
function toRecord(row: LicenseRecord): LicenseRecord {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    hash: row.hash,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
  };
}

const USAGE = `SELECT u.license_id AS "licenseId", u.month AS month, u.checks AS checks
  FROM licenses AS l JOIN license_usage AS u ON u.license_id = l.id AND u.month = $1
  WHERE u.checks > 0`;

export class PgLicenseStore implements LicenseStore {
  constructor(
    private readonly db: PgDatabase,
    private readonly cache: CredentialCache<LicenseRecord>,
  ) {}

  async createLicense(license: NewLicense): Promise<void> {
    await this.db.query(
      `INSERT INTO licenses (id, name, prefix, hash, created_at) VALUES ($1, $2, $3, $4, $5)`,
      [license.id, license.name, license.prefix, license.hash, license.createdAt],
    );
  }

  findLicenseByHash(hash: Buffer): Promise<LicenseRecord | null> {
    return this.cache.get(hash, async (h) => {
      const { rows } = await this.db.query<LicenseRecord>(`${SELECT_LICENSE} WHERE hash = $1`, [h]);
      return rows[0] === undefined ? null : toRecord(rows[0]);
    });
  }

  async findLicenseById(id: string): Promise<LicenseRecord | null> {
    const { rows } = await this.db.query<LicenseRecord>(`${SELECT_LICENSE} WHERE id = $1`, [id]);
    return rows[0] === undefined ? null : toRecord(rows[0]);
  }

  async listLicenses(): Promise<LicenseRecord[]> {
    const { rows } = await this.db.query<LicenseRecord>(
      `${SELECT_LICENSE} ORDER BY created_at, seq`,
    );
    return rows.map(toRecord);
  }

  async revokeLicense(
    id: string,
    at: number,
  ): Promise<'revoked' | 'already_revoked' | 'not_found'> {
    const revoked = await this.db.query(
      'UPDATE licenses SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL',
      [id, at],
    );
    if (revoked.rowCount === 1) {
      // This process's cache forgets now; other processes' caches on the trigger's NOTIFY, which
      // can arrive after the caller's next look-up.
      this.cache.invalidate();
      return 'revoked';
    }
    // The conditional UPDATE decided; the look-up only explains a "no" (never deleted).
    const exists = await this.db.query('SELECT 1 FROM licenses WHERE id = $1', [id]);
    return exists.rowCount === 0 ? 'not_found' : 'already_revoked';
  }

  async reserveChecks(
    licenseId: string,
    month: string,
    count: number,
    cap: number,
  ): Promise<{ ok: boolean; used: number }> {
    requireInteger('count', count, 1);
    requireInteger('cap', cap, 0);
    const { rows } = await this.db.query<{ checks: number }>(
      `INSERT INTO license_usage (license_id, month, checks)
        SELECT $1, $2, $3 WHERE $3::bigint <= $4::bigint
        ON CONFLICT (license_id, month) DO UPDATE SET checks = license_usage.checks + $3
          WHERE license_usage.checks + $3 <= $4::bigint
        RETURNING checks`,
      [licenseId, month, count, cap],
    );
    if (rows[0] !== undefined) return { ok: true, used: rows[0].checks };
    // Refused, nothing changed: this read only reports the month's count.
    const used = await this.db.query<{ checks: number }>(
      'SELECT checks FROM license_usage WHERE license_id = $1 AND month = $2',
      [licenseId, month],
    );
    return { ok: false, used: used.rows[0]?.checks ?? 0 };
  }

  async releaseChecks(licenseId: string, month: string, count: number): Promise<void> {
    requireInteger('count', count, 1);
    await this.db.query(
      `UPDATE license_usage SET checks = greatest(0, checks - $3)
        WHERE license_id = $1 AND month = $2`,
      [licenseId, month, count],
    );
  }

  async licenseUsage(month: string, licenseId: string | null): Promise<LicenseUsage[]> {
    if (!MONTH.test(month)) throw new RangeError(`month must be YYYY-MM, got "${month}"`);
    const order = 'ORDER BY l.created_at, l.seq';
    const { rows } =
      licenseId === null
        ? await this.db.query<LicenseUsage>(`${USAGE} ${order}`, [month])
        : await this.db.query<LicenseUsage>(`${USAGE} AND l.id = $2 ${order}`, [month, licenseId]);
    return rows;
  }
}
