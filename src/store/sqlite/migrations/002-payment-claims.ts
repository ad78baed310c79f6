/**
 * @module store/sqlite/migrations/002-payment-claims
 * Settled x402 payments (DESIGN §4.7): one row per transaction id, kept forever, so a transaction
 * pays for exactly one request. No URL is stored, only the nonce it settled. The amount is TEXT
 * (a decimal of atomic units) because USDC amounts are bigints and SQLite integers are 64-bit.
 */

import type { Migration } from '../migrate.js';

export const migration002: Migration = {
  version: 2,
  name: 'payment-claims',
  sql: `
CREATE TABLE payment_claims (
  chain TEXT NOT NULL CHECK (chain IN ('solana', 'base')),
  tx_id TEXT NOT NULL,
  nonce TEXT NOT NULL UNIQUE REFERENCES payment_nonces (nonce),
  payer TEXT NOT NULL,
  amount_atomic TEXT NOT NULL CHECK (amount_atomic GLOB '[0-9]*' AND amount_atomic NOT GLOB '*[^0-9]*'),
  claimed_at INTEGER NOT NULL,
  PRIMARY KEY (chain, tx_id)
) STRICT, WITHOUT ROWID;
`,
};
