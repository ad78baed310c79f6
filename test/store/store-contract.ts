/**
 * The behaviour every {@link Store} adapter must have (DESIGN §2: "the same contract test suite
 * runs against both stores"). An adapter's test file calls {@link describeStoreContract} with a
 * function that opens a fresh, empty store; each test gets its own store and closes it.
 */

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { generateApiKey } from '../../src/access/api-key.js';
import type { PaymentClaim } from '../../src/store/ports/payment-store.js';
import type { Store } from '../../src/store/ports/store.js';
import type { KeyUsage, StoredVerdict } from '../../src/store/ports/usage-store.js';
import { newKey } from '../helpers/enterprise-key.js';

const byKeyId = (a: KeyUsage, b: KeyUsage): number => a.keyId.localeCompare(b.keyId);

/**
 * Register the store contract tests under `describe(name)`.
 *
 * @param open returns a fresh, empty, migrated store; called once per test.
 */
export function describeStoreContract(name: string, open: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    let closed: boolean;

    beforeEach(async () => {
      store = await open();
      closed = false;
    });

    afterEach(async () => {
      if (!closed) await store.close();
    });

    describe('keys', () => {
      it('creates a key and finds it by hash and by id with every field intact', async () => {
        const key = newKey({
          name: 'Acme production',
          createdAt: 1_767_225_600_000,
          expiresAt: 1_798_761_600_000,
          rateLimitPerMinute: 600,
          monthlyAllowance: 100_000,
          hardCap: true,
        });
        await store.keys.createKey(key);

        const expected = { ...key, revokedAt: null };
        const byHash = await store.keys.findKeyByHash(Buffer.from(key.hash));
        expect(byHash).toEqual(expected);
        expect(byHash?.hash.equals(key.hash)).toBe(true);
        expect(await store.keys.findKeyById(key.id)).toEqual(expected);
      });

      it('keeps nullable fields null and hardCap false', async () => {
        const key = newKey();
        await store.keys.createKey(key);
        expect(await store.keys.findKeyById(key.id)).toEqual({ ...key, revokedAt: null });
      });

      it('returns null for an unknown hash or id', async () => {
        await store.keys.createKey(newKey());
        expect(await store.keys.findKeyByHash(generateApiKey().hash)).toBeNull();
        expect(await store.keys.findKeyById('key_000000000000')).toBeNull();
      });

      it('lists keys oldest first, whatever the insertion order', async () => {
        expect(await store.keys.listKeys()).toEqual([]);
        const newest = newKey({ name: 'newest', createdAt: 3_000 });
        const oldest = newKey({ name: 'oldest', createdAt: 1_000 });
        const middle = newKey({ name: 'middle', createdAt: 2_000 });
        for (const key of [newest, oldest, middle]) await store.keys.createKey(key);

        const listed = await store.keys.listKeys();
        expect(listed.map((k) => k.name)).toEqual(['oldest', 'middle', 'newest']);
        expect(listed[0]).toEqual({ ...oldest, revokedAt: null });
      });

      it('rejects a duplicate id and a duplicate hash, keeping the original', async () => {
        const key = newKey({ name: 'original' });
        await store.keys.createKey(key);

        const sameId = newKey({ id: key.id, name: 'same id' });
        await expect(store.keys.createKey(sameId)).rejects.toThrow();
        const sameHash = newKey({ hash: Buffer.from(key.hash), name: 'same hash' });
        await expect(store.keys.createKey(sameHash)).rejects.toThrow();

        expect(await store.keys.listKeys()).toEqual([{ ...key, revokedAt: null }]);
        expect(await store.keys.findKeyByHash(sameId.hash)).toBeNull();
        expect(await store.keys.findKeyById(sameHash.id)).toBeNull();
      });

      it('revokes once: revoked, then already_revoked with the first instant kept', async () => {
        const key = newKey();
        const other = newKey();
        await store.keys.createKey(key);
        await store.keys.createKey(other);

        expect(await store.keys.revokeKey(key.id, 5_000)).toBe('revoked');
        expect((await store.keys.findKeyById(key.id))?.revokedAt).toBe(5_000);
        expect((await store.keys.findKeyByHash(key.hash))?.revokedAt).toBe(5_000);

        expect(await store.keys.revokeKey(key.id, 9_000)).toBe('already_revoked');
        expect((await store.keys.findKeyById(key.id))?.revokedAt).toBe(5_000);
        expect((await store.keys.findKeyById(other.id))?.revokedAt).toBeNull();
      });

      it('answers not_found for an unknown id', async () => {
        await store.keys.createKey(newKey());
        expect(await store.keys.revokeKey('key_unknown00000', 5_000)).toBe('not_found');
      });

      it('revokes exactly once under concurrent revocations', async () => {
        const key = newKey();
        await store.keys.createKey(key);
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) => store.keys.revokeKey(key.id, 1_000 + i)),
        );
        expect(results.filter((r) => r === 'revoked')).toHaveLength(1);
        expect(results.filter((r) => r === 'already_revoked')).toHaveLength(49);
        const winner = results.indexOf('revoked');
        expect((await store.keys.findKeyById(key.id))?.revokedAt).toBe(1_000 + winner);
      });
    });

    describe('monthly reservations', () => {
      let keyId: string;

      beforeEach(async () => {
        const key = newKey();
        await store.keys.createKey(key);
        keyId = key.id;
      });

      it('counts up without a cap', async () => {
        const results = [];
        for (let i = 0; i < 5; i++)
          results.push(await store.usage.reserveMonthly(keyId, '2026-03', null));
        expect(results).toEqual([1, 2, 3, 4, 5].map((count) => ({ ok: true, count })));
      });

      it('refuses at the cap without incrementing', async () => {
        for (let i = 1; i <= 3; i++) {
          expect(await store.usage.reserveMonthly(keyId, '2026-03', 3)).toEqual({
            ok: true,
            count: i,
          });
        }
        expect(await store.usage.reserveMonthly(keyId, '2026-03', 3)).toEqual({
          ok: false,
          count: 3,
        });
        expect(await store.usage.reserveMonthly(keyId, '2026-03', 3)).toEqual({
          ok: false,
          count: 3,
        });
        // Without a cap the next reservation shows that refusals did not count.
        expect(await store.usage.reserveMonthly(keyId, '2026-03', null)).toEqual({
          ok: true,
          count: 4,
        });
      });

      it('refuses everything with a cap of 0', async () => {
        expect(await store.usage.reserveMonthly(keyId, '2026-03', 0)).toEqual({
          ok: false,
          count: 0,
        });
        expect(await store.usage.reserveMonthly(keyId, '2026-03', null)).toEqual({
          ok: true,
          count: 1,
        });
      });

      it('refuses when a lowered cap is already exceeded', async () => {
        for (let i = 0; i < 4; i++) await store.usage.reserveMonthly(keyId, '2026-03', null);
        expect(await store.usage.reserveMonthly(keyId, '2026-03', 2)).toEqual({
          ok: false,
          count: 4,
        });
      });

      it('never exceeds the cap under 200 concurrent reservations', async () => {
        const cap = 50;
        const results = await Promise.all(
          Array.from({ length: 200 }, () => store.usage.reserveMonthly(keyId, '2026-03', cap)),
        );
        const granted = results.filter((r) => r.ok);
        expect(granted).toHaveLength(cap);
        expect(granted.map((r) => r.count).sort((a, b) => a - b)).toEqual(
          Array.from({ length: cap }, (_, i) => i + 1),
        );
        expect(results.filter((r) => !r.ok).every((r) => r.count === cap)).toBe(true);
        expect(await store.usage.reserveMonthly(keyId, '2026-03', cap)).toEqual({
          ok: false,
          count: cap,
        });
      });

      it('counts all 200 concurrent reservations without a cap', async () => {
        const results = await Promise.all(
          Array.from({ length: 200 }, () => store.usage.reserveMonthly(keyId, '2026-03', null)),
        );
        expect(results.every((r) => r.ok)).toBe(true);
        expect(new Set(results.map((r) => r.count)).size).toBe(200);
        expect(await store.usage.reserveMonthly(keyId, '2026-03', null)).toEqual({
          ok: true,
          count: 201,
        });
      });

      it('gives one back on release', async () => {
        await store.usage.reserveMonthly(keyId, '2026-03', 2);
        await store.usage.reserveMonthly(keyId, '2026-03', 2);
        expect((await store.usage.reserveMonthly(keyId, '2026-03', 2)).ok).toBe(false);

        await store.usage.releaseMonthly(keyId, '2026-03');
        expect(await store.usage.reserveMonthly(keyId, '2026-03', 2)).toEqual({
          ok: true,
          count: 2,
        });
      });

      it('never releases below zero', async () => {
        await store.usage.releaseMonthly(keyId, '2026-03');
        await store.usage.reserveMonthly(keyId, '2026-04', null);
        await store.usage.releaseMonthly(keyId, '2026-04');
        await store.usage.releaseMonthly(keyId, '2026-04');
        expect(await store.usage.reserveMonthly(keyId, '2026-03', null)).toEqual({
          ok: true,
          count: 1,
        });
        expect(await store.usage.reserveMonthly(keyId, '2026-04', null)).toEqual({
          ok: true,
          count: 1,
        });
      });

      it('keeps months and keys independent', async () => {
        const other = newKey();
        await store.keys.createKey(other);
        await store.usage.reserveMonthly(keyId, '2026-03', 1);
        expect((await store.usage.reserveMonthly(keyId, '2026-03', 1)).ok).toBe(false);

        expect(await store.usage.reserveMonthly(keyId, '2026-04', 1)).toEqual({
          ok: true,
          count: 1,
        });
        expect(await store.usage.reserveMonthly(other.id, '2026-03', 1)).toEqual({
          ok: true,
          count: 1,
        });
        await store.usage.releaseMonthly(keyId, '2026-04');
        expect((await store.usage.reserveMonthly(keyId, '2026-03', 1)).ok).toBe(false);
      });
    });

    describe('usage log', () => {
      const record = (keyId: string, at: number, verdict: StoredVerdict): Promise<void> =>
        store.usage.recordUsage({
          keyId,
          at,
          urlHash: '0123456789abcdef',
          verdict,
          latencyMs: 2.5,
        });

      it('aggregates per key and per verdict, omitting keys without usage', async () => {
        const a = newKey({ id: 'key_aaaaaaaaaaaa', createdAt: 1_000 });
        const b = newKey({ id: 'key_bbbbbbbbbbbb', createdAt: 2_000 });
        const idle = newKey({ id: 'key_cccccccccccc', createdAt: 3_000 });
        for (const key of [a, b, idle]) await store.keys.createKey(key);

        const t = Date.UTC(2026, 2, 15, 12);
        await record(a.id, t, 'safe');
        await record(a.id, t + 1, 'safe');
        await record(a.id, t + 2, 'caution');
        await record(a.id, t + 3, 'danger');
        await record(b.id, t, 'danger');
        await record(b.id, t, 'danger');
        await record(b.id, Date.UTC(2026, 1, 10), 'safe'); // February: not in March

        const march = await store.usage.usageByMonth('2026-03', null);
        expect(march.sort(byKeyId)).toEqual([
          { keyId: a.id, month: '2026-03', requests: 4, safe: 2, caution: 1, danger: 1 },
          { keyId: b.id, month: '2026-03', requests: 2, safe: 0, caution: 0, danger: 2 },
        ]);
        expect(await store.usage.usageByMonth('2026-03', b.id)).toEqual([
          { keyId: b.id, month: '2026-03', requests: 2, safe: 0, caution: 0, danger: 2 },
        ]);
        expect(await store.usage.usageByMonth('2026-02', null)).toEqual([
          { keyId: b.id, month: '2026-02', requests: 1, safe: 1, caution: 0, danger: 0 },
        ]);
        expect(await store.usage.usageByMonth('2026-03', idle.id)).toEqual([]);
        expect(await store.usage.usageByMonth('2026-03', 'key_unknown00000')).toEqual([]);
        expect(await store.usage.usageByMonth('2026-04', null)).toEqual([]);
      });

      it('puts the last millisecond of a month in that month and midnight in the next', async () => {
        const key = newKey();
        await store.keys.createKey(key);
        await record(key.id, Date.UTC(2026, 0, 31, 23, 59, 59, 999), 'safe'); // 2026-01
        await record(key.id, Date.UTC(2026, 1, 1, 0, 0, 0, 0), 'caution'); // 2026-02
        await record(key.id, Date.UTC(2026, 1, 28, 23, 59, 59, 999), 'caution'); // 2026-02
        await record(key.id, Date.UTC(2026, 2, 1), 'danger'); // 2026-03

        const usage = async (month: string): Promise<number[]> =>
          (await store.usage.usageByMonth(month, key.id)).map((u) => [
            u.requests,
            u.safe,
            u.caution,
            u.danger,
          ])[0] ?? [];
        expect(await usage('2026-01')).toEqual([1, 1, 0, 0]);
        expect(await usage('2026-02')).toEqual([2, 0, 2, 0]);
        expect(await usage('2026-03')).toEqual([1, 0, 0, 1]);
      });

      it('rolls December over into January of the next year', async () => {
        const key = newKey();
        await store.keys.createKey(key);
        await record(key.id, Date.UTC(2025, 11, 1), 'safe'); // first instant of 2025-12
        await record(key.id, Date.UTC(2025, 11, 31, 23, 59, 59, 999), 'safe'); // last of 2025-12
        await record(key.id, Date.UTC(2026, 0, 1), 'danger'); // first of 2026-01
        await record(key.id, Date.UTC(2025, 10, 30, 23, 59, 59, 999), 'caution'); // 2025-11

        expect(await store.usage.usageByMonth('2025-12', null)).toEqual([
          { keyId: key.id, month: '2025-12', requests: 2, safe: 2, caution: 0, danger: 0 },
        ]);
        expect(await store.usage.usageByMonth('2026-01', null)).toEqual([
          { keyId: key.id, month: '2026-01', requests: 1, safe: 0, caution: 0, danger: 1 },
        ]);
      });
    });

    describe('server secrets', () => {
      it('keeps the first secret stored under a name; every later caller gets that one', async () => {
        const candidates = Array.from({ length: 8 }, (_, i) => String(i).repeat(64));
        const answers = await Promise.all(
          candidates.map((candidate) =>
            store.payments.serverSecret('payment-nonce-url', candidate, 1),
          ),
        );
        expect(new Set(answers).size).toBe(1);
        expect(candidates).toContain(answers[0]);
        expect(await store.payments.serverSecret('payment-nonce-url', 'f'.repeat(64), 2)).toBe(
          answers[0],
        );
        expect(await store.payments.serverSecret('another', 'e'.repeat(64), 2)).toBe(
          'e'.repeat(64),
        );
      });
    });

    describe('nonces', () => {
      const nonce = (id: string, expiresAt: number, urlHash = 'a'.repeat(64)) => ({
        nonce: id,
        urlHash,
        issuedAt: expiresAt - 600_000,
        expiresAt,
      });

      it('issues a nonce and finds it unconsumed', async () => {
        const issued = nonce('6f1c2d4e-8a9b-4c3d-9e8f-0a1b2c3d4e5f', 1_800_000_000_000);
        await store.payments.issueNonce(issued);
        expect(await store.payments.findNonce(issued.nonce)).toEqual({
          ...issued,
          consumedAt: null,
        });
        expect(await store.payments.findNonce('00000000-0000-4000-8000-000000000000')).toBeNull();
      });

      it('rejects a duplicate nonce and keeps the original binding', async () => {
        const issued = nonce('6f1c2d4e-8a9b-4c3d-9e8f-0a1b2c3d4e5f', 1_800_000_000_000);
        await store.payments.issueNonce(issued);
        const rebound = { ...issued, urlHash: 'b'.repeat(64), expiresAt: 1_900_000_000_000 };
        await expect(store.payments.issueNonce(rebound)).rejects.toThrow();
        expect(await store.payments.findNonce(issued.nonce)).toEqual({
          ...issued,
          consumedAt: null,
        });
      });

      it('purges only nonces that expired before the given instant', async () => {
        await store.payments.issueNonce(nonce('n-expired', 1_000_000));
        await store.payments.issueNonce(nonce('n-at-boundary', 2_000_000));
        await store.payments.issueNonce(nonce('n-live', 3_000_000));

        expect(await store.payments.purgeExpiredNonces(2_000_000)).toBe(1);
        expect(await store.payments.findNonce('n-expired')).toBeNull();
        expect(await store.payments.findNonce('n-at-boundary')).not.toBeNull();
        expect(await store.payments.findNonce('n-live')).not.toBeNull();

        expect(await store.payments.purgeExpiredNonces(2_000_001)).toBe(1);
        expect(await store.payments.purgeExpiredNonces(2_000_001)).toBe(0);
        expect(await store.payments.findNonce('n-live')).not.toBeNull();
      });
    });

    describe('payment claims', () => {
      const URL_HASH = 'a'.repeat(64);
      const NONCE_A = '6f1c2d4e-8a9b-4c3d-9e8f-0a1b2c3d4e5f';
      const NONCE_B = '7a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d';
      const ISSUED = 1_800_000_000_000;
      const EXPIRES = ISSUED + 600_000;
      const issue = (nonce: string) =>
        store.payments.issueNonce({
          nonce,
          urlHash: URL_HASH,
          issuedAt: ISSUED,
          expiresAt: EXPIRES,
        });
      const claim = (nonce: string, txId = 'tx-1', at = ISSUED + 1_000): PaymentClaim => ({
        chain: 'solana',
        txId,
        nonce,
        payer: 'Payer1111111111111111111111111111111111111',
        amountAtomic: 10_000n,
        claimedAt: at,
      });

      it('claims a live nonce with its transaction, once, and keeps the claim', async () => {
        await issue(NONCE_A);
        expect(await store.payments.claimPayment(claim(NONCE_A), URL_HASH)).toBe('claimed');
        expect(await store.payments.findNonce(NONCE_A)).toMatchObject({
          consumedAt: ISSUED + 1_000,
        });
        expect(await store.payments.findClaim('solana', 'tx-1')).toEqual(claim(NONCE_A));
        // The same transaction on the other chain is another id space.
        expect(await store.payments.findClaim('base', 'tx-1')).toBeNull();
      });

      it('refuses the same nonce twice (409) and leaves the first claim as it was', async () => {
        await issue(NONCE_A);
        await store.payments.claimPayment(claim(NONCE_A), URL_HASH);
        expect(await store.payments.claimPayment(claim(NONCE_A, 'tx-2'), URL_HASH)).toBe(
          'nonce_already_used',
        );
        expect(await store.payments.findClaim('solana', 'tx-2')).toBeNull();
      });

      it('refuses a claimed transaction with a new nonce and leaves that nonce unconsumed', async () => {
        await issue(NONCE_A);
        await issue(NONCE_B);
        await store.payments.claimPayment(claim(NONCE_A), URL_HASH);
        expect(await store.payments.claimPayment(claim(NONCE_B), URL_HASH)).toBe(
          'tx_already_claimed',
        );
        expect(await store.payments.findNonce(NONCE_B)).toMatchObject({ consumedAt: null });
        // The nonce is still good for another transaction.
        expect(await store.payments.claimPayment(claim(NONCE_B, 'tx-2'), URL_HASH)).toBe('claimed');
      });

      it('refuses an unknown nonce, another URL, and an expired nonce without writing', async () => {
        await issue(NONCE_A);
        expect(await store.payments.claimPayment(claim(NONCE_B), URL_HASH)).toBe('nonce_unknown');
        expect(await store.payments.claimPayment(claim(NONCE_A), 'b'.repeat(64))).toBe(
          'request_mismatch',
        );
        expect(await store.payments.claimPayment(claim(NONCE_A, 'tx-1', EXPIRES), URL_HASH)).toBe(
          'nonce_expired',
        );
        expect(await store.payments.findNonce(NONCE_A)).toMatchObject({ consumedAt: null });
        expect(await store.payments.findClaim('solana', 'tx-1')).toBeNull();
        // One millisecond before expiry still counts.
        expect(
          await store.payments.claimPayment(claim(NONCE_A, 'tx-1', EXPIRES - 1), URL_HASH),
        ).toBe('claimed');
      });

      it('keeps amounts beyond 64 bits exactly', async () => {
        await issue(NONCE_A);
        const big = { ...claim(NONCE_A), amountAtomic: 2n ** 70n + 7n };
        await store.payments.claimPayment(big, URL_HASH);
        expect((await store.payments.findClaim('solana', 'tx-1'))?.amountAtomic).toBe(
          2n ** 70n + 7n,
        );
      });

      it('lets exactly one of many concurrent claims of one transaction win', async () => {
        const nonces = Array.from(
          { length: 20 },
          (_, i) => `6f1c2d4e-8a9b-4c3d-9e8f-${i.toString(16).padStart(12, '0')}`,
        );
        for (const n of nonces) await issue(n);
        const outcomes = await Promise.all(
          nonces.map((n) => store.payments.claimPayment(claim(n), URL_HASH)),
        );
        expect(outcomes.filter((o) => o === 'claimed')).toHaveLength(1);
        expect(outcomes.filter((o) => o === 'tx_already_claimed')).toHaveLength(19);
      });

      it('does not purge consumed nonces', async () => {
        await issue(NONCE_A);
        await store.payments.claimPayment(claim(NONCE_A), URL_HASH);
        expect(await store.payments.purgeExpiredNonces(EXPIRES + 1)).toBe(0);
        expect(await store.payments.findNonce(NONCE_A)).not.toBeNull();
      });
    });

    describe('lifecycle', () => {
      it('pings while open and fails to ping once closed', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
        await store.close();
        closed = true;
        await expect(store.ping()).rejects.toThrow();
      });
    });
  });
}
