/**
 * The labelling of `linkguard reports export` (src/corrections/report-export.ts): what each
 * resolution says a URL is, one row per URL by its latest resolution, and CSV that
 * `readEvalCsv()` (what `linkguard eval` reads) reads back to the same URLs and dates.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { evalCsv, labelReports, resolutionLabel } from '../../src/corrections/report-export.js';
import { emptySignals, type Verdict } from '../../src/engine/verdict.js';
import { readEvalCsv } from '../../src/evaluation/evaluate-urls.js';
import type {
  ReportKind,
  ReportRecord,
  ReportStatus,
} from '../../src/store/ports/correction-store.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 1);

function verdict(value: Verdict['verdict']): Verdict {
  return {
    verdict: value,
    trust_score: value === 'safe' ? 90 : 10,
    brand: null,
    confidence: 0.8,
    reason: 'test',
    threat_types: [],
    signals: emptySignals(),
    details: {
      matched_brand: null,
      official_domain: null,
      domain_matches_brand: false,
      target_country: null,
      page_language: null,
      tld: 'com',
      domain_age_days: null,
      matched_patterns: [],
    },
  };
}

let counter = 0;
function report(
  url: string,
  kind: ReportKind,
  status: ReportStatus,
  filedDay: number,
  resolvedDay: number | null = status === 'open' ? null : filedDay + 1,
): ReportRecord {
  counter++;
  return {
    id: `rpt_${String(counter).padStart(16, '0')}`,
    createdAt: T0 + filedDay * DAY,
    url,
    kind,
    comment: null,
    contact: null,
    source: 'anonymous',
    sourceId: null,
    verdict: verdict(kind === 'false_positive' ? 'danger' : 'safe'),
    engineVersion: '1.0.0',
    dataVersion: 'abc',
    status,
    resolvedAt: resolvedDay === null ? null : T0 + resolvedDay * DAY,
    resolvedBy: status === 'open' ? null : 'alice',
    resolutionNote: null,
    overrideId: null,
    redactedAt: null,
    redactedBy: null,
  };
}

describe('resolutionLabel', () => {
  it.each([
    ['false_positive', 'accepted', 'benign'],
    ['false_negative', 'accepted', 'malicious'],
    ['false_positive', 'rejected', 'malicious'],
    ['false_negative', 'rejected', 'benign'],
  ] as const)('%s %s → %s', (kind, status, label) => {
    expect(resolutionLabel(kind, status)).toBe(label);
  });
});

describe('labelReports', () => {
  it('puts each resolved report in the file its resolution names and leaves open ones out', () => {
    const out = labelReports([
      report('https://a.example/', 'false_positive', 'accepted', 3),
      report('https://b.example/', 'false_negative', 'accepted', 1),
      report('https://c.example/', 'false_positive', 'rejected', 2),
      report('https://d.example/', 'false_negative', 'rejected', 0),
      report('https://e.example/', 'false_positive', 'open', 0),
    ]);
    expect(out.benign.map((r) => r.url)).toEqual(['https://d.example/', 'https://a.example/']);
    expect(out.malicious.map((r) => r.url)).toEqual(['https://b.example/', 'https://c.example/']);
    expect(out.open).toBe(1);
    expect(out.superseded).toBe(0);
    expect(out.benign[1]).toMatchObject({
      kind: 'false_positive',
      status: 'accepted',
      firstSeen: T0 + 3 * DAY,
    });
  });

  it('labels a URL reported twice once, by its latest resolution, first seen at its first filing', () => {
    const earlier = report('https://x.example/p', 'false_positive', 'rejected', 1, 2);
    const later = report('https://x.example/p', 'false_positive', 'accepted', 4, 5);
    for (const order of [
      [earlier, later],
      [later, earlier],
    ]) {
      const out = labelReports(order);
      expect(out.malicious).toEqual([]);
      expect(out.benign).toEqual([
        {
          url: 'https://x.example/p',
          firstSeen: T0 + DAY,
          reportId: later.id,
          kind: 'false_positive',
          status: 'accepted',
        },
      ]);
      expect(out.superseded).toBe(1);
    }
  });

  it('is empty for no resolved report', () => {
    expect(labelReports([report('https://e.example/', 'false_negative', 'open', 0)])).toEqual({
      malicious: [],
      benign: [],
      open: 1,
      superseded: 0,
    });
  });
});

describe('evalCsv', () => {
  it('is read back by readEvalCsv (linkguard eval) with the same URLs and first_seen', () => {
    const dir = mkdtempSync(join(tmpdir(), 'linkguard-export-'));
    try {
      // A comma and a quote in a URL's query must survive the CSV quoting.
      const tricky = 'https://q.example/s?a=1,2&b="x"';
      const out = labelReports([
        report(tricky, 'false_negative', 'accepted', 2),
        report('https://b.example/', 'false_negative', 'accepted', 1),
      ]);
      const csv = evalCsv(out.malicious);
      expect(csv.split('\n')[0]).toBe('url,first_seen,report_id,kind,status');
      const path = join(dir, 'm.csv');
      writeFileSync(path, csv);
      expect(readEvalCsv(path)).toEqual([
        { url: 'https://b.example/', firstSeen: T0 + DAY },
        { url: tricky, firstSeen: T0 + 2 * DAY },
      ]);
      const empty = join(dir, 'b.csv');
      writeFileSync(empty, evalCsv([]));
      expect(evalCsv([])).toBe('url,first_seen,report_id,kind,status\n');
      expect(readEvalCsv(empty)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
