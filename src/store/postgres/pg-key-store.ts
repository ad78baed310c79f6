/**
 * @module store/postgres/pg-key-store
 * {@link KeyStore} on PostgreSQL. Look-ups by hash go through a {@link CredentialCache} that every
 * change to `api_keys` (by any instance, the CLI or by hand) clears through LISTEN/NOTIFY, and
 * that is bypassed while notifications cannot be received: a revocation is refused on every
 * instance once its notification arrives. Revocation is one conditional UPDATE: concurrent
 * revokes record one instant.
 */

import type { ApiKeyRecord, KeyStore, NewApiKey } from '../ports/key-store.js';
import type { CredentialCache } from './credential-cache.js';
import type { PgDatabase } from './pg-database.js';

const SELECT_KEY = `SELECT id, name, prefix, hash, created_at AS "createdAt",
  expires_at AS "expiresAt", revoked_at AS "revokedAt",
  rate_limit_per_minute AS "rateLimitPerMinute", monthly_allowance AS "monthlyAllowance",
  hard_cap AS "hardCap" FROM api_keys`;

/** Field by field, so records have one shape whatever the driver returns. */
function toRecord(row: ApiKeyRecord): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    hash: row.hash,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    rateLimitPerMinute: row.rateLimitPerMinute,
    monthlyAllowance: row.monthlyAllowance,
    hardCap: row.hardCap,
  };
}

export class PgKeyStore implements KeyStore {
  constructor(
    private readonly db: PgDatabase,
    private readonly cache: CredentialCache<ApiKeyRecord>,
  ) {}

  async createKey(key: NewApiKey): Promise<void> {
    await this.db.query(
      `INSERT INTO api_keys (id, name, prefix, hash, created_at, expires_at,
        rate_limit_per_minute, monthly_allowance, hard_cap)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        key.id,
        key.name,
        key.prefix,
        key.hash,
        key.createdAt,
        key.expiresAt,
        key.rateLimitPerMinute,
        key.monthlyAllowance,
        key.hardCap,
      ],
    );
  }

  findKeyByHash(hash: Buffer): Promise<ApiKeyRecord | null> {
    return this.cache.get(hash, async (h) => {
      const { rows } = await this.db.query<ApiKeyRecord>(`${SELECT_KEY} WHERE hash = $1`, [h]);
      return rows[0] === undefined ? null : toRecord(rows[0]);
    });
  }

  async findKeyById(id: string): Promise<ApiKeyRecord | null> {
    const { rows } = await this.db.query<ApiKeyRecord>(`${SELECT_KEY} WHERE id = $1`, [id]);
    return rows[0] === undefined ? null : toRecord(rows[0]);
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    const { rows } = await this.db.query<ApiKeyRecord>(`${SELECT_KEY} ORDER BY created_at, seq`);
    return rows.map(toRecord);
  }

  async revokeKey(id: string, at: number): Promise<'revoked' | 'already_revoked' | 'not_found'> {
    const revoked = await this.db.query(
      'UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL',
      [id, at],
    );
    if (revoked.rowCount === 1) {
      // This process's cache forgets now; other processes' caches on the trigger's NOTIFY, which
      // can arrive after the caller's next look-up.
      this.cache.invalidate();
      return 'revoked';
    }
    // The conditional UPDATE decided; this read only explains a "no" (keys are never deleted).
    const exists = await this.db.query('SELECT 1 FROM api_keys WHERE id = $1', [id]);
    return exists.rowCount === 0 ? 'not_found' : 'already_revoked';
  }
}
