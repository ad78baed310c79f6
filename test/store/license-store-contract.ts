/**
 * The behaviour every {@link LicenseStore} adapter must have, in the pattern of
 * `store-contract.ts`: an adapter's test file calls {@link describeLicenseStoreContract} with a
 * function that opens a fresh, empty store; each test gets its own store and closes it.
 */

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { generateLicense, PREMIUM_MONTHLY_CHECKS } from '../../src/access/license.js';
import type { NewLicense } from '../../src/store/ports/license-store.js';
import type { Store } from '../../src/store/ports/store.js';

/** A new license record as `linkguard licenses create` would store it; `overrides` replace fields. */
export function newLicense(overrides: Partial<NewLicense> = {}): NewLicense {
  const generated = generateLicense();
  return {
    id: generated.id,
    name: 'test license',
    prefix: generated.prefix,
    hash: generated.hash,
    createdAt: Date.UTC(2026, 0, 1),
    ...overrides,
  };
}

/**
 * Register the license store contract tests under `describe(name)`.
 *
 * @param open returns a fresh, empty, migrated store; called once per test.
 */
export function describeLicenseStoreContract(name: string, open: () => Promise<Store>): void {
  describe(`License store contract: ${name}`, () => {
    let store: Store;

    beforeEach(async () => {
      store = await open();
    });

    afterEach(async () => {
      await store.close();
    });

    describe('licenses', () => {
      it('creates a license and finds it by hash and by id with every field intact', async () => {
        const license = newLicense({ name: 'Jane Doe', createdAt: 1_767_225_600_000 });
        await store.licenses.createLicense(license);
        const expected = { ...license, revokedAt: null };
        const byHash = await store.licenses.findLicenseByHash(Buffer.from(license.hash));
        expect(byHash).toEqual(expected);
        expect(byHash?.hash.equals(license.hash)).toBe(true);
        expect(await store.licenses.findLicenseById(license.id)).toEqual(expected);
      });

      it('returns null for an unknown hash or id, and keeps licenses apart from keys', async () => {
        const license = newLicense();
        await store.licenses.createLicense(license);
        expect(await store.licenses.findLicenseByHash(generateLicense().hash)).toBeNull();
        expect(await store.licenses.findLicenseById('lk_000000000000')).toBeNull();
        expect(await store.keys.findKeyByHash(license.hash)).toBeNull();
        expect(await store.keys.findKeyById(license.id)).toBeNull();
      });

      it('lists licenses oldest first, whatever the insertion order', async () => {
        expect(await store.licenses.listLicenses()).toEqual([]);
        const newest = newLicense({ name: 'newest', createdAt: 3_000 });
        const oldest = newLicense({ name: 'oldest', createdAt: 1_000 });
        const middle = newLicense({ name: 'middle', createdAt: 2_000 });
        for (const l of [newest, oldest, middle]) await store.licenses.createLicense(l);
        const listed = await store.licenses.listLicenses();
        expect(listed.map((l) => l.name)).toEqual(['oldest', 'middle', 'newest']);
        expect(listed[0]).toEqual({ ...oldest, revokedAt: null });
      });

      it('rejects a duplicate id and a duplicate hash, keeping the original', async () => {
        const license = newLicense({ name: 'original' });
        await store.licenses.createLicense(license);
        await expect(
          store.licenses.createLicense(newLicense({ id: license.id, name: 'same id' })),
        ).rejects.toThrow();
        await expect(
          store.licenses.createLicense(newLicense({ hash: Buffer.from(license.hash) })),
        ).rejects.toThrow();
        expect(await store.licenses.listLicenses()).toEqual([{ ...license, revokedAt: null }]);
      });

      it('revokes once: revoked, then already_revoked with the first instant kept', async () => {
        const license = newLicense();
        const other = newLicense();
        await store.licenses.createLicense(license);
        await store.licenses.createLicense(other);
        // Cached before the revocation: the cache must not hide it.
        expect((await store.licenses.findLicenseByHash(license.hash))?.revokedAt).toBeNull();

        expect(await store.licenses.revokeLicense(license.id, 5_000)).toBe('revoked');
        expect((await store.licenses.findLicenseByHash(license.hash))?.revokedAt).toBe(5_000);
        expect(await store.licenses.revokeLicense(license.id, 9_000)).toBe('already_revoked');
        expect((await store.licenses.findLicenseById(license.id))?.revokedAt).toBe(5_000);
        expect((await store.licenses.findLicenseById(other.id))?.revokedAt).toBeNull();
        expect(await store.licenses.revokeLicense('lk_unknown0000', 5_000)).toBe('not_found');
      });

      it('revokes exactly once under concurrent revocations', async () => {
        const license = newLicense();
        await store.licenses.createLicense(license);
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) => store.licenses.revokeLicense(license.id, 1_000 + i)),
        );
        expect(results.filter((r) => r === 'revoked')).toHaveLength(1);
        const winner = results.indexOf('revoked');
        expect((await store.licenses.findLicenseById(license.id))?.revokedAt).toBe(1_000 + winner);
      });
    });

    describe('monthly checks', () => {
      let licenseId: string;
      const reserve = (count: number, cap = PREMIUM_MONTHLY_CHECKS, month = '2026-03') =>
        store.licenses.reserveChecks(licenseId, month, count, cap);

      beforeEach(async () => {
        const license = newLicense();
        await store.licenses.createLicense(license);
        licenseId = license.id;
      });

      it('spends a batch at once and refuses one that would exceed the cap, whole', async () => {
        expect(await reserve(1, 10)).toEqual({ ok: true, used: 1 });
        expect(await reserve(7, 10)).toEqual({ ok: true, used: 8 });
        expect(await reserve(3, 10)).toEqual({ ok: false, used: 8 });
        expect(await reserve(2, 10)).toEqual({ ok: true, used: 10 });
        expect(await reserve(1, 10)).toEqual({ ok: false, used: 10 });
        expect(await store.licenses.licenseUsage('2026-03', licenseId)).toEqual([
          { licenseId, month: '2026-03', checks: 10 },
        ]);
      });

      it('refuses a first batch larger than the cap, and everything with a cap of 0', async () => {
        expect(await reserve(11, 10)).toEqual({ ok: false, used: 0 });
        expect(await reserve(1, 0)).toEqual({ ok: false, used: 0 });
        expect(await store.licenses.licenseUsage('2026-03', null)).toEqual([]);
        expect(await reserve(10, 10)).toEqual({ ok: true, used: 10 });
      });

      it('stops at exactly 1,000 checks a month for Premium', async () => {
        expect(await reserve(PREMIUM_MONTHLY_CHECKS - 1)).toEqual({ ok: true, used: 999 });
        expect(await reserve(2)).toEqual({ ok: false, used: 999 });
        expect(await reserve(1)).toEqual({ ok: true, used: PREMIUM_MONTHLY_CHECKS });
        expect((await reserve(1)).ok).toBe(false);
      });

      it('never exceeds the cap under 300 concurrent reservations of mixed sizes', async () => {
        const cap = 100;
        const sizes = Array.from({ length: 300 }, (_, i) => (i % 10) + 1);
        const results = await Promise.all(sizes.map((n) => reserve(n, cap)));
        const granted = sizes.filter((_, i) => results[i]?.ok === true);
        const spent = granted.reduce((sum, n) => sum + n, 0);
        expect(spent).toBeLessThanOrEqual(cap);
        // Refused reservations saw a count they could not fit into.
        results.forEach((r, i) => {
          if (!r.ok) expect(r.used + (sizes[i] ?? 0)).toBeGreaterThan(cap);
        });
        const usage = await store.licenses.licenseUsage('2026-03', licenseId);
        expect(usage).toEqual([{ licenseId, month: '2026-03', checks: spent }]);
        expect(Math.max(...results.map((r) => r.used))).toBe(spent);
      });

      it('gives checks back on release, never below zero', async () => {
        await reserve(10, 10);
        await store.licenses.releaseChecks(licenseId, '2026-03', 4);
        expect(await reserve(4, 10)).toEqual({ ok: true, used: 10 });
        await store.licenses.releaseChecks(licenseId, '2026-03', 50);
        expect(await store.licenses.licenseUsage('2026-03', licenseId)).toEqual([]);
        await store.licenses.releaseChecks(licenseId, '2026-05', 1); // nothing spent: no-op
        expect(await reserve(1, 10, '2026-05')).toEqual({ ok: true, used: 1 });
      });

      it('rejects counts and caps that are not integers in range, spending nothing', async () => {
        for (const [count, cap] of [
          [0, 10],
          [-1, 10],
          [1.5, 10],
          [1, -1],
          [1, Number.NaN],
        ] as const) {
          await expect(reserve(count, cap)).rejects.toThrow(RangeError);
        }
        await expect(store.licenses.releaseChecks(licenseId, '2026-03', 0)).rejects.toThrow(
          RangeError,
        );
        expect(await store.licenses.licenseUsage('2026-03', null)).toEqual([]);
      });

      it('keeps months and licenses independent, and reports usage per month', async () => {
        const other = newLicense({ createdAt: Date.UTC(2026, 1, 1) });
        await store.licenses.createLicense(other);
        await reserve(10, 10);
        expect((await reserve(1, 10)).ok).toBe(false);
        expect(await reserve(3, 10, '2026-04')).toEqual({ ok: true, used: 3 });
        expect(await store.licenses.reserveChecks(other.id, '2026-03', 2, 10)).toEqual({
          ok: true,
          used: 2,
        });
        expect(await store.licenses.licenseUsage('2026-03', null)).toEqual([
          { licenseId, month: '2026-03', checks: 10 },
          { licenseId: other.id, month: '2026-03', checks: 2 },
        ]);
        expect(await store.licenses.licenseUsage('2026-03', other.id)).toEqual([
          { licenseId: other.id, month: '2026-03', checks: 2 },
        ]);
        expect(await store.licenses.licenseUsage('2026-04', null)).toEqual([
          { licenseId, month: '2026-04', checks: 3 },
        ]);
        expect(await store.licenses.licenseUsage('2026-05', null)).toEqual([]);
        expect(await store.licenses.licenseUsage('2026-03', 'lk_unknown0000')).toEqual([]);
        await expect(store.licenses.licenseUsage('2026-13', null)).rejects.toThrow(RangeError);
      });

      it('refuses checks of an unknown license and a malformed month', async () => {
        await expect(
          store.licenses.reserveChecks('lk_unknown0000', '2026-03', 1, 10),
        ).rejects.toThrow();
        await expect(reserve(1, 10, '2026-13')).rejects.toThrow();
        expect(await store.licenses.licenseUsage('2026-03', null)).toEqual([]);
      });
    });
  });
}
