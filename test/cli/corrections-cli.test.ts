/**
 * Verdict corrections from the operator's side, end to end through the built CLI (`node
 * bin/linkguard.js`; `npm run build` first) on SQLite and on PostgreSQL (a fresh database): an
 * override changes what `linkguard check` serves from the next run and stops when removed; a
 * report filed through the ReportService is listed, shown, accepted with an override in one step
 * (which `check` then applies), refused a second resolution, and exported as CSV files that
 * `linkguard eval` reads; `reports redact` erases a reporter's comment and contact, open or
 * resolved, and keeps the rest (README "Verdict corrections").
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config/config.js';
import type { Verdict } from '../../src/engine/verdict.js';
import { defaultEngine } from '../../src/engine-data/load-engine-data.js';
import { buildDetection } from '../../src/server/build-detection.js';
import type { ReportSubmission } from '../../src/service/report-service.js';
import { openStore, type StoreLocation } from '../../src/store/open-store.js';
import { createTestDatabase, dropTestDatabase, postgresUrl } from '../helpers/postgres.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import type { CliResult } from '../helpers/run-cli.js';

/** Judged `danger` by the URL layer (a brand name with lure words on a domain it does not own). */
const FLAGGED = 'https://acme-coinbase-rewards.com/';
/** Another URL the URL layer judges `danger`: the false positive a user reports. */
const DISPUTED = 'https://ledger-live-support.net/help';
/** Judged `safe`: the missed threat a user reports. */
const MISSED = 'https://example.net/invoice';
/** Judged `danger`: a false positive the operator rejects (the verdict stands). */
const STANDS = 'https://my-metamask-nft.io/';

interface OverrideView {
  id: string;
  action: string;
  scope: string;
  target: string;
  reason: string;
  state: string;
  created_by: string;
  created_at: string;
  expires_at: string | null;
  removed_by: string | null;
  removed_at: string | null;
  report_id: string | null;
}

interface ReportView {
  id: string;
  created_at: string;
  url: string;
  kind: string;
  comment: string | null;
  contact: string | null;
  source: string;
  source_id: string | null;
  verdict: Verdict;
  engine_version: string;
  data_version: string;
  status: string;
  resolved_at: string | null;
  resolved_by: string | null;
  resolution_note: string | null;
  override_id: string | null;
  redacted_at: string | null;
  redacted_by: string | null;
  override?: OverrideView | null;
}

interface StoreUnderTest {
  location: StoreLocation;
  env: Record<string, string>;
  done: () => Promise<void>;
}

/** A migrated, empty store of each kind, and the environment that points the CLI at it. */
const STORES: { name: string; open: () => Promise<StoreUnderTest> }[] = [
  {
    name: 'SQLite',
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'linkguard-corrections-'));
      const location: StoreLocation = { kind: 'sqlite', path: join(dir, 'lg.db') };
      await (await openStore(location)).close();
      return {
        location,
        env: { DATABASE_URL: `sqlite:${location.path}` },
        done: () => {
          rmSync(dir, { recursive: true, force: true });
          return Promise.resolve();
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    open: async () => {
      const name = await createTestDatabase();
      const location: StoreLocation = { kind: 'postgres', url: postgresUrl(name) };
      await (await openStore(location)).close();
      return { location, env: { DATABASE_URL: location.url }, done: () => dropTestDatabase(name) };
    },
  },
];

/** `text` matched literally inside a RegExp. */
function escaped(text: string): string {
  return text.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** No network: RDAP and page analysis off, `check --offline`. */
const QUIET = { RDAP_ENABLED: 'false', PAGE_ANALYSIS: 'off', COLUMNS: '400' };

function ok(result: CliResult): CliResult {
  expect(result.stderr).toBe('');
  expect(result.code, result.stdout).toBe(0);
  return result;
}

function json(result: CliResult): unknown {
  return JSON.parse(ok(result).stdout);
}

/** `linkguard check --offline --json URL`: its verdict and exit code. */
async function check(
  run: (args: readonly string[]) => Promise<CliResult>,
  url: string,
): Promise<{ code: number; verdict: Verdict }> {
  const result = await run(['check', '--offline', '--json', url]);
  expect(result.stderr).toBe('');
  return { code: result.code, verdict: JSON.parse(result.stdout) as Verdict };
}

/** File reports through the ReportService, as `POST /v1/reports` does, in this process. */
async function fileReports(
  location: StoreLocation,
  env: Record<string, string>,
  submissions: readonly ReportSubmission[],
): Promise<string[]> {
  const store = await openStore(location);
  try {
    const detection = await buildDetection({
      config: loadConfig({ ...env, ...QUIET }),
      store,
      engine: defaultEngine(),
      clock: systemClock,
      intel: 'local',
      page: null,
      absentLayers: 'offline',
    });
    try {
      const ids: string[] = [];
      for (const submission of submissions) {
        const report = await detection.reports.file(submission, {
          source: 'anonymous',
          sourceId: null,
        });
        ids.push(report.id);
      }
      return ids;
    } finally {
      await detection.close();
    }
  } finally {
    await store.close();
  }
}

describe.each(STORES)('verdict corrections CLI on $name', { timeout: 240_000 }, ({ open }) => {
  it('an override changes check from the next run, is listed with who/when, and stops when removed', async () => {
    const db = await open();
    const run = (args: readonly string[]) => runBuiltCli(args, { ...db.env, ...QUIET });
    try {
      const before = await check(run, FLAGGED);
      expect(before.code).toBe(5);
      expect(before.verdict.verdict).toBe('danger');

      const allow = json(
        await run([
          'overrides',
          'add',
          'allow',
          'acme-coinbase-rewards.com',
          '--reason',
          'our customer, verified by phone',
          '--by',
          'alice',
          '--json',
        ]),
      ) as OverrideView;
      expect(allow).toMatchObject({
        action: 'allow',
        scope: 'domain',
        target: 'acme-coinbase-rewards.com',
        reason: 'our customer, verified by phone',
        state: 'active',
        created_by: 'alice',
        expires_at: null,
        removed_at: null,
        report_id: null,
      });
      expect(allow.id).toMatch(/^ovr_[0-9A-Za-z]{12}$/);

      const allowed = await check(run, FLAGGED);
      expect(allowed.code).toBe(0);
      expect(allowed.verdict.verdict).toBe('safe');
      expect(allowed.verdict.details.matched_patterns.slice(0, 2)).toEqual([
        `override:allow:${allow.id}`,
        'override_of:danger',
      ]);
      expect(allowed.verdict.reason).toContain(allow.id);
      expect(allowed.verdict.reason).toContain('our customer, verified by phone');

      // Plain output, default --by (the OS user) and a duration.
      const added = ok(
        await run([
          'overrides',
          'add',
          'deny',
          'www.example.org',
          '--reason',
          'hosts a phishing kit',
          '--expires',
          '30d',
        ]),
      );
      expect(added.stdout).toMatch(/^Created override ovr_\w{12}: deny host www\.example\.org\.$/m);
      expect(added.stdout).toMatch(/expires: \d{4}-\d{2}-\d{2}T/);
      const listed = json(await run(['overrides', 'list', '--json'])) as OverrideView[];
      expect(listed.map((o) => o.action)).toEqual(['allow', 'deny']);
      const deny = listed[1];
      expect(deny?.created_by).toBe(userInfo().username);
      const expiresIn = Date.parse(deny?.expires_at ?? '') - Date.parse(deny?.created_at ?? '');
      expect(expiresIn).toBe(30 * 86_400_000);

      const denied = await check(run, 'https://www.example.org/');
      expect(denied.code).toBe(5);
      expect(denied.verdict.verdict).toBe('danger');
      expect(denied.verdict.details.matched_patterns.slice(0, 2)).toEqual([
        `override:deny:${deny?.id ?? ''}`,
        'override_of:safe',
      ]);
      // A host override covers that host only.
      expect((await check(run, 'https://example.org/')).verdict.verdict).toBe('safe');

      const removed = ok(await run(['overrides', 'remove', allow.id, '--by', 'carol']));
      expect(removed.stdout).toContain(`Removed override ${allow.id}`);
      expect((await check(run, FLAGGED)).verdict.verdict).toBe('danger');

      const active = json(await run(['overrides', 'list', '--json'])) as OverrideView[];
      expect(active.map((o) => o.id)).toEqual([deny?.id]);
      const all = json(await run(['overrides', 'list', '--all', '--json'])) as OverrideView[];
      expect(all.find((o) => o.id === allow.id)).toMatchObject({
        state: 'removed',
        created_by: 'alice',
        removed_by: 'carol',
      });
      const table = ok(await run(['overrides', 'list', '--all'])).stdout;
      expect(table).toMatch(new RegExp(`${allow.id}.*removed \\d{4}-\\d{2}-\\d{2}T\\S+ by carol`));
      expect(ok(await run(['overrides', 'list'])).stdout).not.toContain(allow.id);

      const again = await run(['overrides', 'remove', allow.id, '--by', 'carol']);
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/already removed/);
    } finally {
      await db.done();
    }
  });

  it('an expired override is no longer listed as in force and no longer applies', async () => {
    const db = await open();
    const run = (args: readonly string[]) => runBuiltCli(args, { ...db.env, ...QUIET });
    try {
      // The CLI refuses a past expiry, so the expired override is written through the store.
      const store = await openStore(db.location);
      const now = Date.now();
      try {
        await store.overrides.addOverride({
          id: 'ovr_expired00000',
          action: 'allow',
          scope: 'domain',
          target: 'acme-coinbase-rewards.com',
          reason: 'trial period',
          createdBy: 'alice',
          createdAt: now - 2 * 86_400_000,
          expiresAt: now - 86_400_000,
          reportId: null,
        });
      } finally {
        await store.close();
      }
      expect(json(await run(['overrides', 'list', '--json']))).toEqual([]);
      expect(json(await run(['overrides', 'list', '--all', '--json']))).toMatchObject([
        { id: 'ovr_expired00000', state: 'expired', removed_at: null },
      ]);
      expect(ok(await run(['overrides', 'list', '--all'])).stdout).toMatch(
        /ovr_expired00000 .* expired$/m,
      );
      const judged = await check(run, FLAGGED);
      expect(judged.verdict.verdict).toBe('danger');
      expect(judged.verdict.details.matched_patterns.join(' ')).not.toContain('override');
    } finally {
      await db.done();
    }
  });

  it('a report is listed, shown, accepted with an override, refused twice and exported for eval', async () => {
    const db = await open();
    const run = (args: readonly string[]) => runBuiltCli(args, { ...db.env, ...QUIET });
    const dir = mkdtempSync(join(tmpdir(), 'linkguard-export-'));
    try {
      const [disputed, missed, stands] = await fileReports(db.location, db.env, [
        {
          url: DISPUTED,
          kind: 'false_positive',
          comment: 'This is our own help centre.',
          contact: 'owner@example.com',
        },
        { url: MISSED, kind: 'false_negative', comment: 'fake invoice' },
        { url: STANDS, kind: 'false_positive' },
      ]);
      if (disputed === undefined || missed === undefined || stands === undefined) {
        throw new Error('reports not filed');
      }

      const open = json(await run(['reports', 'list', '--json'])) as ReportView[];
      expect(open.map((r) => r.id).sort()).toEqual([disputed, missed, stands].sort());
      const table = ok(await run(['reports', 'list'])).stdout;
      for (const [id, url] of [
        [disputed, DISPUTED],
        [missed, MISSED],
      ] as const) {
        expect(table).toMatch(
          new RegExp(
            `${id}\\s+\\d{4}-\\d{2}-\\d{2}T\\S+\\s+\\w+\\s+\\w+\\s+open\\s+${escaped(url)}`,
          ),
        );
      }
      const negatives = json(
        await run(['reports', 'list', '--kind', 'false_negative', '--json']),
      ) as ReportView[];
      expect(negatives.map((r) => r.id)).toEqual([missed]);
      expect(
        json(await run(['reports', 'list', '--limit', '2', '--json'])) as ReportView[],
      ).toHaveLength(2);

      const shown = json(await run(['reports', 'show', disputed, '--json'])) as ReportView;
      expect(shown).toMatchObject({
        id: disputed,
        url: DISPUTED,
        kind: 'false_positive',
        comment: 'This is our own help centre.',
        contact: 'owner@example.com',
        source: 'anonymous',
        source_id: null,
        status: 'open',
        resolved_at: null,
        override_id: null,
        override: null,
      });
      expect(shown.verdict.verdict).toBe('danger');
      expect(shown.verdict.details.matched_patterns.length).toBeGreaterThan(0);
      expect(shown.engine_version).toMatch(/^\d+\.\d+\.\d+/);
      expect(shown.data_version).not.toBe('');
      const plain = ok(await run(['reports', 'show', disputed])).stdout;
      expect(plain).toContain(`url:                ${DISPUTED}\n`);
      expect(plain).toMatch(/^verdict at filing: {2}danger \(trust \d+, confidence [\d.]+\)$/m);
      expect(plain).toContain(
        `matched patterns:   ${shown.verdict.details.matched_patterns.join(', ')}\n`,
      );
      expect(plain).toContain('contact:            owner@example.com\n');

      const resolved = ok(
        await run([
          'reports',
          'resolve',
          disputed,
          '--accept',
          '--override',
          'allow',
          '--reason',
          'the owner showed us the site is theirs',
          '--note',
          'checked the WHOIS',
          '--by',
          'alice',
        ]),
      );
      expect(resolved.stdout).toMatch(
        new RegExp(`^Accepted report ${disputed} \\(false_positive\\) as alice`, 'm'),
      );
      const overrideId =
        /Created override (ovr_\w{12}): allow domain ledger-live-support\.net\./.exec(
          resolved.stdout,
        )?.[1];
      expect(overrideId, resolved.stdout).toBeDefined();

      const after = json(await run(['reports', 'show', disputed, '--json'])) as ReportView;
      expect(after).toMatchObject({
        status: 'accepted',
        resolved_by: 'alice',
        resolution_note: 'checked the WHOIS',
        override_id: overrideId,
        override: {
          id: overrideId,
          action: 'allow',
          // The default target, the URL's host, is a registrable domain: it covers its subdomains.
          scope: 'domain',
          target: 'ledger-live-support.net',
          state: 'active',
          created_by: 'alice',
          report_id: disputed,
        },
      });
      const fixed = await check(run, DISPUTED);
      expect(fixed.code).toBe(0);
      expect(fixed.verdict.details.matched_patterns.slice(0, 2)).toEqual([
        `override:allow:${overrideId ?? ''}`,
        'override_of:danger',
      ]);

      const twice = await run(['reports', 'resolve', disputed, '--reject', '--by', 'bob']);
      expect(twice.code).toBe(2);
      expect(twice.stdout).toBe('');
      expect(twice.stderr.trim()).toBe(`Report ${disputed} is already resolved`);
      const unchanged = json(await run(['reports', 'show', disputed, '--json'])) as ReportView;
      expect(unchanged).toMatchObject({ status: 'accepted', resolved_by: 'alice' });
      expect(json(await run(['overrides', 'list', '--json'])) as OverrideView[]).toHaveLength(1);

      const missedResolved = json(
        await run(['reports', 'resolve', missed, '--accept', '--by', 'alice', '--json']),
      ) as ReportView;
      expect(missedResolved).toMatchObject({
        id: missed,
        status: 'accepted',
        resolved_by: 'alice',
        resolution_note: null,
        override_id: null,
        override: null,
      });
      // Resolved: a second resolution is refused before its override is looked at.
      const again = await run([
        'reports',
        'resolve',
        missed,
        '--reject',
        '--override',
        'allow',
        '--reason',
        'x',
      ]);
      expect(again.code).toBe(2);
      expect(again.stderr.trim()).toBe(`Report ${missed} is already resolved`);
      ok(
        await run(['reports', 'resolve', stands, '--reject', '--by', 'bob', '--note', 'a drainer']),
      );
      expect(ok(await run(['reports', 'list'])).stdout).toContain('(none)');
      const done = json(
        await run(['reports', 'list', '--status', 'resolved', '--json']),
      ) as ReportView[];
      expect(done.map((r) => r.status).sort()).toEqual(['accepted', 'accepted', 'rejected']);
      expect(
        (
          json(await run(['reports', 'list', '--status', 'rejected', '--json'])) as ReportView[]
        ).map((r) => r.id),
      ).toEqual([stands]);

      const malicious = join(dir, 'm.csv');
      const benign = join(dir, 'b.csv');
      const exported = ok(
        await run(['reports', 'export', '--malicious', malicious, '--benign', benign]),
      );
      expect(exported.stdout.trim()).toBe(
        `Wrote 2 malicious URLs to ${malicious} and 1 benign URL to ${benign}, from 3 resolved reports.`,
      );
      const maliciousCsv = readFileSync(malicious, 'utf8').trim().split('\n');
      expect(maliciousCsv[0]).toBe('url,first_seen,report_id,kind,status');
      expect(
        maliciousCsv
          .slice(1)
          .map((line) => line.split(',')[0])
          .sort(),
      ).toEqual([MISSED, STANDS].sort());
      expect(readFileSync(benign, 'utf8')).toMatch(
        new RegExp(
          `^url,first_seen,report_id,kind,status\\n${escaped(DISPUTED)},\\S+,${disputed},false_positive,accepted\\n$`,
        ),
      );

      const evaluated = json(
        await run(['eval', '--malicious', malicious, '--benign', benign, '--json']),
      ) as {
        malicious: { rows: number; invalid: number };
        benign: { rows: number; invalid: number };
      };
      expect(evaluated.malicious).toMatchObject({ rows: 2, invalid: 0 });
      expect(evaluated.benign).toMatchObject({ rows: 1, invalid: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await db.done();
    }
  });

  it('redact erases comment and contact of a resolved and an open report, keeps the rest, once', async () => {
    const db = await open();
    const run = (args: readonly string[]) => runBuiltCli(args, { ...db.env, ...QUIET });
    try {
      const [resolvedId, openId] = await fileReports(db.location, db.env, [
        {
          url: STANDS,
          kind: 'false_positive',
          comment: 'Please call me back.',
          contact: 'someone@example.org',
        },
        { url: MISSED, kind: 'false_negative', comment: 'fake invoice', contact: 'x@example.org' },
      ]);
      if (resolvedId === undefined || openId === undefined) throw new Error('reports not filed');
      ok(await run(['reports', 'resolve', resolvedId, '--reject', '--note', 'n', '--by', 'alice']));
      const before = json(await run(['reports', 'show', resolvedId, '--json'])) as ReportView;
      expect(before).toMatchObject({ redacted_at: null, redacted_by: null });

      const redacted = ok(await run(['reports', 'redact', resolvedId, '--by', 'carol']));
      expect(redacted.stdout).toMatch(
        new RegExp(
          `^Redacted report ${resolvedId}: comment and contact erased by carol, \\d{4}-\\d{2}-\\d{2}T`,
        ),
      );
      const after = json(await run(['reports', 'show', resolvedId, '--json'])) as ReportView;
      expect(after).toEqual({
        ...before,
        comment: null,
        contact: null,
        redacted_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) as string,
        redacted_by: 'carol',
      });
      const plain = ok(await run(['reports', 'show', resolvedId])).stdout;
      expect(plain).toMatch(/^comment, contact: {3}redacted by carol at \d{4}-\d{2}-\d{2}T\S+Z$/m);
      expect(plain).not.toContain('someone@example.org');
      expect(plain).not.toContain('call me back');
      expect(plain).toContain(`url:                ${STANDS}\n`);
      expect(plain).toMatch(/^status: {13}rejected$/m);

      const again = await run(['reports', 'redact', resolvedId, '--by', 'dave']);
      expect(again.code, again.stderr).toBe(2);
      expect(again.stdout).toBe('');
      expect(again.stderr.trim()).toBe(`Report ${resolvedId} was already redacted`);
      expect(json(await run(['reports', 'show', resolvedId, '--json']))).toEqual(after);

      // Without --by: the OS user; the open report stays open and can still be resolved.
      const redactedOpen = JSON.parse(
        ok(await run(['reports', 'redact', openId, '--json'])).stdout,
      ) as ReportView;
      expect(redactedOpen).toMatchObject({
        id: openId,
        url: MISSED,
        kind: 'false_negative',
        status: 'open',
        comment: null,
        contact: null,
        redacted_by: userInfo().username,
      });
      ok(await run(['reports', 'resolve', openId, '--accept', '--by', 'alice']));
      expect(json(await run(['reports', 'show', openId, '--json']))).toMatchObject({
        status: 'accepted',
        comment: null,
        redacted_by: userInfo().username,
      });
    } finally {
      await db.done();
    }
  });
});
