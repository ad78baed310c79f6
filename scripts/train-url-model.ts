/**
 * `npm run train:url-model`: trains the lexical URL model and writes `data/models/url-model.bin`
 * (int16 weights) and `data/models/url-model.json` (manifest: data versions, date, options,
 * thresholds, metrics, SHA-256 of the weights).
 *
 * 1. Data (`scripts/url-model/training-data.ts`): malicious hosts of the development feeds in
 *    `../shared/data` split in time at `--cutoff` (older train, newer test); benign hosts from
 *    Tranco top-10k and from long-tail sources (`scripts/url-model/benign-sources.ts`: Debian
 *    package homepages, ad-block site lists, tracker hosts, mail providers), the long tail split
 *    by site into train / calibration / test.
 * 2. Training (`train-logistic.ts`): logistic regression, AdaGrad, seeded. Each feed's examples
 *    weigh 1/√(feed size), so the largest feed (ScamSniffer) does not drown the phishing feeds;
 *    both classes then weigh the same in total.
 * 3. Calibration: the `support`, `caution` and `strong` thresholds are the logits at which
 *    {@link SUPPORT_FPR}, {@link CAUTION_FPR} and {@link STRONG_FPR} of the long-tail calibration
 *    sites score, measured with the quantised weights exactly as the engine scores.
 * 4. Metrics, printed and stored: recall on the newer malicious hosts per feed, false positives
 *    on the long-tail test sites per source and on the independent benign lists of `npm run eval`
 *    (hosts the engine would score with the model: neither official nor popular).
 *
 * Options: --cutoff YYYY-MM-DD (default 2024-10-01), --epochs N, --out DIR (default data/models).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { createEngine } from '../src/engine/create-engine.js';
import { HASH_BITS } from '../src/engine/model/host-features.js';
import { modelSite } from '../src/engine/model/model-site.js';
import { URL_MODEL_FORMAT, UrlModel, type UrlModelParams } from '../src/engine/model/url-model.js';
import { isCdnEdge, modelReads } from '../src/engine/rules/analyze-url.js';
import { normalizeUrl } from '../src/engine/url/normalize-url.js';
import { loadEngineData } from '../src/engine-data/load-engine-data.js';
import { DEBIAN_PACKAGES } from './url-model/benign-sources.js';
import {
  DEFAULT_TRAIN_OPTIONS,
  type Example,
  quantize,
  thresholdAtRate,
  trainLogistic,
} from './url-model/train-logistic.js';
import { buildTrainingData, type LabelledHost } from './url-model/training-data.js';

/** False-positive rate on long-tail calibration sites at the `support` threshold. */
export const SUPPORT_FPR = 0.05;
/** … at the `caution` threshold (the model alone). */
export const CAUTION_FPR = 0.003;
/** … and at the `strong` threshold (danger only next to other evidence). */
export const STRONG_FPR = 0.001;

const root = resolve(import.meta.dirname, '..');
const shared = resolve(process.env.LINKGUARD_SHARED_DIR ?? join(root, '..', 'shared'), 'data');
const { values: args } = parseArgs({
  options: {
    cutoff: { type: 'string', default: '2024-10-01' },
    epochs: { type: 'string', default: String(DEFAULT_TRAIN_OPTIONS.epochs) },
    out: { type: 'string', default: join(root, 'data', 'models') },
  },
});
const cutoff = Date.parse(`${args.cutoff}T00:00:00Z`);
if (Number.isNaN(cutoff)) throw new Error(`--cutoff ${args.cutoff}: expected YYYY-MM-DD`);

const started = Date.now();
const engine = createEngine(loadEngineData(undefined, { urlModel: false }));
const data = buildTrainingData(engine, shared, join(root, '.cache', 'url-model'), cutoff);
console.log(
  `data: malicious ${data.maliciousTrain.length} train / ${data.maliciousTest.length} test; ` +
    `popular ${data.popularTrain.length}; long tail ${data.longTailTrain.length} train / ` +
    `${data.longTailCalibration.length} calibration / ${data.longTailTest.length} test`,
);

// Example weights: each feed's hosts weigh 1/√(feed size), then the classes are balanced.
const feedSize = new Map<string, number>();
for (const item of data.maliciousTrain) {
  const feed = item.sources[0] ?? '';
  feedSize.set(feed, (feedSize.get(feed) ?? 0) + 1);
}
const maliciousRaw = data.maliciousTrain.map(
  (item) => 1 / Math.sqrt(feedSize.get(item.sources[0] ?? '') ?? 1),
);
const benignHosts = [...data.popularTrain, ...data.longTailTrain];
const maliciousTotal = maliciousRaw.reduce((a, b) => a + b, 0);
const examples: Example[] = [
  ...data.maliciousTrain.map((item, i) => ({
    host: item.host,
    suffix: item.suffix,
    label: 1 as const,
    weight: ((maliciousRaw[i] ?? 0) * benignHosts.length) / maliciousTotal,
  })),
  ...benignHosts.map((item) => ({
    host: item.host,
    suffix: item.suffix,
    label: 0 as const,
    weight: 1,
  })),
];
const options = { ...DEFAULT_TRAIN_OPTIONS, epochs: Number(args.epochs) };
const float = trainLogistic(examples, options, (epoch, loss) => {
  console.log(`epoch ${epoch}: weighted log loss ${loss.toFixed(4)}`);
});
const { weights, scale } = quantize(float.weights);

// Calibrate with the quantised weights, exactly as the engine scores.
const provisional = new UrlModel(weights, {
  format: URL_MODEL_FORMAT,
  hash_bits: HASH_BITS,
  scale,
  bias: float.bias,
  thresholds: { support: 0, caution: 0, strong: 0 },
});
const logitOf = (item: { host: string; suffix: string }): number =>
  provisional.score(item.host, item.suffix).logit;
const calibration = data.longTailCalibration.map(logitOf);
const thresholds = {
  support: thresholdAtRate(calibration, SUPPORT_FPR),
  caution: thresholdAtRate(calibration, CAUTION_FPR),
  strong: thresholdAtRate(calibration, STRONG_FPR),
};
const params: UrlModelParams = {
  format: URL_MODEL_FORMAT,
  hash_bits: HASH_BITS,
  scale,
  bias: float.bias,
  thresholds,
};

const rate = (items: readonly LabelledHost[], threshold: number): number =>
  items.length === 0
    ? 0
    : items.filter((item) => item.host !== '' && logitOf(item) >= threshold).length / items.length;
const bySource = (items: readonly LabelledHost[]): Map<string, LabelledHost[]> => {
  const out = new Map<string, LabelledHost[]>();
  for (const item of items) {
    for (const source of item.sources) out.set(source, [...(out.get(source) ?? []), item]);
  }
  return out;
};
const row = (name: string, items: readonly LabelledHost[]) => ({
  name,
  hosts: items.length,
  caution: rate(items, thresholds.caution),
  strong: rate(items, thresholds.strong),
});
const recall = [
  row('all feeds', data.maliciousTest),
  ...[...bySource(data.maliciousTest)].map(([name, items]) => row(name, items)),
];
const longTailFp = [
  row('long tail (all sources)', data.longTailTest),
  ...[...bySource(data.longTailTest)].map(([name, items]) => row(name, items)),
];
const independentFp = independentLists().map(({ name, hosts }) => row(name, hosts));

const bin = Buffer.from(weights.buffer, weights.byteOffset, weights.byteLength);
const sha = (value: string | Buffer): string => createHash('sha256').update(value).digest('hex');
const feedFiles = [
  'phishtank-2022-03/verified_online.csv',
  'openphish-community-feed-archive/urls_first_seen_2024-07_to_2024-12.csv',
  'scamsniffer-scam-database/domains_first_seen_2022-05_to_2025-12.csv',
  'polkadot-js-phishing/all.json',
  'polkadot-js-phishing/meta_dated_additions.csv',
  'cryptoscamdb-blacklist/urls_dev_split.csv',
  'discord-antiscam-scam-links/domains_first_added_2021-09_to_2025-06.csv',
  'clickgrab-clickfix/clickfix_urls_2026-04.csv',
  'misp-warninglists/tranco10k/list.json',
];
const manifest = {
  ...params,
  model: 'logistic regression over hashed host n-grams (src/engine/model/host-features.ts)',
  trained_at: new Date().toISOString(),
  cutoff: args.cutoff,
  options,
  calibration: {
    support_fpr: SUPPORT_FPR,
    caution_fpr: CAUTION_FPR,
    strong_fpr: STRONG_FPR,
    on: 'long-tail calibration split',
  },
  data: {
    counts: {
      malicious_train: data.maliciousTrain.length,
      malicious_test: data.maliciousTest.length,
      popular_train: data.popularTrain.length,
      long_tail_train: data.longTailTrain.length,
      long_tail_calibration: data.longTailCalibration.length,
      long_tail_test: data.longTailTest.length,
    },
    dropped: data.dropped,
    development_files: feedFiles.map((file) => ({
      file: `shared/data/${file}`,
      sha256: sha(readFileSync(join(shared, file))),
    })),
    benign_packages: { debian: DEBIAN_PACKAGES },
    benign_inputs: data.inputs,
  },
  metrics: {
    recall_after_cutoff: recall,
    long_tail_test_fp: longTailFp,
    independent_benign_fp: independentFp,
  },
  weights: { file: 'url-model.bin', bytes: bin.length, sha256: sha(bin) },
};
mkdirSync(args.out, { recursive: true });
writeFileSync(join(args.out, 'url-model.bin'), bin);
writeFileSync(join(args.out, 'url-model.json'), `${JSON.stringify(manifest, null, 2)}\n`);

const pct = (value: number): string => `${(100 * value).toFixed(2)} %`;
console.log(
  `\nthresholds: caution ${thresholds.caution.toFixed(3)}, strong ${thresholds.strong.toFixed(3)}`,
);
console.log('\n| set | hosts | ≥ caution | ≥ strong |\n|---|---|---|---|');
for (const r of [...recall, ...longTailFp, ...independentFp]) {
  console.log(`| ${r.name} | ${r.hosts} | ${pct(r.caution)} | ${pct(r.strong)} |`);
}
console.log(
  `\nwrote ${args.out}/url-model.{bin,json} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);

/** The independent benign lists of `npm run eval`, reduced to hosts the model would score. */
function independentLists(): { name: string; hosts: LabelledHost[] }[] {
  const lists = [
    ['majestic', 'majestic_million'],
    ['cisco-umbrella', 'cisco_top20k'],
    ['cloudflare-radar', 'cloudflare-top10k'],
    ['moz', 'moz-top500'],
    ['banks', 'bank-website'],
    ['universities', 'university_domains'],
  ] as const;
  return lists.map(([name, folder]) => {
    const list = (
      JSON.parse(readFileSync(join(shared, 'misp-warninglists', folder, 'list.json'), 'utf8')) as {
        list: string[];
      }
    ).list;
    const hosts: LabelledHost[] = [];
    for (const raw of new Set(list.map((h) => h.replace(/^\.+/, '').toLowerCase()))) {
      if (raw.includes('*') || raw.includes('/')) continue;
      const parsed = normalizeUrl(raw);
      if (!parsed.ok || parsed.url.registrableDomain === null) continue;
      const { hostname, registrableDomain } = parsed.url;
      const tenant = engine.context.hosting.tenantOf(hostname, '/');
      const allowlisted =
        tenant === null &&
        (engine.context.popular.has(registrableDomain) ||
          engine.brands.officialBrand(registrableDomain) !== undefined);
      const reads = modelReads(
        engine.context,
        parsed.url,
        tenant,
        allowlisted || isCdnEdge(engine.context, hostname),
      );
      const site = reads
        ? modelSite(parsed.url, tenant, engine.context.hosting.platformOf(hostname) !== undefined)
        : null;
      // Rows the engine never scores (allowlisted, CDN edges) count as rows the model leaves alone.
      hosts.push({
        host: site?.site ?? '',
        suffix: site?.suffix ?? '',
        registrable: registrableDomain,
        sources: [name],
        firstSeen: null,
      });
    }
    return { name: `${name} (independent)`, hosts };
  });
}
