/**
 * @module store/postgres/pg-override-store
 * {@link OverrideStore} on PostgreSQL: the operator's overrides, in table `verdict_overrides`
 * (migration 005). Removal is one conditional UPDATE, so exactly one instant and operator are
 * recorded. `activeOverrides()` runs on every verdict served, so its snapshot is cached per
 * process ({@link NotifiedSnapshotCache}): dropped by this process's own writes at once, and by
 * every other instance's when the trigger's notification arrives (`credential-cache.ts` for the
 * bound; bypassed while the listening connection is down). An unchanged reload returns the
 * previous snapshot object (`override-snapshot.ts`).
 */

import { overrideSnapshot } from '../override-snapshot.js';
import type {
  NewOverride,
  OverrideRecord,
  OverrideSnapshot,
  OverrideStore,
} from '../ports/correction-store.js';
import { overrideRecordOf } from '../store-values.js';
import type { NotifiedSnapshotCache } from './notified-snapshot-cache.js';
import type { PgDatabase } from './pg-database.js';

const SELECT_OVERRIDE = `SELECT id, action, scope, target, reason, created_by AS "createdBy",
  created_at AS "createdAt", expires_at AS "expiresAt", removed_at AS "removedAt",
  removed_by AS "removedBy", report_id AS "reportId" FROM verdict_overrides`;

/** The INSERT of a new override; values as {@link overrideValues} gives them. */
export const INSERT_OVERRIDE = `INSERT INTO verdict_overrides (id, action, scope, target, reason,
  created_by, created_at, expires_at, report_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;

/** The parameters of {@link INSERT_OVERRIDE}. */
export function overrideValues(override: NewOverride): unknown[] {
  return [
    override.id,
    override.action,
    override.scope,
    override.target,
    override.reason,
    override.createdBy,
    override.createdAt,
    override.expiresAt,
    override.reportId,
  ];
}

export class PgOverrideStore implements OverrideStore {
  #last: OverrideSnapshot | null = null;

  /** @param cache the active-overrides cache, shared with the report store (which writes too). */
  constructor(
    private readonly db: PgDatabase,
    private readonly cache: NotifiedSnapshotCache<OverrideSnapshot>,
  ) {}

  async addOverride(override: NewOverride): Promise<void> {
    await this.db.query(INSERT_OVERRIDE, overrideValues(override));
    // This process's cache forgets now; other processes' on the trigger's NOTIFY.
    this.cache.invalidate();
  }

  async findOverride(id: string): Promise<OverrideRecord | null> {
    const { rows } = await this.db.query<OverrideRecord>(`${SELECT_OVERRIDE} WHERE id = $1`, [id]);
    return rows[0] === undefined ? null : overrideRecordOf(rows[0]);
  }

  async listOverrides(): Promise<OverrideRecord[]> {
    const { rows } = await this.db.query<OverrideRecord>(
      `${SELECT_OVERRIDE} ORDER BY created_at, seq`,
    );
    return rows.map(overrideRecordOf);
  }

  async removeOverride(
    id: string,
    at: number,
    by: string,
  ): Promise<'removed' | 'already_removed' | 'not_found'> {
    const removed = await this.db.query(
      `UPDATE verdict_overrides SET removed_at = $2, removed_by = $3
        WHERE id = $1 AND removed_at IS NULL`,
      [id, at, by],
    );
    if (removed.rowCount === 1) {
      this.cache.invalidate();
      return 'removed';
    }
    // The conditional UPDATE decided; the look-up only explains a "no" (never deleted).
    const exists = await this.db.query('SELECT 1 FROM verdict_overrides WHERE id = $1', [id]);
    return exists.rowCount === 0 ? 'not_found' : 'already_removed';
  }

  activeOverrides(): Promise<OverrideSnapshot> {
    return this.cache.get(async () => {
      const { rows } = await this.db.query<OverrideRecord>(
        `${SELECT_OVERRIDE} WHERE removed_at IS NULL ORDER BY created_at, seq`,
      );
      this.#last = overrideSnapshot(rows.map(overrideRecordOf), this.#last);
      return this.#last;
    });
  }
}
