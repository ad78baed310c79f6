/**
 * @module store/postgres/pg-payment-store
 * {@link PaymentStore} on PostgreSQL. A claim is one transaction of two conditional statements:
 * `UPDATE payment_nonces … WHERE consumed_at IS NULL … RETURNING` consumes the nonce (its row
 * lock makes concurrent claims of one nonce wait, and at READ COMMITTED the waiter re-checks
 * `consumed_at` and finds it set), then `INSERT payment_claims … ON CONFLICT DO NOTHING` claims
 * the transaction id (the primary key makes concurrent claims of one transaction under different
 * nonces wait for each other; the loser inserts nothing). When the insert is refused the whole
 * transaction is rolled back, so the nonce stays claimable. Only after COMMIT returns — durable
 * at PostgreSQL's default `synchronous_commit = on` — is the request served.
 */

import type {
  ClaimOutcome,
  IssuedNonce,
  PaymentClaim,
  PaymentStore,
} from '../ports/payment-store.js';
import { type PgDatabase, Rollback } from './pg-database.js';

type NonceRow = IssuedNonce & { consumedAt: number | null };

const SELECT_NONCE = `SELECT nonce, url_hash AS "urlHash", issued_at AS "issuedAt",
  expires_at AS "expiresAt", consumed_at AS "consumedAt" FROM payment_nonces WHERE nonce = $1`;

interface ClaimRow {
  chain: PaymentClaim['chain'];
  txId: string;
  nonce: string;
  payer: string;
  amountAtomic: string;
  claimedAt: number;
}

export class PgPaymentStore implements PaymentStore {
  constructor(private readonly db: PgDatabase) {}

  async issueNonce(nonce: IssuedNonce): Promise<void> {
    await this.db.query(
      `INSERT INTO payment_nonces (nonce, url_hash, issued_at, expires_at)
        VALUES ($1, $2, $3, $4)`,
      [nonce.nonce, nonce.urlHash, nonce.issuedAt, nonce.expiresAt],
    );
  }

  async findNonce(nonce: string): Promise<NonceRow | null> {
    const { rows } = await this.db.query<NonceRow>(SELECT_NONCE, [nonce]);
    return rows[0] ?? null;
  }

  async serverSecret(name: string, candidate: string, now: number): Promise<string> {
    await this.db.query(
      `INSERT INTO server_secrets (name, value, created_at) VALUES ($1, $2, $3)
        ON CONFLICT (name) DO NOTHING`,
      [name, candidate, now],
    );
    const { rows } = await this.db.query<{ value: string }>(
      'SELECT value FROM server_secrets WHERE name = $1',
      [name],
    );
    const row = rows[0];
    if (row === undefined) throw new Error(`server secret ${name} was not stored`);
    return row.value;
  }

  async purgeExpiredNonces(before: number): Promise<number> {
    // Consumed nonces stay: they belong to a served, paid request (and its claim refers to them).
    const result = await this.db.query(
      'DELETE FROM payment_nonces WHERE expires_at < $1 AND consumed_at IS NULL',
      [before],
    );
    return result.rowCount ?? 0;
  }

  claimPayment(claim: PaymentClaim, urlHash: string): Promise<ClaimOutcome> {
    return this.db.transaction(async (client) => {
      const consumed = await client.query(
        `UPDATE payment_nonces SET consumed_at = $2
          WHERE nonce = $1 AND consumed_at IS NULL AND url_hash = $3 AND expires_at > $2`,
        [claim.nonce, claim.claimedAt, urlHash],
      );
      if (consumed.rowCount !== 1) {
        // Nothing was written; this read only explains the refusal, in the order the port
        // documents (the nonce's own state first).
        const { rows } = await client.query<NonceRow>(SELECT_NONCE, [claim.nonce]);
        const nonce = rows[0];
        if (nonce === undefined) return new Rollback<ClaimOutcome>('nonce_unknown');
        if (nonce.consumedAt !== null) return new Rollback<ClaimOutcome>('nonce_already_used');
        if (nonce.urlHash !== urlHash) return new Rollback<ClaimOutcome>('request_mismatch');
        return new Rollback<ClaimOutcome>('nonce_expired');
      }
      const inserted = await client.query(
        `INSERT INTO payment_claims (chain, tx_id, nonce, payer, amount_atomic, claimed_at)
          VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (chain, tx_id) DO NOTHING`,
        [
          claim.chain,
          claim.txId,
          claim.nonce,
          claim.payer,
          claim.amountAtomic.toString(),
          claim.claimedAt,
        ],
      );
      // Refused: roll back the nonce's consumption too, so it can still pay with another tx.
      if (inserted.rowCount !== 1) return new Rollback<ClaimOutcome>('tx_already_claimed');
      return 'claimed';
    });
  }

  async findClaim(chain: PaymentClaim['chain'], txId: string): Promise<PaymentClaim | null> {
    const { rows } = await this.db.query<ClaimRow>(
      `SELECT chain, tx_id AS "txId", nonce, payer, amount_atomic AS "amountAtomic",
        claimed_at AS "claimedAt" FROM payment_claims WHERE chain = $1 AND tx_id = $2`,
      [chain, txId],
    );
    const row = rows[0];
    return row === undefined ? null : { ...row, amountAtomic: BigInt(row.amountAtomic) };
  }
}
