/**
 * `npm run eval`: measures the engine on the development data in `../shared/data` and writes the
 * table to docs/eval.md.
 *
 * 1. Builds one CSV per source under `.eval/` (gitignored) with a `url` column and, where the source
 *    labels the targeted brand, a `brand` column — mechanically, from the files named below.
 * 2. Runs the same `evaluateRows()` as `linkguard eval` on each CSV (so every row of the table can
 *    be reproduced with `linkguard eval --malicious .eval/<source>.csv`).
 *
 * Which list measures what: Tranco top-10k built the popular-site allowlist
 * (scripts/build-lists.ts) and the MISP Google/Microsoft lists fed the brand catalog, so they are
 * reported but do NOT measure false positives. Majestic, Cisco Umbrella, Cloudflare Radar, Moz,
 * the bank list and the university list are independent of every list the engine uses; for them
 * the table also shows the rate on rows outside the allowlists (neither popular nor an official
 * brand domain), the honest figure for a site the engine has never heard of.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';

import { parse } from 'csv-parse/sync';
import { getDomain } from 'tldts';

import { defaultEngine } from '../src/engine-data/load-engine-data.js';
import {
  brandAccuracy,
  brandPrecision,
  dangerRate,
  type EvalCounts,
  type EvalRow,
  evaluateRows,
  notSafeRate,
  urlsPerSecond,
} from '../src/evaluation/evaluate-urls.js';
import { SERVICE_COVERAGE } from '../src/service/detection-service.js';

const root = resolve(import.meta.dirname, '..');
const shared = resolve(process.env.LINKGUARD_SHARED_DIR ?? join(root, '..', 'shared'), 'data');
const outDir = join(root, '.eval');

if (!existsSync(shared)) {
  console.error(`${shared} not found: the development data is only in the maintainers' checkout.`);
  process.exit(1);
}
mkdirSync(outDir, { recursive: true });

type Row = Record<string, string>;
const csv = (file: string): Row[] =>
  parse(readFileSync(join(shared, file), 'utf8'), {
    columns: true,
    skip_empty_lines: true,
    relax_quotes: true,
    relax_column_count: true,
  });
const mispList = (name: string): string[] =>
  (
    JSON.parse(readFileSync(join(shared, 'misp-warninglists', name, 'list.json'), 'utf8')) as {
      list: string[];
    }
  ).list.map((h) => h.replace(/^\.+/, '').toLowerCase());
/** PhishTank rows carry HTML-escaped ampersands (`&amp;`), data/README.md. */
const unescapeHtml = (url: string): string => url.replace(/&amp;/g, '&');

interface Source {
  name: string;
  file: string;
  kind: 'malicious' | 'benign';
  /** What the rows are and where they come from. */
  what: string;
  /** For benign lists: why it does or does not measure false positives. */
  role?: 'measures' | 'allowlist-source' | 'catalog-source';
  rows: () => EvalRow[];
}

const sources: Source[] = [
  {
    name: 'phishtank',
    file: 'phishtank-2022-03/verified_online.csv',
    kind: 'malicious',
    what: 'PhishTank verified_online dump 2022-03 (URLs, brand label on 18 %)',
    rows: () =>
      csv('phishtank-2022-03/verified_online.csv').map((r) => {
        const brand = r.target ?? '';
        return brand !== '' && brand !== 'Other'
          ? { url: unescapeHtml(r.url ?? ''), brand }
          : { url: unescapeHtml(r.url ?? '') };
      }),
  },
  {
    name: 'openphish',
    file: 'openphish-community-feed-archive/urls_first_seen_2024-07_to_2024-12.csv',
    kind: 'malicious',
    what: 'OpenPhish community feed 2024-07…12 (URLs)',
    rows: () =>
      csv('openphish-community-feed-archive/urls_first_seen_2024-07_to_2024-12.csv').map((r) => ({
        url: r.url ?? '',
      })),
  },
  {
    name: 'scamsniffer',
    file: 'scamsniffer-scam-database/domains_first_seen_2022-05_to_2025-12.csv',
    kind: 'malicious',
    what: 'ScamSniffer drainer/crypto-phishing hosts 2022-05…2025-12',
    rows: () =>
      csv('scamsniffer-scam-database/domains_first_seen_2022-05_to_2025-12.csv').map((r) => ({
        url: r.domain ?? '',
      })),
  },
  {
    name: 'polkadot',
    file: 'polkadot-js-phishing/all.json',
    kind: 'malicious',
    what: 'polkadot-js/phishing deny list (hosts) to 2025-12-31',
    rows: () =>
      (
        JSON.parse(readFileSync(join(shared, 'polkadot-js-phishing/all.json'), 'utf8')) as {
          deny: string[];
        }
      ).deny.map((host) => ({ url: host })),
  },
  {
    name: 'cryptoscamdb',
    file: 'cryptoscamdb-blacklist/urls_dev_split.csv',
    kind: 'malicious',
    what: 'CryptoScamDB dev half (URLs; subcategory = brand or scam type)',
    rows: () =>
      csv('cryptoscamdb-blacklist/urls_dev_split.csv').map((r) => {
        const brand = r.subcategory ?? '';
        return brand !== ''
          ? { url: r.url ?? r.name ?? '', brand }
          : { url: r.url ?? r.name ?? '' };
      }),
  },
  {
    name: 'discord-antiscam',
    file: 'discord-antiscam-scam-links/domains_first_added_2021-09_to_2025-06.csv',
    kind: 'malicious',
    what: 'Discord-AntiScam scam links 2022-01…2025-06 (hosts)',
    rows: () =>
      csv('discord-antiscam-scam-links/domains_first_added_2021-09_to_2025-06.csv').map((r) => ({
        url: r.domain ?? '',
      })),
  },
  {
    name: 'clickgrab',
    file: 'clickgrab-clickfix/clickfix_urls_2026-04.csv',
    kind: 'malicious',
    what: 'ClickGrab ClickFix / fake-CAPTCHA URLs 2026-04',
    rows: () =>
      csv('clickgrab-clickfix/clickfix_urls_2026-04.csv').map((r) => ({ url: r.url ?? '' })),
  },
  ...(
    [
      ['majestic', 'majestic_million', 'Majestic Million top-10k', 'measures'],
      [
        'cisco-umbrella',
        'cisco_top20k',
        'Cisco Umbrella top-20k (DNS names incl. infrastructure)',
        'measures',
      ],
      ['cloudflare-radar', 'cloudflare-top10k', 'Cloudflare Radar top-10k', 'measures'],
      ['moz', 'moz-top500', 'Moz top-500', 'measures'],
      ['banks', 'bank-website', 'MISP bank websites (2,226)', 'measures'],
      ['universities', 'university_domains', 'MISP university domains', 'measures'],
      ['tranco', 'tranco10k', 'Tranco top-10k', 'allowlist-source'],
      ['google-microsoft', 'google', 'MISP Google + Microsoft domains', 'catalog-source'],
    ] as const
  ).map(([name, list, what, role]): Source => ({
    name,
    file: `misp-warninglists/${list}/list.json`,
    kind: 'benign',
    what,
    role,
    rows: () => {
      const hosts =
        list === 'google' ? [...mispList('google'), ...mispList('microsoft')] : mispList(list);
      // Wildcard and CIDR entries are patterns, not hosts.
      return [...new Set(hosts)]
        .filter((h) => h !== '' && !h.includes('*') && !h.includes('/'))
        .map((host) => ({ url: host }));
    },
  })),
];

const loadBefore = loadavg()[0] ?? 0;
const engine = defaultEngine();
const popular = new Set(
  (
    JSON.parse(readFileSync(join(root, 'data/lists/popular-domains.json'), 'utf8')) as {
      domains: string[];
    }
  ).domains,
);

/** A benign row the allowlists already vouch for: popular or an official brand domain. */
function allowlisted(url: string): boolean {
  const host = url.replace(/^https?:\/\//, '').split(/[/:?#]/)[0] ?? '';
  const domain = getDomain(host, { allowPrivateDomains: true });
  return (
    domain !== null && (popular.has(domain) || engine.brands.officialBrand(domain) !== undefined)
  );
}

const writeCsv = (name: string, rows: readonly EvalRow[]): void => {
  const quote = (value: string): string => `"${value.replace(/"/g, '""')}"`;
  const hasBrand = rows.some((r) => r.brand !== undefined);
  const lines = rows.map((r) =>
    hasBrand ? `${quote(r.url)},${quote(r.brand ?? '')}` : quote(r.url),
  );
  writeFileSync(
    join(outDir, `${name}.csv`),
    `${hasBrand ? 'url,brand' : 'url'}\n${lines.join('\n')}\n`,
  );
};

const pct = (value: number | null, digits = 2): string =>
  value === null ? '–' : `${(100 * value).toFixed(digits)} %`;
const lines: string[] = [];
const all: EvalCounts[] = [];
const maliciousRows: string[] = [];
const benignRows: string[] = [];

for (const source of sources) {
  const rows = source.rows().filter((r) => r.url.trim() !== '');
  writeCsv(source.name, rows);
  const counts = evaluateRows(engine, rows, SERVICE_COVERAGE);
  all.push(counts);
  if (source.kind === 'malicious') {
    maliciousRows.push(
      `| ${source.name} | ${source.what} | ${counts.rows} | ${counts.invalid} | **${pct(notSafeRate(counts), 1)}** | ${pct(dangerRate(counts), 1)} | ${counts.brandRows === 0 ? '–' : `${pct(brandAccuracy(counts), 1)} of ${counts.brandRows}`} | ${counts.brandNamed === 0 ? '–' : `${pct(brandPrecision(counts), 1)} of ${counts.brandNamed}`} |`,
    );
  } else {
    const outside = rows.filter((r) => !allowlisted(r.url));
    const outsideCounts = evaluateRows(engine, outside, SERVICE_COVERAGE);
    const role =
      source.role === 'measures'
        ? 'yes'
        : source.role === 'allowlist-source'
          ? 'no: built the popular allowlist'
          : 'no: fed the brand catalog';
    benignRows.push(
      `| ${source.name} | ${source.what} | ${role} | ${counts.rows} | ${counts.invalid} | **${pct(notSafeRate(counts))}** | **${pct(dangerRate(counts), 3)}** | ${outsideCounts.rows} | ${pct(notSafeRate(outsideCounts))} | ${pct(dangerRate(outsideCounts), 3)} |`,
    );
  }
  console.log(
    `${source.name}: ${counts.rows} rows, safe ${counts.safe}, caution ${counts.caution}, danger ${counts.danger}, invalid ${counts.invalid}`,
  );
}

const measured = benignRows.length;
lines.push(
  '# Detection accuracy on the development data',
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run eval\` (scripts/eval-dev.ts) with the URL layer`,
  '(layer 1) only: threat intelligence and page analysis are not part of this version. Every row of',
  'the tables can be reproduced with `linkguard eval --malicious .eval/<source>.csv` or',
  '`--benign .eval/<source>.csv` after `npm run eval` has written the CSVs.',
  '',
  '- **Recall** = share of malicious rows judged `caution` or `danger` (not safe);',
  '  **danger recall** = share judged `danger`.',
  '- **False positives** = share of benign rows judged not safe; **danger FP** = judged `danger`.',
  '- **Brand accuracy** = on malicious rows whose source label names a brand in our catalog, the share',
  '  where the verdict named that brand (rows labelled "Other" or with a scam type are not counted);',
  '  it is bounded by recall, since a URL judged safe names no brand. **Brand precision** = of those',
  '  rows where the verdict named a brand, the share where it named the labelled one.',
  '- **Invalid** = rows the service refuses as `invalid_url` (private IPs, unknown TLDs, malformed);',
  '  they are excluded from the rates.',
  '',
  '## Malicious sources',
  '',
  '| source | what | rows | invalid | recall | danger recall | brand accuracy | brand precision |',
  '|---|---|---|---|---|---|---|---|',
  ...maliciousRows,
  '',
  '## Benign sources',
  '',
  'Only the lists marked "yes" measure false positives: Tranco built the popular-site allowlist and the',
  'MISP Google/Microsoft lists fed the brand catalog, so low rates there are by construction. "Outside',
  'allowlists" keeps only rows whose registrable domain is neither a popular site nor an official brand',
  'domain: the rate a site gets on its own merits.',
  '',
  '| source | what | measures FP? | rows | invalid | FP (not safe) | danger FP | rows outside allowlists | FP there | danger FP there |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...benignRows,
  '',
  `Engine throughput over all ${all.reduce((s, c) => s + c.rows, 0)} rows: **${Math.round(urlsPerSecond(all))} URLs/s** on one core`,
  `(${measured} benign and ${maliciousRows.length} malicious sources; almost every row is a URL the`,
  `engine has not seen, so its label memo rarely helps — the first-sight figure. The machine is`,
  `shared: 1-minute load average ${loadBefore.toFixed(2)} before, ${(loadavg()[0] ?? 0).toFixed(2)} after; docs/bench.md has the`,
  `controlled measurement).`,
  '',
);
writeFileSync(join(root, 'docs/eval.md'), `${lines.join('\n')}\n`);
console.log(`\nwrote docs/eval.md (${Math.round(urlsPerSecond(all))} URLs/s)`);
