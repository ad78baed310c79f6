import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { generateLicense } from '../../src/access/license.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/ports/store.js';
import type { StoredVerdict } from '../../src/store/ports/usage-store.js';
import { migrate, type Migration, MIGRATIONS } from '../../src/store/sqlite/migrate.js';
import { openSqliteStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { newKey } from '../helpers/enterprise-key.js';
import { describeCorrectionStoreContract } from './correction-store-contract.js';
import { describeLicenseStoreContract, newLicense } from './license-store-contract.js';
import { describeStoreContract } from './store-contract.js';

/** A temp directory per test, removed afterwards, and the connections opened in it. */
function useTempDir(): { dir: () => string; track: <T extends { close(): unknown }>(c: T) => T } {
  let dir = '';
  let open: { close(): unknown }[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'linkguard-store-'));
  });
  afterEach(async () => {
    for (const c of open.reverse()) await c.close();
    open = [];
    await rm(dir, { recursive: true, force: true });
  });
  return {
    dir: () => dir,
    track: (c) => {
      open.push(c);
      return c;
    },
  };
}

describe('SQLite store on a temp file', () => {
  const temp = useTempDir();
  // A nested path also exercises creation of the parent directory.
  describeStoreContract('sqlite file', () =>
    Promise.resolve(openSqliteStore(join(temp.dir(), 'nested', 'linkguard.db'))),
  );
});

describeStoreContract('sqlite :memory:', () => Promise.resolve(openSqliteStore(':memory:')));

describe('SQLite license store on a temp file', () => {
  const temp = useTempDir();
  describeLicenseStoreContract('sqlite file', () =>
    Promise.resolve(openSqliteStore(join(temp.dir(), 'linkguard.db'))),
  );
});

describeLicenseStoreContract('sqlite :memory:', () => Promise.resolve(openSqliteStore(':memory:')));

describe('SQLite correction store, two connections to one temp file', () => {
  const temp = useTempDir();
  describeCorrectionStoreContract('sqlite file', () => {
    const path = join(temp.dir(), 'linkguard.db');
    const a = openSqliteStore(path);
    const b = openSqliteStore(path);
    return Promise.resolve({
      a,
      b,
      seenOnNextCall: true,
      close: async () => {
        await a.close();
        await b.close();
      },
    });
  });
});

describe('openSqliteStore', () => {
  const temp = useTempDir();
  const dbPath = (): string => join(temp.dir(), 'data', 'linkguard.db');
  const openTracked = (): Store => temp.track(openSqliteStore(dbPath()));
  const raw = (): Database.Database => temp.track(new Database(dbPath()));

  it('creates the parent directories of the file', () => {
    const path = join(temp.dir(), 'a', 'b', 'c', 'store.db');
    temp.track(openSqliteStore(path));
    expect(existsSync(path)).toBe(true);
  });

  it('keeps keys, counters, usage and nonces across close and reopen', async () => {
    const key = newKey({ monthlyAllowance: 10, hardCap: true });
    const first = openSqliteStore(dbPath());
    await first.keys.createKey(key);
    await first.keys.revokeKey(key.id, 7_000);
    await first.usage.reserveMonthly(key.id, '2026-05', 10);
    await first.usage.reserveMonthly(key.id, '2026-05', 10);
    await first.usage.recordUsage({
      keyId: key.id,
      at: Date.UTC(2026, 4, 2),
      urlHash: '0123456789abcdef',
      verdict: 'caution',
      latencyMs: 0.75,
    });
    const nonce = { nonce: 'n-1', urlHash: 'c'.repeat(64), issuedAt: 1, expiresAt: 600_001 };
    await first.payments.issueNonce(nonce);
    await first.close();

    const second = openTracked();
    expect(await second.keys.findKeyByHash(key.hash)).toEqual({ ...key, revokedAt: 7_000 });
    expect(await second.usage.reserveMonthly(key.id, '2026-05', 10)).toEqual({
      ok: true,
      count: 3,
    });
    expect(await second.usage.usageByMonth('2026-05', null)).toEqual([
      { keyId: key.id, month: '2026-05', requests: 1, safe: 0, caution: 1, danger: 0 },
    ]);
    expect(await second.payments.findNonce('n-1')).toEqual({ ...nonce, consumedAt: null });
  });

  it('records each migration once; reopening an up-to-date database applies nothing', async () => {
    await openSqliteStore(dbPath()).close();
    const db = raw();
    const read = (): unknown[] =>
      db.prepare('SELECT version, applied_at FROM schema_migrations ORDER BY version').all();
    const afterFirstOpen = read();
    expect(afterFirstOpen).toEqual(
      MIGRATIONS.map((m) => ({ version: m.version, applied_at: expect.any(Number) as number })),
    );

    await openSqliteStore(dbPath()).close();
    expect(read()).toEqual(afterFirstOpen);
    expect(migrate(db)).toEqual([]);
    expect(read()).toEqual(afterFirstOpen);
  });

  it('puts the file in WAL mode', () => {
    openTracked();
    expect(raw().pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it('enforces foreign keys: usage and counters need an existing key', async () => {
    const store = openTracked();
    // Usage rows are buffered: the violation surfaces when the batch is written, and readiness
    // (ping) fails until the rows can be written.
    await store.usage.recordUsage({
      keyId: 'key_unknown00000',
      at: 1,
      urlHash: '0123456789abcdef',
      verdict: 'safe',
      latencyMs: 1,
    });
    await expect(store.usage.flush()).rejects.toThrow(/FOREIGN KEY/);
    await expect(store.ping()).rejects.toThrow(/usage rows cannot be written/);
    await expect(store.usage.reserveMonthly('key_unknown00000', '2026-01', null)).rejects.toThrow(
      /FOREIGN KEY/,
    );
    // Closing still tries the rows, reports that they could not be written, and closes.
    await expect(store.close()).rejects.toThrow(/FOREIGN KEY/);
    await expect(store.ping()).rejects.toThrow();
  });

  it('rejects a verdict outside safe/caution/danger and a malformed month', async () => {
    const store = openTracked();
    const key = newKey();
    await store.keys.createKey(key);
    const bogus = 'unknown' as StoredVerdict;
    await store.usage.recordUsage({
      keyId: key.id,
      at: 1,
      urlHash: 'x',
      verdict: bogus,
      latencyMs: 1,
    });
    await expect(store.usage.flush()).rejects.toThrow(/CHECK/);
    await expect(store.usage.reserveMonthly(key.id, '2026-13', null)).rejects.toThrow(/CHECK/);
    await expect(store.usage.usageByMonth('2026-13', null)).rejects.toThrow(RangeError);
    await expect(store.usage.usageByMonth('2026-1', null)).rejects.toThrow(RangeError);
    await expect(store.close()).rejects.toThrow(/CHECK/);
  });

  it('sees a revocation made through another connection on the next look-up', async () => {
    const server = openTracked();
    const cli = temp.track(openSqliteStore(dbPath()));
    const key = newKey();
    await cli.keys.createKey(key);
    expect((await server.keys.findKeyByHash(key.hash))?.revokedAt).toBeNull();
    expect((await server.keys.findKeyByHash(key.hash))?.revokedAt).toBeNull(); // now cached
    expect(await cli.keys.revokeKey(key.id, 42)).toBe('revoked');
    expect((await server.keys.findKeyByHash(key.hash))?.revokedAt).toBe(42);
    // A key created elsewhere after a miss was cached is found too.
    const later = newKey();
    expect(await server.keys.findKeyByHash(later.hash)).toBeNull();
    await cli.keys.createKey(later);
    expect((await server.keys.findKeyByHash(later.hash))?.id).toBe(later.id);
  });

  it('sees a license revocation made through another connection on the next look-up', async () => {
    const server = openTracked();
    const cli = temp.track(openSqliteStore(dbPath()));
    const license = newLicense();
    await cli.licenses.createLicense(license);
    expect((await server.licenses.findLicenseByHash(license.hash))?.revokedAt).toBeNull();
    expect((await server.licenses.findLicenseByHash(license.hash))?.revokedAt).toBeNull(); // cached
    expect(await cli.licenses.revokeLicense(license.id, 42)).toBe('revoked');
    expect((await server.licenses.findLicenseByHash(license.hash))?.revokedAt).toBe(42);
    const later = newLicense();
    expect(await server.licenses.findLicenseByHash(later.hash)).toBeNull();
    await cli.licenses.createLicense(later);
    expect((await server.licenses.findLicenseByHash(later.hash))?.id).toBe(later.id);
  });

  it('shares one license cap between connections on the same file', async () => {
    const a = openTracked();
    const b = temp.track(openSqliteStore(dbPath()));
    const license = newLicense();
    await a.licenses.createLicense(license);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? a : b).licenses.reserveChecks(license.id, '2026-06', 3, 50),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(16); // 16 × 3 = 48; a 17th would be 51
    expect(await b.licenses.licenseUsage('2026-06', null)).toEqual([
      { licenseId: license.id, month: '2026-06', checks: 48 },
    ]);
    expect(await a.licenses.reserveChecks(license.id, '2026-06', 2, 50)).toEqual({
      ok: true,
      used: 50,
    });
  });

  it('stores licenses as hashes only and enforces their foreign key', async () => {
    const store = openTracked();
    const license = generateLicense();
    await store.licenses.createLicense(
      newLicense({ id: license.id, prefix: license.prefix, hash: license.hash }),
    );
    const rows = raw().prepare('SELECT * FROM licenses').all();
    expect(JSON.stringify(rows)).not.toContain(license.raw.slice(4));
    await expect(store.licenses.reserveChecks('lk_unknown0000', '2026-01', 1, 10)).rejects.toThrow(
      /FOREIGN KEY/,
    );
  });

  it('buffers usage rows, writes them in one batch, and lets reads see them at once', async () => {
    const store = openTracked();
    const key = newKey();
    await store.keys.createKey(key);
    const at = Date.UTC(2026, 10, 5);
    for (let i = 0; i < 3; i++) {
      await store.usage.recordUsage({
        keyId: key.id,
        at,
        urlHash: 'abcdef0123456789',
        verdict: 'safe',
        latencyMs: 1,
      });
    }
    const db = raw();
    const count = () =>
      (db.prepare('SELECT count(*) AS n FROM usage_events').get() as { n: number }).n;
    expect(count()).toBe(0); // still buffered
    expect((await store.usage.usageByMonth('2026-11', key.id))[0]?.requests).toBe(3); // reads flush
    expect(count()).toBe(3);
  });

  it('writes buffered rows on its own shortly after, and on close', async () => {
    const store = openSqliteStore(dbPath());
    const key = newKey();
    await store.keys.createKey(key);
    const row = {
      keyId: key.id,
      at: 1,
      urlHash: 'abcdef0123456789',
      verdict: 'caution' as const,
      latencyMs: 2,
    };
    await store.usage.recordUsage(row);
    const db = raw();
    const count = () =>
      (db.prepare('SELECT count(*) AS n FROM usage_events').get() as { n: number }).n;
    await vi.waitFor(
      () => {
        expect(count()).toBe(1);
      },
      { timeout: 2000, interval: 20 },
    );
    await store.usage.recordUsage(row);
    await store.close();
    expect(count()).toBe(2);
  });

  it('never purges a consumed nonce, even long expired', async () => {
    const store = openTracked();
    await store.payments.issueNonce({ nonce: 'paid', urlHash: 'd', issuedAt: 0, expiresAt: 1_000 });
    await store.payments.issueNonce({
      nonce: 'stale',
      urlHash: 'd',
      issuedAt: 0,
      expiresAt: 1_000,
    });
    // The ports have no consume operation yet (it arrives with payment claims): mark it in SQL.
    raw().prepare("UPDATE payment_nonces SET consumed_at = 500 WHERE nonce = 'paid'").run();

    expect(await store.payments.purgeExpiredNonces(1_000_000)).toBe(1);
    expect(await store.payments.findNonce('stale')).toBeNull();
    expect(await store.payments.findNonce('paid')).toEqual({
      nonce: 'paid',
      urlHash: 'd',
      issuedAt: 0,
      expiresAt: 1_000,
      consumedAt: 500,
    });
  });

  it('refuses a database migrated by a newer linkguard', async () => {
    await openSqliteStore(dbPath()).close();
    const db = raw();
    db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, 0)').run(
      MIGRATIONS.length + 1,
    );
    db.close();
    expect(() => openSqliteStore(dbPath())).toThrow(/newer than this linkguard/);
  });
});

describe('migrate', () => {
  let db: Database.Database;
  const tables = (): string[] =>
    db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table'")
      .all()
      .map((r) => r.name);
  const versions = (): number[] =>
    db
      .prepare<[], { version: number }>('SELECT version FROM schema_migrations ORDER BY version')
      .all()
      .map((r) => r.version);

  beforeEach(() => {
    db = new Database(':memory:');
  });

  afterEach(() => {
    db.close();
  });

  it('006 removes the plain URL digests of existing nonces (consumed: cleared, unconsumed: deleted)', () => {
    migrate(db, MIGRATIONS.slice(0, 5));
    const insert = db.prepare(
      'INSERT INTO payment_nonces (nonce, url_hash, issued_at, expires_at, consumed_at) VALUES (?, ?, 0, 600000, ?)',
    );
    insert.run('paid', 'a'.repeat(64), 1000);
    insert.run('pending', 'b'.repeat(64), null);
    db.prepare(
      "INSERT INTO payment_claims (chain, tx_id, nonce, payer, amount_atomic, claimed_at) VALUES ('base', '0x1', 'paid', 'p', '10000', 1000)",
    ).run();
    expect(migrate(db, MIGRATIONS.slice(0, 7))).toEqual([6, 7]);
    expect(db.prepare('SELECT nonce, url_hash AS urlHash FROM payment_nonces').all()).toEqual([
      { nonce: 'paid', urlHash: '' },
    ]);
    expect(tables()).toContain('server_secrets');
  });

  it('009 keeps existing reports unredacted and refuses a redacted row that keeps personal data', () => {
    migrate(db, MIGRATIONS.slice(0, 8));
    const insert = db.prepare(`INSERT INTO reports (id, created_at, url, kind, comment, contact,
      source, verdict, engine_version, data_version) VALUES (?, 0, 'https://example.com/',
      'false_positive', 'ours', 'owner@example.com', 'anonymous', '{}', 'v', 'd')`);
    insert.run('rpt_before');
    expect(migrate(db, MIGRATIONS.slice(0, 9))).toEqual([9]);
    expect(
      db
        .prepare("SELECT comment, redacted_at, redacted_by FROM reports WHERE id = 'rpt_before'")
        .get(),
    ).toEqual({ comment: 'ours', redacted_at: null, redacted_by: null });
    const redact = (sql: string) => () => db.prepare(`UPDATE reports SET ${sql}`).run();
    expect(redact("redacted_at = 1, redacted_by = 'carol'")).toThrow(/CHECK constraint/);
    expect(redact('comment = NULL, contact = NULL, redacted_at = 1')).toThrow(/CHECK constraint/);
    redact("comment = NULL, contact = NULL, redacted_at = 1, redacted_by = 'carol'")();
    expect(redact("contact = 'again@example.com'")).toThrow(/CHECK constraint/);
  });

  it('numbers the shipped migrations 1..n without gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it('applies every migration on an empty database, then nothing', () => {
    expect(migrate(db, MIGRATIONS, () => 42)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(tables()).toEqual(
      expect.arrayContaining(['api_keys', 'usage_events', 'usage_monthly', 'payment_nonces']),
    );
    expect(db.prepare('SELECT applied_at FROM schema_migrations').pluck().all()).toEqual(
      MIGRATIONS.map(() => 42),
    );
    expect(migrate(db)).toEqual([]);
  });

  it('rolls a failing migration back and does not record it', () => {
    const broken: Migration = {
      version: MIGRATIONS.length + 1,
      name: 'broken',
      sql: 'CREATE TABLE half_done (x INTEGER); INSERT INTO no_such_table VALUES (1);',
    };
    expect(() => migrate(db, [...MIGRATIONS, broken])).toThrow(/no_such_table/);
    expect(tables()).not.toContain('half_done');
    expect(versions()).toEqual(MIGRATIONS.map((m) => m.version));

    const fixed: Migration = {
      ...broken,
      name: 'fixed',
      sql: 'CREATE TABLE half_done (x INTEGER)',
    };
    expect(migrate(db, [...MIGRATIONS, fixed])).toEqual([fixed.version]);
    expect(tables()).toContain('half_done');
  });

  it('rejects a list that is not numbered 1..n', () => {
    const skipped: Migration = { version: 2, name: 'skipped', sql: 'SELECT 1' };
    expect(() => migrate(db, [skipped])).toThrow(/expected 1/);
    expect(tables()).not.toContain('schema_migrations');
  });
});

describe('openStore', () => {
  it('opens the SQLite store for a sqlite location', async () => {
    const store = await openStore({ kind: 'sqlite', path: ':memory:' });
    await expect(store.ping()).resolves.toBeUndefined();
    await store.close();
  });
});
