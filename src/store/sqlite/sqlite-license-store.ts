/**
 * @module store/sqlite/sqlite-license-store
 * {@link LicenseStore} on better-sqlite3: Premium licenses of the MCP connector and their monthly
 * check counters. Look-ups by hash are cached like enterprise keys ({@link HashLookupCache}), so
 * a revocation by any process is effective on the next request. Revocation is one conditional
 * UPDATE (exactly one instant is recorded); a reservation is one conditional UPSERT in an
 * IMMEDIATE transaction, so concurrent requests of this and other processes never spend more
 * checks than the cap, and a batch that does not fit is refused whole.
 */

import type Database from 'better-sqlite3';

import type {
  LicenseRecord,
  LicenseStore,
  LicenseUsage,
  NewLicense,
} from '../ports/license-store.js';
import { MONTH, requireInteger } from '../store-values.js';
import { asPromise } from './as-promise.js';
import { HashLookupCache } from './hash-lookup-cache.js';

interface CountParams {
  licenseId: string;
  month: string;
  count: number;
}

type Reservation = (params: CountParams & { cap: number }) => { ok: boolean; used: number };

const SELECT_LICENSE = `SELECT id, name, prefix, hash, created_at AS createdAt,
  revoked_at AS revokedAt FROM licenses`;

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

export class SqliteLicenseStore implements LicenseStore {
  readonly #insert: Database.Statement<[NewLicense]>;
  readonly #byHash: Database.Statement<[Buffer], LicenseRecord>;
  readonly #byId: Database.Statement<[string], LicenseRecord>;
  readonly #all: Database.Statement<[], LicenseRecord>;
  readonly #revoke: Database.Statement<[{ id: string; at: number }]>;
  readonly #exists: Database.Statement<[string], { one: 1 }>;
  readonly #release: Database.Statement<[CountParams]>;
  readonly #usage: Database.Statement<[{ month: string }], LicenseUsage>;
  readonly #usageOf: Database.Statement<[{ month: string; licenseId: string }], LicenseUsage>;
  readonly #reserve: Database.Transaction<Reservation>;
  readonly #cache: HashLookupCache<LicenseRecord>;

  constructor(db: Database.Database) {
    this.#insert = db.prepare(`INSERT INTO licenses (id, name, prefix, hash, created_at, revoked_at)
      VALUES (@id, @name, @prefix, @hash, @createdAt, NULL)`);
    this.#byHash = db.prepare(`${SELECT_LICENSE} WHERE hash = ?`);
    this.#byId = db.prepare(`${SELECT_LICENSE} WHERE id = ?`);
    // rowid breaks ties between licenses created in the same millisecond: insertion order.
    this.#all = db.prepare(`${SELECT_LICENSE} ORDER BY created_at, rowid`);
    this.#revoke = db.prepare(
      'UPDATE licenses SET revoked_at = @at WHERE id = @id AND revoked_at IS NULL',
    );
    this.#exists = db.prepare('SELECT 1 AS one FROM licenses WHERE id = ?');
    this.#release = db.prepare(`UPDATE license_usage SET checks = max(0, checks - @count)
      WHERE license_id = @licenseId AND month = @month`);
    const usage = `SELECT u.license_id AS licenseId, u.month AS month, u.checks AS checks
      FROM licenses AS l JOIN license_usage AS u ON u.license_id = l.id AND u.month = @month
      WHERE u.checks > 0`;
    const order = 'ORDER BY l.created_at, l.rowid';
    this.#usage = db.prepare(`${usage} ${order}`);
    this.#usageOf = db.prepare(`${usage} AND l.id = @licenseId ${order}`);

    // The UPSERT alone decides: it inserts the month's first reservation or adds `count` only
    // while the sum stays within the cap, and RETURNING yields no row when it refused. The
    // IMMEDIATE transaction takes the write lock first, so the count read after a refusal is the
    // one the refusal saw, not a later one of another process.
    const spend = db.prepare<[CountParams & { cap: number }], { checks: number }>(
      `INSERT INTO license_usage (license_id, month, checks)
        SELECT @licenseId, @month, @count WHERE @count <= @cap
        ON CONFLICT (license_id, month) DO UPDATE SET checks = checks + @count
          WHERE license_usage.checks + @count <= @cap
        RETURNING checks`,
    );
    const used = db
      .prepare<[string, string], number>(
        'SELECT checks FROM license_usage WHERE license_id = ? AND month = ?',
      )
      .pluck();
    this.#reserve = db.transaction((params) => {
      const spent = spend.get(params);
      if (spent !== undefined) return { ok: true, used: spent.checks };
      return { ok: false, used: used.get(params.licenseId, params.month) ?? 0 };
    });
    this.#cache = new HashLookupCache(db);
  }

  createLicense(license: NewLicense): Promise<void> {
    return asPromise(() => {
      this.#cache.clear();
      this.#insert.run({
        id: license.id,
        name: license.name,
        prefix: license.prefix,
        hash: license.hash,
        createdAt: license.createdAt,
      });
    });
  }

  findLicenseByHash(hash: Buffer): Promise<LicenseRecord | null> {
    return asPromise(() =>
      this.#cache.get(hash, (h) => {
        const row = this.#byHash.get(h);
        return row === undefined ? null : toRecord(row);
      }),
    );
  }

  findLicenseById(id: string): Promise<LicenseRecord | null> {
    return asPromise(() => {
      const row = this.#byId.get(id);
      return row === undefined ? null : toRecord(row);
    });
  }

  listLicenses(): Promise<LicenseRecord[]> {
    return asPromise(() => this.#all.all().map(toRecord));
  }

  revokeLicense(id: string, at: number): Promise<'revoked' | 'already_revoked' | 'not_found'> {
    return asPromise(() => {
      this.#cache.clear();
      // The conditional UPDATE decides; the look-up only explains a "no" (never deleted).
      if (this.#revoke.run({ id, at }).changes === 1) return 'revoked';
      return this.#exists.get(id) === undefined ? 'not_found' : 'already_revoked';
    });
  }

  reserveChecks(
    licenseId: string,
    month: string,
    count: number,
    cap: number,
  ): Promise<{ ok: boolean; used: number }> {
    return asPromise(() => {
      requireInteger('count', count, 1);
      requireInteger('cap', cap, 0);
      return this.#reserve.immediate({ licenseId, month, count, cap });
    });
  }

  releaseChecks(licenseId: string, month: string, count: number): Promise<void> {
    return asPromise(() => {
      requireInteger('count', count, 1);
      this.#release.run({ licenseId, month, count });
    });
  }

  licenseUsage(month: string, licenseId: string | null): Promise<LicenseUsage[]> {
    return asPromise(() => {
      if (!MONTH.test(month)) throw new RangeError(`month must be YYYY-MM, got "${month}"`);
      return licenseId === null
        ? this.#usage.all({ month })
        : this.#usageOf.all({ month, licenseId });
    });
  }
}
