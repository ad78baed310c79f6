/**
 * @module store/sqlite/sqlite-override-store
 * {@link OverrideStore} on better-sqlite3: the operator's overrides, in table
 * `verdict_overrides` (migration 008). Removal is one conditional UPDATE, so exactly one
 * instant and operator are recorded. `activeOverrides()` runs on every verdict served, so its
 * snapshot is cached ({@link SnapshotCache}) until another connection commits or this
 * connection writes an override (here or through a report's resolution, which shares the
 * cache); an unchanged reload returns the previous snapshot object (`override-snapshot.ts`).
 */

import type Database from 'better-sqlite3';

import { overrideSnapshot } from '../override-snapshot.js';
import type {
  NewOverride,
  OverrideRecord,
  OverrideSnapshot,
  OverrideStore,
} from '../ports/correction-store.js';
import { overrideRecordOf } from '../store-values.js';
import { asPromise } from './as-promise.js';
import type { SnapshotCache } from './snapshot-cache.js';

/** The columns of an override as {@link OverrideRecord} fields. */
export const OVERRIDE_COLUMNS = `id, action, scope, target, reason, created_by AS createdBy,
  created_at AS createdAt, expires_at AS expiresAt, removed_at AS removedAt,
  removed_by AS removedBy, report_id AS reportId`;

/** The INSERT of a new override, with named parameters as {@link overrideParams} gives them. */
export const INSERT_OVERRIDE = `INSERT INTO verdict_overrides (id, action, scope, target, reason,
  created_by, created_at, expires_at, removed_at, removed_by, report_id)
  VALUES (@id, @action, @scope, @target, @reason, @createdBy, @createdAt, @expiresAt, NULL, NULL,
  @reportId)`;

/** Field by field, so only the columns of the table reach the statement. */
export function overrideParams(override: NewOverride): NewOverride {
  return {
    id: override.id,
    action: override.action,
    scope: override.scope,
    target: override.target,
    reason: override.reason,
    createdBy: override.createdBy,
    createdAt: override.createdAt,
    expiresAt: override.expiresAt,
    reportId: override.reportId,
  };
}

export class SqliteOverrideStore implements OverrideStore {
  readonly #insert: Database.Statement<[NewOverride]>;
  readonly #byId: Database.Statement<[string], OverrideRecord>;
  readonly #all: Database.Statement<[], OverrideRecord>;
  readonly #active: Database.Statement<[], OverrideRecord>;
  readonly #remove: Database.Statement<[{ id: string; at: number; by: string }]>;
  readonly #exists: Database.Statement<[string], { one: 1 }>;
  readonly #cache: SnapshotCache<OverrideSnapshot>;
  #last: OverrideSnapshot | null = null;

  /** @param cache the active-overrides cache, shared with the report store (which writes too). */
  constructor(db: Database.Database, cache: SnapshotCache<OverrideSnapshot>) {
    this.#insert = db.prepare(INSERT_OVERRIDE);
    const select = `SELECT ${OVERRIDE_COLUMNS} FROM verdict_overrides`;
    this.#byId = db.prepare(`${select} WHERE id = ?`);
    // rowid breaks ties between overrides created in the same millisecond: insertion order.
    this.#all = db.prepare(`${select} ORDER BY created_at, rowid`);
    this.#active = db.prepare(`${select} WHERE removed_at IS NULL ORDER BY created_at, rowid`);
    this.#remove = db.prepare(`UPDATE verdict_overrides SET removed_at = @at, removed_by = @by
      WHERE id = @id AND removed_at IS NULL`);
    this.#exists = db.prepare('SELECT 1 AS one FROM verdict_overrides WHERE id = ?');
    this.#cache = cache;
  }

  addOverride(override: NewOverride): Promise<void> {
    return asPromise(() => {
      this.#cache.clear();
      this.#insert.run(overrideParams(override));
    });
  }

  findOverride(id: string): Promise<OverrideRecord | null> {
    return asPromise(() => {
      const row = this.#byId.get(id);
      return row === undefined ? null : overrideRecordOf(row);
    });
  }

  listOverrides(): Promise<OverrideRecord[]> {
    return asPromise(() => this.#all.all().map(overrideRecordOf));
  }

  removeOverride(
    id: string,
    at: number,
    by: string,
  ): Promise<'removed' | 'already_removed' | 'not_found'> {
    return asPromise(() => {
      this.#cache.clear();
      // The conditional UPDATE decides; the look-up only explains a "no" (never deleted).
      if (this.#remove.run({ id, at, by }).changes === 1) return 'removed';
      return this.#exists.get(id) === undefined ? 'not_found' : 'already_removed';
    });
  }

  activeOverrides(): Promise<OverrideSnapshot> {
    return asPromise(() =>
      this.#cache.get(() => {
        this.#last = overrideSnapshot(this.#active.all().map(overrideRecordOf), this.#last);
        return this.#last;
      }),
    );
  }
}
