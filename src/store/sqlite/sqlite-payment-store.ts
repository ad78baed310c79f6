/**
 * @module store/sqlite/sqlite-payment-store
 * {@link PaymentStore} on better-sqlite3: x402 nonces as issued in 402 challenges, and the
 * permanent claims of the transactions that paid them.
 */

import type Database from 'better-sqlite3';

import type {
  ClaimOutcome,
  IssuedNonce,
  PaymentClaim,
  PaymentStore,
} from '../ports/payment-store.js';
import { asPromise } from './as-promise.js';

type NonceRow = IssuedNonce & { consumedAt: number | null };

interface ClaimRow {
  chain: PaymentClaim['chain'];
  txId: string;
  nonce: string;
  payer: string;
  amountAtomic: string;
  claimedAt: number;
}

export class SqlitePaymentStore implements PaymentStore {
  readonly #db: Database.Database;
  readonly #insert: Database.Statement<[IssuedNonce]>;
  readonly #find: Database.Statement<[string], NonceRow>;
  readonly #purge: Database.Statement<[number]>;
  readonly #consume: Database.Statement<[number, string]>;
  readonly #insertClaim: Database.Statement<[ClaimRow]>;
  readonly #findClaim: Database.Statement<[string, string], ClaimRow>;
  readonly #claim: Database.Transaction<(claim: PaymentClaim, urlHash: string) => ClaimOutcome>;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#insert = db.prepare(`INSERT INTO payment_nonces (nonce, url_hash, issued_at, expires_at)
      VALUES (@nonce, @urlHash, @issuedAt, @expiresAt)`);
    this.#find = db.prepare(`SELECT nonce, url_hash AS urlHash, issued_at AS issuedAt,
      expires_at AS expiresAt, consumed_at AS consumedAt FROM payment_nonces WHERE nonce = ?`);
    // Consumed nonces stay: they belong to a served, paid request (and its claim refers to them).
    this.#purge = db.prepare(
      'DELETE FROM payment_nonces WHERE expires_at < ? AND consumed_at IS NULL',
    );
    this.#consume = db.prepare(
      'UPDATE payment_nonces SET consumed_at = ? WHERE nonce = ? AND consumed_at IS NULL',
    );
    this.#insertClaim = db.prepare(`INSERT INTO payment_claims
      (chain, tx_id, nonce, payer, amount_atomic, claimed_at)
      VALUES (@chain, @txId, @nonce, @payer, @amountAtomic, @claimedAt)`);
    this.#findClaim = db.prepare(`SELECT chain, tx_id AS txId, nonce, payer,
      amount_atomic AS amountAtomic, claimed_at AS claimedAt
      FROM payment_claims WHERE chain = ? AND tx_id = ?`);
    // Checks and writes run under the write lock of one IMMEDIATE transaction, so no other
    // connection (a second process on the same file) can interleave between them.
    this.#claim = db.transaction((claim: PaymentClaim, urlHash: string): ClaimOutcome => {
      const nonce = this.#find.get(claim.nonce);
      if (nonce === undefined) return 'nonce_unknown';
      if (nonce.consumedAt !== null) return 'nonce_already_used';
      if (nonce.urlHash !== urlHash) return 'request_mismatch';
      if (nonce.expiresAt <= claim.claimedAt) return 'nonce_expired';
      if (this.#findClaim.get(claim.chain, claim.txId) !== undefined) return 'tx_already_claimed';
      this.#consume.run(claim.claimedAt, claim.nonce);
      this.#insertClaim.run({ ...claim, amountAtomic: claim.amountAtomic.toString() });
      return 'claimed';
    });
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

  /**
   * Claim in one IMMEDIATE transaction, committed with `synchronous=FULL`: the store otherwise
   * runs with NORMAL (a power loss may drop the last commits), but a paid request is served
   * only after its claim is on disk (docs/architecture.md, "A paid request"), so this one
   * commit is synced. The pragma cannot change inside a transaction, hence around it.
   */
  claimPayment(claim: PaymentClaim, urlHash: string): Promise<ClaimOutcome> {
    return asPromise(() => {
      this.#db.pragma('synchronous = FULL');
      try {
        return this.#claim.immediate(claim, urlHash);
      } finally {
        this.#db.pragma('synchronous = NORMAL');
      }
    });
  }

  serverSecret(name: string, candidate: string, now: number): Promise<string> {
    return asPromise(() => {
      this.#db
        .prepare(
          'INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
        )
        .run(name, candidate, now);
      const row = this.#db
        .prepare<[string], { value: string }>('SELECT value FROM server_secrets WHERE name = ?')
        .get(name);
      if (row === undefined) throw new Error(`server secret ${name} was not stored`);
      return row.value;
    });
  }

  findClaim(chain: PaymentClaim['chain'], txId: string): Promise<PaymentClaim | null> {
    return asPromise(() => {
      const row = this.#findClaim.get(chain, txId);
      return row === undefined ? null : { ...row, amountAtomic: BigInt(row.amountAtomic) };
    });
  }
}
