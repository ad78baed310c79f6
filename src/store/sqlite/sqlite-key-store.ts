/**
 * @module store/sqlite/sqlite-key-store
 * {@link KeyStore} on better-sqlite3. Statements are prepared once per connection. Revocation is
 * one conditional UPDATE, so concurrent revokes (CLI and another instance) record exactly one
 * revocation instant.
 *
 * Look-ups by hash are cached ({@link HashLookupCache}): key writes through this connection
 * clear the cache, and commits of any other connection are noticed through `PRAGMA data_version`,
 * so a revocation is still effective on the very next request (spec §5).
 */

import type Database from 'better-sqlite3';

import type { ApiKeyRecord, KeyStore, NewApiKey } from '../ports/key-store.js';
import { asPromise } from './as-promise.js';
import { HashLookupCache } from './hash-lookup-cache.js';

/** A row as selected: columns aliased to the record's names, `hard_cap` still 0/1. */
type ApiKeyRow = Omit<ApiKeyRecord, 'hardCap'> & { hardCap: 0 | 1 };

interface ApiKeyParams {
  id: string;
  name: string;
  prefix: string;
  hash: Buffer;
  createdAt: number;
  expiresAt: number | null;
  rateLimitPerMinute: number | null;
  monthlyAllowance: number | null;
  hardCap: 0 | 1;
}

const SELECT_KEY = `SELECT id, name, prefix, hash, created_at AS createdAt, expires_at AS expiresAt,
  revoked_at AS revokedAt, rate_limit_per_minute AS rateLimitPerMinute,
  monthly_allowance AS monthlyAllowance, hard_cap AS hardCap FROM api_keys`;

/** Field by field: a spread of the row gave the record a slow dictionary shape (hot path). */
function toRecord(row: ApiKeyRow): ApiKeyRecord {
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
    hardCap: row.hardCap === 1,
  };
}

export class SqliteKeyStore implements KeyStore {
  readonly #insert: Database.Statement<[ApiKeyParams]>;
  readonly #byHash: Database.Statement<[Buffer], ApiKeyRow>;
  readonly #byId: Database.Statement<[string], ApiKeyRow>;
  readonly #all: Database.Statement<[], ApiKeyRow>;
  readonly #revoke: Database.Statement<[{ id: string; at: number }]>;
  readonly #exists: Database.Statement<[string], { one: 1 }>;
  readonly #cache: HashLookupCache<ApiKeyRecord>;

  constructor(db: Database.Database) {
    this.#insert = db.prepare(`INSERT INTO api_keys (id, name, prefix, hash, created_at,
      expires_at, revoked_at, rate_limit_per_minute, monthly_allowance, hard_cap)
      VALUES (@id, @name, @prefix, @hash, @createdAt, @expiresAt, NULL, @rateLimitPerMinute,
      @monthlyAllowance, @hardCap)`);
    this.#byHash = db.prepare(`${SELECT_KEY} WHERE hash = ?`);
    this.#byId = db.prepare(`${SELECT_KEY} WHERE id = ?`);
    // rowid breaks ties between keys created in the same millisecond: insertion order.
    this.#all = db.prepare(`${SELECT_KEY} ORDER BY created_at, rowid`);
    this.#revoke = db.prepare(
      'UPDATE api_keys SET revoked_at = @at WHERE id = @id AND revoked_at IS NULL',
    );
    this.#exists = db.prepare('SELECT 1 AS one FROM api_keys WHERE id = ?');
    this.#cache = new HashLookupCache(db);
  }

  createKey(key: NewApiKey): Promise<void> {
    return asPromise(() => {
      this.#cache.clear();
      this.#insert.run({
        id: key.id,
        name: key.name,
        prefix: key.prefix,
        hash: key.hash,
        createdAt: key.createdAt,
        expiresAt: key.expiresAt,
        rateLimitPerMinute: key.rateLimitPerMinute,
        monthlyAllowance: key.monthlyAllowance,
        hardCap: key.hardCap ? 1 : 0,
      });
    });
  }

  findKeyByHash(hash: Buffer): Promise<ApiKeyRecord | null> {
    return asPromise(() =>
      this.#cache.get(hash, (h) => {
        const row = this.#byHash.get(h);
        return row === undefined ? null : toRecord(row);
      }),
    );
  }

  findKeyById(id: string): Promise<ApiKeyRecord | null> {
    return asPromise(() => {
      const row = this.#byId.get(id);
      return row === undefined ? null : toRecord(row);
    });
  }

  listKeys(): Promise<ApiKeyRecord[]> {
    return asPromise(() => this.#all.all().map(toRecord));
  }

  revokeKey(id: string, at: number): Promise<'revoked' | 'already_revoked' | 'not_found'> {
    return asPromise(() => {
      this.#cache.clear();
      // The conditional UPDATE decides; the lookup only explains a "no" (keys are never deleted).
      if (this.#revoke.run({ id, at }).changes === 1) return 'revoked';
      return this.#exists.get(id) === undefined ? 'not_found' : 'already_revoked';
    });
  }
}
