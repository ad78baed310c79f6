/**
 * The layer-2 evaluation: feed hits counted as known threats, allow entries, the URL layer on the
 * same rows, and the baseline shortcut (rows no entry matched keep the URL layer's verdict),
 * which must give exactly what judging every row with layer 2 gives.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import type { Engine } from '../engine/create-engine.js';
import { judgeParsedUrl } from '../engine/detect.js';
import { NO_INTEL } from '../engine/intel-evidence.js';
import { normalizeUrl } from '../engine/url/normalize-url.js';
import type { VerdictValue } from '../engine/verdict.js';
import { defaultEngine } from '../engine-data/load-engine-data.js';
import { type IndexedFeed, type ThreatIndex, ThreatIndexBuilder } from '../intel/threat-index.js';
import type { EvalRow } from './evaluate-urls.js';
import { evaluateRows } from './evaluate-urls.js';
import { evaluateWithIntel, INTEL_EVAL_COVERAGE, knownThreatRate } from './evaluate-with-intel.js';

const PHISH: IndexedFeed = { id: 1, name: 'phish', threat: 'credential_phishing' };
const WEB3: IndexedFeed = { id: 2, name: 'web3', threat: 'crypto_scam' };
const ALLOW: IndexedFeed = { id: 3, name: 'allow', threat: null };

/** Listed, unlisted, lookalike, popular, platform-tenant, redirect and invalid rows. */
const ROWS: EvalRow[] = [
  { url: 'https://quiet-listed-host.xyz/' },
  { url: 'https://a.b.quiet-listed-host.xyz/x' },
  { url: 'https://both-feeds.top/login' },
  { url: 'https://paypal-secure-login.top/verify' },
  { url: 'https://unlisted-blog.net/' },
  { url: 'https://www.google.com/search?q=x' },
  { url: 'https://docs.google.com/forms/d/e/abc123/viewform' },
  { url: 'https://my-tenant.pages.dev/' },
  { url: 'https://allowed.example-allow.com/' },
  { url: 'https://www.google.com/url?q=https://quiet-listed-host.xyz/' },
  { url: 'http://127.0.0.1/' },
];

let engine: Engine;
let index: ThreatIndex;
beforeAll(() => {
  engine = defaultEngine();
  const builder = new ThreatIndexBuilder(engine, [PHISH, WEB3, ALLOW]);
  const add = (feed: IndexedFeed, value: string, list: 'deny' | 'allow' = 'deny') => {
    builder.add(feed.id, {
      list,
      kind: value.includes('://') ? 'url' : 'host',
      value,
      target: null,
      firstSeen: null,
    });
  };
  add(PHISH, 'quiet-listed-host.xyz');
  add(PHISH, 'both-feeds.top');
  add(WEB3, 'both-feeds.top');
  add(PHISH, 'https://docs.google.com/forms/d/e/abc123/');
  add(WEB3, 'my-tenant.pages.dev');
  add(WEB3, 'allowed.example-allow.com');
  // Allow entries vouch for the host they name only (decision 37).
  add(ALLOW, 'allowed.example-allow.com', 'allow');
  index = builder.build();
});

describe('evaluateWithIntel', () => {
  it('counts feed hits as known threats, per feed, with the URL layer alongside', () => {
    const counts = evaluateWithIntel(engine, ROWS, index, { listedLimit: 2 });
    expect(counts.rows).toBe(ROWS.length);
    expect(counts.invalid).toBe(1);
    expect(counts.urlLayer.invalid).toBe(1);
    // quiet host, its subdomain, both-feeds, the Forms prefix, the pages.dev tenant.
    expect(counts.knownThreat).toBe(5);
    expect(counts.hitsByFeed).toEqual({ phish: 4, web3: 2 });
    expect(counts.allowed).toBe(1);
    expect(counts.listed).toEqual([
      {
        url: 'https://quiet-listed-host.xyz/',
        feeds: ['phish'],
        matched: ['quiet-listed-host.xyz'],
      },
      {
        url: 'https://a.b.quiet-listed-host.xyz/x',
        feeds: ['phish'],
        matched: ['quiet-listed-host.xyz'],
      },
    ]);
    const both = evaluateWithIntel(engine, [{ url: 'https://www.both-feeds.top/' }], index, {
      listedLimit: 1,
    });
    expect(both.listed).toEqual([
      {
        url: 'https://www.both-feeds.top/',
        feeds: ['phish', 'web3'],
        matched: ['both-feeds.top', 'both-feeds.top'],
      },
    ]);
    expect(knownThreatRate(counts)).toBeCloseTo(5 / 10);
    // Every listed row is danger; the URL layer alone judged the quiet host safe.
    expect(counts.danger).toBeGreaterThanOrEqual(5);
    expect(counts.urlLayer.safe).toBeGreaterThan(counts.safe);
  });

  it('with a URL-layer baseline gives the same counts as judging every row with layer 2', () => {
    const verdicts: (VerdictValue | null)[] = [];
    evaluateRows(engine, ROWS, INTEL_EVAL_COVERAGE, (row, verdict) => {
      verdicts[row] = verdict;
    });
    const reused = evaluateWithIntel(engine, ROWS, index, {
      baseline: (row) => verdicts[row] ?? null,
    });
    const full = evaluateWithIntel(engine, ROWS, index);
    expect({ ...reused, seconds: 0 }).toEqual({ ...full, seconds: 0 });

    // The premise of the shortcut, row by row: no feed hit and no domain age → same verdict value.
    for (const row of ROWS) {
      const parsed = normalizeUrl(row.url);
      if (!parsed.ok) continue;
      const match = index.lookup(parsed.url);
      const evidence = { ...NO_INTEL, denied: match.denied, allowedBy: match.allowedBy };
      const withIntel = judgeParsedUrl(engine, parsed.url, INTEL_EVAL_COVERAGE, evidence);
      if (match.denied.length === 0 && match.allowedBy.length === 0) {
        expect(withIntel.verdict).toBe(judgeParsedUrl(engine, parsed.url).verdict);
      }
    }
  });

  it('a baseline that disagrees is used as given (it is trusted, not re-checked)', () => {
    const counts = evaluateWithIntel(engine, [{ url: 'https://unlisted-blog.net/' }], index, {
      baseline: () => 'caution',
    });
    expect(counts).toMatchObject({ caution: 1, urlLayer: { caution: 1 }, knownThreat: 0 });
  });
});
