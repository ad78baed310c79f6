/**
 * The behaviour every adapter of the correction ports ({@link ReportStore}, {@link OverrideStore})
 * must have, in the pattern of `store-contract.ts` and `oauth-store-contract.ts`: an adapter's
 * test file calls {@link describeCorrectionStoreContract} with a function that opens two stores
 * on one fresh, empty database, standing for two instances (SQLite: two connections to one file;
 * PostgreSQL: two pools). Each test gets its own pair and closes it.
 */

import { randomBytes } from 'node:crypto';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { randomIdBody } from '../../src/access/api-key.js';
import { emptySignals, type Verdict } from '../../src/engine/verdict.js';
import type {
  NewOverride,
  NewReport,
  OverrideSnapshot,
  ReportRecord,
  ReportResolution,
} from '../../src/store/ports/correction-store.js';
import type { Store } from '../../src/store/ports/store.js';
import { newKey } from '../helpers/enterprise-key.js';

/** Two stores on one database, and how a change made through one reaches the other's cache. */
export interface CorrectionStorePair {
  a: Store;
  b: Store;
  /**
   * True when a change committed through `b` must be seen by `a` on its very next call (SQLite:
   * `PRAGMA data_version`); false when it is seen once the notification arrives (PostgreSQL),
   * which the tests wait for by polling, at most {@link NOTIFY_WAIT_MS}.
   */
  seenOnNextCall: boolean;
  close(): Promise<void>;
}

/** Bound on the wait for another instance's change to reach a PostgreSQL store's cache. */
const NOTIFY_WAIT_MS = 2000;

const T0 = Date.UTC(2026, 10, 1);

/** A verdict as the engine serves it, with every kind of value a snapshot must keep. */
function sampleVerdict(): Verdict {
  return {
    verdict: 'danger',
    trust_score: 7,
    brand: 'MetaMask',
    confidence: 0.875,
    reason: 'Impersonates MetaMask — “restore your wallet” form; ünïcode kept',
    threat_types: ['wallet_drainer', 'brand_impersonation'],
    signals: { ...emptySignals(), brand_impersonation: true, wallet_drainer: true },
    details: {
      matched_brand: 'MetaMask',
      official_domain: 'metamask.io',
      domain_matches_brand: false,
      target_country: null,
      page_language: 'en',
      tld: 'com',
      domain_age_days: null,
      matched_patterns: ['combosquat:metamask+restore,wallet', 'feed:openphish'],
    },
  };
}

function reportId(): string {
  return `rpt_${(randomIdBody(randomBytes) + randomIdBody(randomBytes)).slice(0, 16)}`;
}

/** A new report as `POST /v1/reports` would file it; `fields` replace defaults. */
export function newReport(fields: Partial<NewReport> = {}): NewReport {
  return {
    id: reportId(),
    createdAt: T0,
    url: 'https://metamask-restore.example.com/wallet?step=1',
    kind: 'false_positive',
    comment: 'This is our own site; the “restore” page is our help centre.',
    contact: 'owner@example.com',
    source: 'key',
    sourceId: 'key_abcdefghijkl',
    verdict: sampleVerdict(),
    engineVersion: '1.16.0',
    dataVersion: 'sha256:0123456789abcdef',
    ...fields,
  };
}

/** A new override as `linkguard overrides add` would store it; `fields` replace defaults. */
export function newOverride(fields: Partial<NewOverride> = {}): NewOverride {
  return {
    id: `ovr_${randomIdBody(randomBytes)}`,
    action: 'allow',
    scope: 'domain',
    target: 'example.com',
    reason: 'our customer’s own domain (ticket 42)',
    createdBy: 'alice',
    createdAt: T0 + 1_000,
    expiresAt: null,
    reportId: null,
    ...fields,
  };
}

/** What a report looks like while still open. */
function asOpen(report: NewReport): ReportRecord {
  return {
    ...report,
    status: 'open',
    resolvedAt: null,
    resolvedBy: null,
    resolutionNote: null,
    overrideId: null,
    redactedAt: null,
    redactedBy: null,
  };
}

function resolution(fields: Partial<ReportResolution> = {}): ReportResolution {
  return {
    status: 'accepted',
    at: T0 + 60_000,
    by: 'alice',
    note: 'confirmed with the customer',
    override: null,
    ...fields,
  };
}

/** Poll `check` until it is true, at most `limitMs`. */
async function eventually(check: () => Promise<boolean>, limitMs: number): Promise<void> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > limitMs) throw new Error(`not true within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Register the correction store contract tests under `describe(name)`.
 *
 * @param openPair returns two stores on one fresh, empty, migrated database; once per test.
 */
export function describeCorrectionStoreContract(
  name: string,
  openPair: () => Promise<CorrectionStorePair>,
): void {
  describe(`Correction store contract: ${name}`, () => {
    let pair: CorrectionStorePair;
    let a: Store;
    let b: Store;

    beforeEach(async () => {
      pair = await openPair();
      ({ a, b } = pair);
    });

    afterEach(async () => {
      await pair.close();
    });

    /** Wait until `a` sees what `b` committed: on the next call, or once notified. */
    async function seenByA(check: (snapshot: OverrideSnapshot) => boolean): Promise<void> {
      if (pair.seenOnNextCall) {
        expect(check(await a.overrides.activeOverrides())).toBe(true);
      } else {
        await eventually(async () => check(await a.overrides.activeOverrides()), NOTIFY_WAIT_MS);
      }
    }

    describe('reports', () => {
      it('round-trips every field, the verdict whole, seen from the other store', async () => {
        const report = newReport();
        await a.reports.createReport(report);
        const found = await b.reports.findReport(report.id);
        expect(found).toEqual(asOpen(report));
        expect(found?.verdict.signals.fresh_domain).toBeNull();
        expect(found?.verdict.details.matched_patterns).toEqual(
          report.verdict.details.matched_patterns,
        );
      });

      it('round-trips a null comment, contact and source id', async () => {
        const report = newReport({
          kind: 'false_negative',
          comment: null,
          contact: null,
          source: 'anonymous',
          sourceId: null,
        });
        await b.reports.createReport(report);
        expect(await a.reports.findReport(report.id)).toEqual(asOpen(report));
      });

      it('returns null for an unknown id and rejects a duplicate id, keeping the original', async () => {
        expect(await a.reports.findReport('rpt_0000000000000000')).toBeNull();
        const report = newReport({ comment: 'original' });
        await a.reports.createReport(report);
        await expect(
          b.reports.createReport(newReport({ id: report.id, comment: 'copy' })),
        ).rejects.toThrow();
        expect((await a.reports.findReport(report.id))?.comment).toBe('original');
      });

      it('lists newest first and filters by status (resolved included), kind and limit', async () => {
        expect(await a.reports.listReports()).toEqual([]);
        // Inserted out of order; two share a millisecond (insertion order breaks the tie).
        const r1 = newReport({ createdAt: T0 + 1, kind: 'false_positive' });
        const r2 = newReport({ createdAt: T0 + 2, kind: 'false_negative' });
        const r3 = newReport({ createdAt: T0 + 3, kind: 'false_positive' });
        const r4 = newReport({ createdAt: T0 + 3, kind: 'false_negative' });
        const r5 = newReport({ createdAt: T0 + 5, kind: 'false_positive' });
        for (const r of [r3, r1, r5, r2, r4]) await a.reports.createReport(r);
        expect(await a.reports.resolveReport(r2.id, resolution({ status: 'accepted' }))).toBe(
          'resolved',
        );
        expect(await b.reports.resolveReport(r3.id, resolution({ status: 'rejected' }))).toBe(
          'resolved',
        );
        const ids = async (filter?: Parameters<Store['reports']['listReports']>[0]) =>
          (await b.reports.listReports(filter)).map((r) => r.id);

        expect(await ids()).toEqual([r5.id, r4.id, r3.id, r2.id, r1.id]);
        expect(await ids({})).toEqual([r5.id, r4.id, r3.id, r2.id, r1.id]);
        expect(await ids({ status: 'open' })).toEqual([r5.id, r4.id, r1.id]);
        expect(await ids({ status: 'accepted' })).toEqual([r2.id]);
        expect(await ids({ status: 'rejected' })).toEqual([r3.id]);
        expect(await ids({ status: 'resolved' })).toEqual([r3.id, r2.id]);
        expect(await ids({ kind: 'false_negative' })).toEqual([r4.id, r2.id]);
        expect(await ids({ kind: 'false_positive', status: 'open' })).toEqual([r5.id, r1.id]);
        expect(await ids({ kind: 'false_positive', status: 'resolved' })).toEqual([r3.id]);
        expect(await ids({ limit: 2 })).toEqual([r5.id, r4.id]);
        expect(await ids({ status: 'open', limit: 1 })).toEqual([r5.id]);
        expect(await ids({ limit: 100 })).toHaveLength(5);

        const listed = await a.reports.listReports({ status: 'accepted' });
        expect(listed[0]).toEqual({
          ...asOpen(r2),
          status: 'accepted',
          resolvedAt: T0 + 60_000,
          resolvedBy: 'alice',
          resolutionNote: 'confirmed with the customer',
        });
      });

      it('refuses a filter it cannot honour instead of answering an empty list', async () => {
        await a.reports.createReport(newReport());
        await expect(a.reports.listReports({ limit: 0 })).rejects.toThrow(RangeError);
        await expect(a.reports.listReports({ limit: 1.5 })).rejects.toThrow(RangeError);
        await expect(
          a.reports.listReports({ status: 'closed' as unknown as 'open' }),
        ).rejects.toThrow(/unknown report status "closed"/);
        await expect(
          a.reports.listReports({ kind: 'spam' as unknown as 'false_positive' }),
        ).rejects.toThrow(/unknown report kind "spam"/);
      });
    });

    describe('resolving reports', () => {
      it('resolves without an override: the report records who, when and why', async () => {
        const report = newReport();
        await a.reports.createReport(report);
        const result = await a.reports.resolveReport(
          report.id,
          resolution({ status: 'rejected', note: null, by: 'bob' }),
        );
        expect(result).toBe('resolved');
        expect(await b.reports.findReport(report.id)).toEqual({
          ...asOpen(report),
          status: 'rejected',
          resolvedAt: T0 + 60_000,
          resolvedBy: 'bob',
          resolutionNote: null,
          overrideId: null,
        });
        expect(await a.overrides.listOverrides()).toEqual([]);
        expect((await a.overrides.activeOverrides()).overrides).toEqual([]);
      });

      it('resolves with an override in one step: the override names the report', async () => {
        const report = newReport();
        await a.reports.createReport(report);
        const before = await a.overrides.activeOverrides();
        const override = newOverride({ target: 'metamask-restore.example.com', scope: 'host' });
        expect(await a.reports.resolveReport(report.id, resolution({ override }))).toBe('resolved');
        const stored = { ...override, reportId: report.id, removedAt: null, removedBy: null };
        expect((await b.reports.findReport(report.id))?.overrideId).toBe(override.id);
        expect(await b.overrides.findOverride(override.id)).toEqual(stored);
        const after = await a.overrides.activeOverrides();
        expect(after).not.toBe(before);
        expect(after.overrides).toEqual([stored]);
      });

      it('a second resolution changes nothing and adds no override', async () => {
        const report = newReport();
        await a.reports.createReport(report);
        const first = newOverride();
        expect(await a.reports.resolveReport(report.id, resolution({ override: first }))).toBe(
          'resolved',
        );
        const resolved = await a.reports.findReport(report.id);
        const second = newOverride({ action: 'deny' });
        expect(
          await b.reports.resolveReport(
            report.id,
            resolution({ status: 'rejected', at: T0 + 99_000, by: 'bob', override: second }),
          ),
        ).toBe('already_resolved');
        expect(await a.reports.findReport(report.id)).toEqual(resolved);
        expect((await a.overrides.listOverrides()).map((o) => o.id)).toEqual([first.id]);
        expect(await a.overrides.findOverride(second.id)).toBeNull();
      });

      it('of five concurrent resolutions through both stores exactly one wins', async () => {
        const report = newReport();
        await a.reports.createReport(report);
        const overrides = Array.from({ length: 5 }, (_, i) =>
          newOverride({ target: `site${String(i)}.example`, createdBy: `op${String(i)}` }),
        );
        const results = await Promise.all(
          overrides.map((override, i) =>
            (i % 2 === 0 ? a : b).reports.resolveReport(
              report.id,
              resolution({ by: `op${String(i)}`, override }),
            ),
          ),
        );
        expect(results.filter((r) => r === 'resolved')).toHaveLength(1);
        expect(results.filter((r) => r === 'already_resolved')).toHaveLength(4);
        const winner = results.indexOf('resolved');
        const stored = await a.reports.findReport(report.id);
        expect(stored?.resolvedBy).toBe(`op${String(winner)}`);
        expect(stored?.overrideId).toBe(overrides[winner]?.id);
        const listed = await b.overrides.listOverrides();
        expect(listed.map((o) => o.id)).toEqual([overrides[winner]?.id]);
        expect(listed[0]?.reportId).toBe(report.id);
      });

      it('answers not_found for an unknown report and adds no override', async () => {
        expect(
          await a.reports.resolveReport(
            'rpt_0000000000000000',
            resolution({ override: newOverride() }),
          ),
        ).toBe('not_found');
        expect(await a.overrides.listOverrides()).toEqual([]);
      });

      it('leaves the report open when its override cannot be stored (one transaction)', async () => {
        const report = newReport();
        await a.reports.createReport(report);
        const existing = newOverride();
        await a.overrides.addOverride(existing);
        await expect(
          a.reports.resolveReport(
            report.id,
            resolution({ override: newOverride({ id: existing.id, action: 'deny' }) }),
          ),
        ).rejects.toThrow();
        expect(await b.reports.findReport(report.id)).toEqual(asOpen(report));
        expect(await a.overrides.findOverride(existing.id)).toMatchObject({ action: 'allow' });
        // Nothing was claimed: a later resolution still wins.
        expect(await a.reports.resolveReport(report.id, resolution())).toBe('resolved');
      });

      it('refuses an override naming another report, and a status that is no resolution', async () => {
        const report = newReport();
        await a.reports.createReport(report);
        await expect(
          a.reports.resolveReport(
            report.id,
            resolution({ override: newOverride({ reportId: 'rpt_1111111111111111' }) }),
          ),
        ).rejects.toThrow(RangeError);
        await expect(
          a.reports.resolveReport(
            report.id,
            resolution({ status: 'open' as unknown as 'accepted' }),
          ),
        ).rejects.toThrow(RangeError);
        expect(await a.reports.findReport(report.id)).toEqual(asOpen(report));
        expect(await a.overrides.listOverrides()).toEqual([]);
      });
    });

    describe('redacting reports', () => {
      it('clears comment and contact of an open report, keeps the rest, records who and when', async () => {
        const report = newReport();
        await a.reports.createReport(report);
        expect(await a.reports.redactReport(report.id, T0 + 90_000, 'carol')).toBe('redacted');
        const redacted = {
          ...asOpen(report),
          comment: null,
          contact: null,
          redactedAt: T0 + 90_000,
          redactedBy: 'carol',
        };
        expect(await b.reports.findReport(report.id)).toEqual(redacted);
        expect(await b.reports.listReports({ status: 'open' })).toEqual([redacted]);
        // Still open: it can be resolved afterwards, and the redaction stays.
        expect(await b.reports.resolveReport(report.id, resolution())).toBe('resolved');
        expect(await a.reports.findReport(report.id)).toEqual({
          ...redacted,
          status: 'accepted',
          resolvedAt: T0 + 60_000,
          resolvedBy: 'alice',
          resolutionNote: 'confirmed with the customer',
        });
      });

      it('redacts a resolved report, keeping its resolution and override', async () => {
        const report = newReport({ kind: 'false_negative' });
        await a.reports.createReport(report);
        const override = newOverride({ action: 'deny' });
        expect(
          await a.reports.resolveReport(
            report.id,
            resolution({ status: 'accepted', override, by: 'bob', note: 'phishing, confirmed' }),
          ),
        ).toBe('resolved');
        const resolved = await a.reports.findReport(report.id);
        expect(await b.reports.redactReport(report.id, T0 + 120_000, 'dave')).toBe('redacted');
        expect(await a.reports.findReport(report.id)).toEqual({
          ...resolved,
          comment: null,
          contact: null,
          redactedAt: T0 + 120_000,
          redactedBy: 'dave',
        });
        expect(await a.overrides.findOverride(override.id)).toEqual({
          ...override,
          reportId: report.id,
          removedAt: null,
          removedBy: null,
        });
      });

      it('a second redaction changes nothing: already_redacted, the first who/when stay', async () => {
        const report = newReport({ comment: null });
        await a.reports.createReport(report);
        expect(await a.reports.redactReport(report.id, T0 + 1, 'carol')).toBe('redacted');
        const first = await a.reports.findReport(report.id);
        expect(first?.redactedBy).toBe('carol');
        expect(await b.reports.redactReport(report.id, T0 + 2, 'dave')).toBe('already_redacted');
        expect(await a.reports.findReport(report.id)).toEqual(first);
      });

      it('of four concurrent redactions through both stores exactly one records its who/when', async () => {
        const report = newReport();
        await a.reports.createReport(report);
        const results = await Promise.all(
          [0, 1, 2, 3].map((i) =>
            (i % 2 === 0 ? a : b).reports.redactReport(report.id, T0 + i, `op${String(i)}`),
          ),
        );
        expect(results.filter((r) => r === 'redacted')).toHaveLength(1);
        expect(results.filter((r) => r === 'already_redacted')).toHaveLength(3);
        const winner = results.indexOf('redacted');
        const stored = await b.reports.findReport(report.id);
        expect(stored?.redactedBy).toBe(`op${String(winner)}`);
        expect(stored?.redactedAt).toBe(T0 + winner);
      });

      it('answers not_found for an unknown id and leaves other reports alone', async () => {
        const other = newReport();
        await a.reports.createReport(other);
        expect(await a.reports.redactReport('rpt_0000000000000000', T0, 'carol')).toBe('not_found');
        expect(await b.reports.findReport(other.id)).toEqual(asOpen(other));
      });
    });

    describe('overrides', () => {
      it('adds, finds and lists overrides oldest first with every field intact', async () => {
        const report = newReport();
        await a.reports.createReport(report);
        const newest = newOverride({ createdAt: T0 + 3, action: 'deny', scope: 'url_prefix' });
        const oldest = newOverride({
          createdAt: T0 + 1,
          target: 'https://example.org/login',
          scope: 'url_prefix',
          expiresAt: T0 + 86_400_000,
          reportId: report.id,
        });
        const middle = newOverride({ createdAt: T0 + 2, scope: 'host', target: 'a.example.net' });
        for (const o of [newest, oldest, middle]) await b.overrides.addOverride(o);
        const stored = (o: NewOverride) => ({ ...o, removedAt: null, removedBy: null });
        expect(await a.overrides.listOverrides()).toEqual([oldest, middle, newest].map(stored));
        expect(await a.overrides.findOverride(oldest.id)).toEqual(stored(oldest));
        expect(await a.overrides.findOverride('ovr_000000000000')).toBeNull();
        expect((await a.overrides.activeOverrides()).overrides).toEqual(
          [oldest, middle, newest].map(stored),
        );
      });

      it('rejects a duplicate id and an override naming an unknown report', async () => {
        const override = newOverride({ reason: 'original' });
        await a.overrides.addOverride(override);
        await expect(
          b.overrides.addOverride(newOverride({ id: override.id, reason: 'copy' })),
        ).rejects.toThrow();
        await expect(
          a.overrides.addOverride(newOverride({ reportId: 'rpt_0000000000000000' })),
        ).rejects.toThrow();
        expect(await a.overrides.listOverrides()).toEqual([
          { ...override, removedAt: null, removedBy: null },
        ]);
      });

      it('removes once (idempotent): listed still, no longer active', async () => {
        const kept = newOverride({ createdAt: T0 + 1 });
        const removed = newOverride({ createdAt: T0 + 2, action: 'deny' });
        await a.overrides.addOverride(kept);
        await a.overrides.addOverride(removed);
        expect(await a.overrides.removeOverride(removed.id, T0 + 5_000, 'carol')).toBe('removed');
        expect(await b.overrides.removeOverride(removed.id, T0 + 9_000, 'dave')).toBe(
          'already_removed',
        );
        expect(await a.overrides.removeOverride('ovr_000000000000', T0, 'carol')).toBe('not_found');
        const removedRecord = { ...removed, removedAt: T0 + 5_000, removedBy: 'carol' };
        expect(await b.overrides.findOverride(removed.id)).toEqual(removedRecord);
        expect(await a.overrides.listOverrides()).toEqual([
          { ...kept, removedAt: null, removedBy: null },
          removedRecord,
        ]);
        expect((await a.overrides.activeOverrides()).overrides.map((o) => o.id)).toEqual([kept.id]);
      });

      it('keeps expired overrides in the snapshot (expiry is judged at use)', async () => {
        const expired = newOverride({ expiresAt: T0 - 1 });
        await a.overrides.addOverride(expired);
        expect((await a.overrides.activeOverrides()).overrides.map((o) => o.id)).toEqual([
          expired.id,
        ]);
      });
    });

    describe('the snapshot of overrides in force', () => {
      it('is one frozen object while nothing changes, a new one after each change', async () => {
        const first = newOverride({ createdAt: T0 + 1 });
        await a.overrides.addOverride(first);
        const s1 = await a.overrides.activeOverrides();
        expect(await a.overrides.activeOverrides()).toBe(s1);
        expect(Object.isFrozen(s1)).toBe(true);
        expect(Object.isFrozen(s1.overrides)).toBe(true);
        expect(s1.overrides.every((o) => Object.isFrozen(o))).toBe(true);
        expect(() => {
          (s1.overrides as unknown[]).push(first);
        }).toThrow(TypeError);

        // Writes to other tables, on either store, are no change of the overrides.
        await a.reports.createReport(newReport());
        await b.keys.createKey(newKey());
        expect(await a.overrides.activeOverrides()).toBe(s1);

        const second = newOverride({ createdAt: T0 + 2 });
        await a.overrides.addOverride(second);
        const s2 = await a.overrides.activeOverrides();
        expect(s2).not.toBe(s1);
        expect(s2.overrides.map((o) => o.id)).toEqual([first.id, second.id]);
        expect(s1.overrides.map((o) => o.id)).toEqual([first.id]);
        expect(await a.overrides.activeOverrides()).toBe(s2);

        await a.overrides.removeOverride(first.id, T0 + 3, 'alice');
        const s3 = await a.overrides.activeOverrides();
        expect(s3).not.toBe(s2);
        expect(s3.overrides.map((o) => o.id)).toEqual([second.id]);

        // A refused removal changes nothing.
        await a.overrides.removeOverride(first.id, T0 + 4, 'alice');
        expect(await a.overrides.activeOverrides()).toBe(s3);
      });

      it('sees an override added, removed or created by a resolution on the other store', async () => {
        const before = await a.overrides.activeOverrides();
        expect(await a.overrides.activeOverrides()).toBe(before);

        const added = newOverride({ createdAt: T0 + 1, action: 'deny' });
        await b.overrides.addOverride(added);
        await seenByA((s) => s.overrides.some((o) => o.id === added.id));
        const withAdded = await a.overrides.activeOverrides();
        expect(withAdded).not.toBe(before);
        expect(withAdded.overrides).toEqual([{ ...added, removedAt: null, removedBy: null }]);

        const report = newReport();
        await b.reports.createReport(report);
        const resolvedWith = newOverride({ createdAt: T0 + 2 });
        expect(
          await b.reports.resolveReport(report.id, resolution({ override: resolvedWith })),
        ).toBe('resolved');
        await seenByA((s) => s.overrides.some((o) => o.id === resolvedWith.id));
        expect((await a.overrides.activeOverrides()).overrides.at(-1)?.reportId).toBe(report.id);

        expect(await b.overrides.removeOverride(added.id, T0 + 3, 'bob')).toBe('removed');
        await seenByA((s) => s.overrides.every((o) => o.id !== added.id));
        expect((await a.overrides.activeOverrides()).overrides.map((o) => o.id)).toEqual([
          resolvedWith.id,
        ]);
      });
    });
  });
}
