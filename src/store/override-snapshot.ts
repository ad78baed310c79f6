/**
 * @module store/override-snapshot
 * The immutable snapshot of overrides in force that both store adapters hand out from
 * `activeOverrides()`. One copy, so SQLite and PostgreSQL freeze and compare alike. A reload
 * whose rows equal the previous snapshot's returns the previous object: an adapter reloads on
 * any change it is told of (SQLite's `data_version` moves with every commit of another
 * connection, usage rows included), and the caller rebuilds its index only when the identity
 * changes, so an unrelated write must not look like a change of the overrides.
 */

import type { OverrideRecord, OverrideSnapshot } from './ports/correction-store.js';

/** The fields of an override, in the order they are compared. */
const FIELDS = [
  'id',
  'action',
  'scope',
  'target',
  'reason',
  'createdBy',
  'createdAt',
  'expiresAt',
  'removedAt',
  'removedBy',
  'reportId',
] as const satisfies readonly (keyof OverrideRecord)[];

function sameRecord(a: OverrideRecord, b: OverrideRecord): boolean {
  return FIELDS.every((field) => a[field] === b[field]);
}

/**
 * The snapshot of `records` (already in the port's order, oldest first).
 *
 * @param previous the snapshot handed out before, or null.
 * @returns `previous` itself when `records` equal its overrides field by field; otherwise a new
 *   snapshot whose object, array and records are frozen.
 */
export function overrideSnapshot(
  records: readonly OverrideRecord[],
  previous: OverrideSnapshot | null,
): OverrideSnapshot {
  if (
    previous !== null &&
    previous.overrides.length === records.length &&
    records.every((record, i) => {
      const before = previous.overrides[i];
      return before !== undefined && sameRecord(before, record);
    })
  ) {
    return previous;
  }
  const overrides = Object.freeze(records.map((record) => Object.freeze({ ...record })));
  return Object.freeze({ overrides });
}
