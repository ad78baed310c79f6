/**
 * @module store/sqlite/sqlite-nonce-store
 * {@link NonceStore} on better-sqlite3: x402 nonces as issued in 402 challenges.
 */

import type Database from 'better-sqlite3';

import type { IssuedNonce, NonceStore } from '../ports.js';
import { asPromise } from './as-promise.js';

type NonceRow = IssuedNonce & { consumedAt: number | null };

export class SqliteNonceStore implements NonceStore {
  readonly #insert: Database.Statement<[IssuedNonce]>;
  readonly #find: Database.Statement<[string], NonceRow>;
  readonly #purge: Database.Statement<[number]>;

  constructor(db: Database.Database) {
    this.#insert = db.prepare(`INSERT INTO payment_nonces (nonce, url_hash, issued_at, expires_at)
      VALUES (@nonce, @urlHash, @issuedAt, @expiresAt)`);
    this.#find = db.prepare(`SELECT nonce, url_hash AS urlHash, issued_at AS issuedAt,
      expires_at AS expiresAt, consumed_at AS consumedAt FROM payment_nonces WHERE nonce = ?`);
    // Consumed nonces stay: they belong to a served, paid request.
    this.#purge = db.prepare(
      'DELETE FROM payment_nonces WHERE expires_at < ? AND consumed_at IS NULL',
    );
  }

  issueNonce(nonce: IssuedNonce): Promise<void> {
    return asPromise(() => {
      this.#insert.run({
        nonce: nonce.nonce,
        urlHash: nonce.urlHash,
        issuedAt: nonce.issuedAt,
        expiresAt: nonce.expiresAt,
      });
    });
  }

  findNonce(nonce: string): Promise<NonceRow | null> {
    return asPromise(() => this.#find.get(nonce) ?? null);
  }

  purgeExpiredNonces(before: number): Promise<number> {
    return asPromise(() => this.#purge.run(before).changes);
  }
}
