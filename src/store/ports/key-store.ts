/**
 * @module store/ports/key-store
 * Enterprise API keys: stored as SHA-256 only, revoked by one statement. Part of the persistence
 * ports: services depend on these interfaces only; `store/sqlite/` implements them. Every
 * operation that must happen exactly once is a single atomic statement in the adapter, never a
 * read-then-write in application code; all methods are async for that reason. Times are epoch
 * milliseconds (UTC), months `YYYY-MM` (UTC).
 */

/** An enterprise API key as stored: never the raw key, only its SHA-256. */
export interface ApiKeyRecord {
  /** Public identifier, `key_` + 12 base62 characters; safe to show and log. */
  id: string;
  /** Human label given at creation. */
  name: string;
  /** First characters of the raw key (`sk_live_` + 4), to recognise a key without revealing it. */
  prefix: string;
  /** SHA-256 of the raw key (32 bytes). */
  hash: Buffer;
  createdAt: number;
  /** Expiry instant (exclusive) or null for no expiry. */
  expiresAt: number | null;
  /** Revocation instant or null while active. */
  revokedAt: number | null;
  /** Requests per minute for this key, or null for the service default. */
  rateLimitPerMinute: number | null;
  /** Agreed monthly request allowance, or null when none was set. */
  monthlyAllowance: number | null;
  /** When true, requests above the monthly allowance are refused. */
  hardCap: boolean;
}

/** Fields given when creating a key; the id, prefix and hash come from `access/api-key.ts`. */
export type NewApiKey = Omit<ApiKeyRecord, 'revokedAt'>;

export interface KeyStore {
  /** Insert a new key. @throws if the id or hash already exists. */
  createKey(key: NewApiKey): Promise<void>;
  /** Look a key up by the SHA-256 of the presented raw key; null when unknown. */
  findKeyByHash(hash: Buffer): Promise<ApiKeyRecord | null>;
  /** Look a key up by id; null when unknown. */
  findKeyById(id: string): Promise<ApiKeyRecord | null>;
  /** All keys, oldest first. */
  listKeys(): Promise<ApiKeyRecord[]>;
  /**
   * Revoke a key at `at`. Atomic and idempotent.
   * @returns `revoked` on the first call, `already_revoked` afterwards, `not_found` for an unknown id.
   */
  revokeKey(id: string, at: number): Promise<'revoked' | 'already_revoked' | 'not_found'>;
}
