/**
 * `linkguard licenses …` as child processes on a temp SQLite file: Premium licenses of the MCP
 * connector (spec §5, §8). Each test has its own database; independent processes run concurrently.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, it } from 'vitest';

import { PREMIUM_MONTHLY_CHECKS } from '../../src/access/license.js';
import { monthOf } from '../../src/clock.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/ports/store.js';
import { type CliResult, jsonOut, runCli } from '../helpers/run-cli.js';

const LICENSE_FORMAT = /^lic_[0-9A-Za-z]{43}$/;

interface LicenseView {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  license?: string;
}

interface UsageRow {
  id: string;
  name: string;
  month: string;
  checks: number;
  limit: number;
  remaining: number;
}

/** A migrated temp database and the environment that points the CLI at it; `done()` removes it. */
async function tempDb(): Promise<{
  path: string;
  env: Record<string, string>;
  run: (args: readonly string[]) => Promise<CliResult>;
  withStore: <T>(action: (store: Store) => Promise<T>) => Promise<T>;
  done: () => void;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'linkguard-licenses-'));
  const path = join(dir, 'lg.db');
  await (await openStore({ kind: 'sqlite', path })).close();
  const env = { DATABASE_URL: `sqlite:${path}`, RDAP_ENABLED: 'false', PAGE_ANALYSIS: 'off' };
  return {
    path,
    env,
    run: (args) => runCli(['licenses', ...args], env),
    withStore: async (action) => {
      const store = await openStore({ kind: 'sqlite', path });
      try {
        return await action(store);
      } finally {
        await store.close();
      }
    },
    done: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every file of the database (main file, WAL, shared memory) as one binary string. */
function databaseBytes(path: string): string {
  return ['', '-wal', '-shm']
    .map((suffix) => {
      try {
        return readFileSync(path + suffix).toString('latin1');
      } catch {
        return '';
      }
    })
    .join('');
}

const SUITE_TIMEOUT_MS = 120_000;

describe.concurrent('licenses', { timeout: SUITE_TIMEOUT_MS }, () => {
  it('create prints the license once; list, the store and the file never show it', async ({
    expect,
  }) => {
    const db = await tempDb();
    try {
      const [json, plain] = await Promise.all([
        db.run(['create', '--name', 'Jane Doe', '--json']),
        db.run(['create', '--name', 'John Roe']),
      ]);
      expect(json.stderr).toBe('');
      expect(json.code).toBe(0);
      const created = jsonOut(json) as LicenseView;
      const raw = created.license ?? '';
      expect(raw).toMatch(LICENSE_FORMAT);
      expect(created).toMatchObject({ name: 'Jane Doe', revoked_at: null });
      expect(created.id).toMatch(/^lk_[0-9A-Za-z]{12}$/);
      expect(created.prefix).toBe(raw.slice(0, 8));

      expect(plain.code).toBe(0);
      const plainRaw = /lic_[0-9A-Za-z]{43}/.exec(plain.stdout)?.[0] ?? '';
      expect(plainRaw).toMatch(LICENSE_FORMAT);
      expect(plain.stdout).toMatch(/only time the license is shown/);

      const hash = createHash('sha256').update(raw).digest();
      const lists = await Promise.all([db.run(['list', '--json']), db.run(['list'])]);
      for (const out of lists) {
        expect(out.code).toBe(0);
        for (const secret of [raw, raw.slice(4), plainRaw, hash.toString('hex')]) {
          expect(out.stdout).not.toContain(secret);
        }
      }
      const views = jsonOut(lists[0]) as LicenseView[];
      expect(views.map((v) => v.name).sort()).toEqual(['Jane Doe', 'John Roe']);
      for (const view of views) {
        expect(Object.keys(view).sort()).toEqual([
          'created_at',
          'id',
          'name',
          'prefix',
          'revoked_at',
        ]);
      }
      // The store holds the hash of the printed license, and the file holds nothing else of it.
      expect((await db.withStore((store) => store.licenses.findLicenseByHash(hash)))?.id).toBe(
        created.id,
      );
      const bytes = databaseBytes(db.path);
      expect(bytes).toContain(created.id);
      expect(bytes).not.toContain(raw.slice(8));
      expect(bytes).not.toContain(plainRaw.slice(8));
    } finally {
      db.done();
    }
  });

  it('revoke: revoked in the list, a second revoke says so, an unknown id exits 1', async ({
    expect,
  }) => {
    const db = await tempDb();
    try {
      const { id } = jsonOut(await db.run(['create', '--name', 'Jane', '--json'])) as LicenseView;
      const revoked = await db.run(['revoke', id]);
      expect(revoked.code).toBe(0);
      expect(revoked.stdout).toMatch(/^Revoked /);
      const [list, again, unknown] = await Promise.all([
        db.run(['list', '--json']),
        db.run(['revoke', id]),
        db.run(['revoke', 'lk_doesnotexist']),
      ]);
      const [view] = jsonOut(list) as LicenseView[];
      expect(view?.revoked_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/already revoked/i);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('lk_doesnotexist');
      expect(
        (await db.withStore((store) => store.licenses.findLicenseById(id)))?.revokedAt,
      ).toEqual(expect.any(Number));
    } finally {
      db.done();
    }
  });

  it('usage shows the checks spent per license and month, of 1,000', async ({ expect }) => {
    const db = await tempDb();
    try {
      const [a, b] = await Promise.all([
        db.run(['create', '--name', 'Alice', '--json']),
        db.run(['create', '--name', 'Bob', '--json']),
      ]);
      const alice = jsonOut(a) as LicenseView;
      const bob = jsonOut(b) as LicenseView;
      const month = monthOf(Date.now());
      await db.withStore(async (store) => {
        await store.licenses.reserveChecks(alice.id, month, 10, PREMIUM_MONTHLY_CHECKS);
        await store.licenses.reserveChecks(alice.id, month, 3, PREMIUM_MONTHLY_CHECKS);
        await store.licenses.releaseChecks(alice.id, month, 1);
        await store.licenses.reserveChecks(bob.id, '2026-02', 7, PREMIUM_MONTHLY_CHECKS);
      });
      const [current, february, onlyBob, table, unknown] = await Promise.all([
        db.run(['usage', '--json']),
        db.run(['usage', '--month', '2026-02', '--json']),
        db.run(['usage', '--month', '2026-02', '--license', bob.id, '--json']),
        db.run(['usage', '--license', alice.id]),
        db.run(['usage', '--license', 'lk_doesnotexist']),
      ]);
      const row = (id: string, m: string, checks: number) => ({
        id,
        name: id === alice.id ? 'Alice' : 'Bob',
        month: m,
        checks,
        limit: 1000,
        remaining: 1000 - checks,
      });
      const rows = (r: CliResult) => jsonOut(r) as UsageRow[];
      expect(rows(current).sort((x, y) => x.name.localeCompare(y.name))).toEqual([
        row(alice.id, month, 12),
        row(bob.id, month, 0),
      ]);
      expect(rows(february).find((r) => r.id === bob.id)).toEqual(row(bob.id, '2026-02', 7));
      expect(rows(february).find((r) => r.id === alice.id)?.checks).toBe(0);
      expect(rows(onlyBob)).toEqual([row(bob.id, '2026-02', 7)]);
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(
        new RegExp(`${alice.id}\\s+Alice\\s+${month}\\s+12\\s+1000\\s+988`),
      );
      expect(table.stdout).not.toContain(bob.id);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('lk_doesnotexist');
    } finally {
      db.done();
    }
  });

  it('refuses invalid flags with a message and exit 2, creating nothing', async ({ expect }) => {
    const db = await tempDb();
    try {
      const runs = await Promise.all([
        db.run(['create']),
        db.run(['create', '--name', '   ']),
        db.run(['create', '--name', 'x'.repeat(201)]),
        db.run(['create', '--name', 'Jane', '--bogus']),
        db.run(['usage', '--month', '2026-13']),
        db.run(['usage', '--month', '26-01']),
        db.run(['revoke']),
      ]);
      const messages = [/--name/, /--name/, /--name/, /--bogus/, /YYYY-MM/, /YYYY-MM/, /id/];
      for (const [i, run] of runs.entries()) {
        expect(run.code, `run ${String(i)}`).toBe(2);
        expect(run.stderr, `run ${String(i)}`).toMatch(messages[i] ?? /./);
        expect(run.stdout, `run ${String(i)}`).not.toMatch(/lic_/);
      }
      expect(await db.withStore((store) => store.licenses.listLicenses())).toEqual([]);
    } finally {
      db.done();
    }
  });
});
