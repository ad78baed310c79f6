/**
 * @module engine-data/load-engine-data
 * Reads and validates the data files the engine runs on (`data/`, see data/SOURCES.md). This is
 * the I/O side of the pure engine: it runs once per process.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

import { createEngine, type Engine } from '../engine/create-engine.js';
import type { RawEngineData } from '../engine/engine-data.js';
import {
  AbusedTldsFileSchema,
  BrandsFileSchema,
  CdnEdgeFileSchema,
  CompanyWordsFileSchema,
  FillerWordsFileSchema,
  HostingFileSchema,
  PhishingWordsFileSchema,
  PopularDomainsFileSchema,
  ShortenersFileSchema,
  UrlModelManifestSchema,
} from './data-schemas.js';

/**
 * The `data/` directory of this package, found by walking up from this module (it sits at a
 * different depth under `src/` and `dist/src/`).
 */
export function dataDirectory(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'data');
    if (existsSync(join(candidate, 'brands.json'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('linkguard data directory (data/brands.json) not found');
}

/**
 * Read every data file.
 *
 * @param dir data directory (default: the package's own).
 * @param options `urlModel: false` skips the learned model (training builds the engine without
 *   the model it is about to replace).
 * @throws {Error} naming the file and field when a file is missing or invalid.
 */
export function loadEngineData(
  dir: string = dataDirectory(),
  options: { urlModel: boolean } = { urlModel: true },
): RawEngineData {
  const json = <S extends TSchema>(file: string, schema: S): Static<S> => {
    const value: unknown = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const validator = Compile(schema);
    if (!validator.Check(value)) {
      const first = [...validator.Errors(value)][0];
      throw new Error(`data/${file}: ${first?.instancePath ?? ''} ${first?.message ?? 'invalid'}`);
    }
    return value;
  };
  const text = (file: string): string => readFileSync(join(dir, file), 'utf8');

  const hosting = json('lists/hosting-platforms.json', HostingFileSchema);
  const shorteners = json('lists/url-shorteners.json', ShortenersFileSchema);
  return {
    brands: json('brands.json', BrandsFileSchema),
    hostingPlatforms: hosting.platforms,
    shorteners: shorteners.shorteners,
    linkInBio: shorteners.link_in_bio,
    abusedTlds: json('lists/abused-tlds.json', AbusedTldsFileSchema),
    phishingWords: json('lists/phishing-words.json', PhishingWordsFileSchema),
    fillerWords: json('lists/filler-words.json', FillerWordsFileSchema).words,
    companyWords: companyWords(json('lists/company-words.json', CompanyWordsFileSchema)),
    englishWords: text('words/english-words.txt')
      .split('\n')
      .filter((w) => w !== ''),
    popularDomains: json('lists/popular-domains.json', PopularDomainsFileSchema).domains,
    cdnEdgeSuffixes: json('lists/cdn-edge-suffixes.json', CdnEdgeFileSchema).suffixes,
    cloudEndpointSuffixes: json('lists/cloud-endpoint-suffixes.json', CdnEdgeFileSchema).suffixes,
    confusables: text('unicode/confusables.txt'),
    urlModel: options.urlModel
      ? readUrlModel(dir, json('models/url-model.json', UrlModelManifestSchema))
      : null,
  };
}

function companyWords(file: Static<typeof CompanyWordsFileSchema>): string[] {
  return [...file.geo, ...file.corporate, ...file.infrastructure, ...file.community];
}

/**
 * The model's weights, checked against the manifest's size and SHA-256: a truncated or swapped
 * weight file must stop the service, not score URLs with garbage.
 */
function readUrlModel(
  dir: string,
  manifest: Static<typeof UrlModelManifestSchema>,
): RawEngineData['urlModel'] {
  const file = join(dir, 'models', manifest.weights.file);
  const bytes = readFileSync(file);
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (bytes.length !== manifest.weights.bytes || digest !== manifest.weights.sha256) {
    throw new Error(
      `data/models/${manifest.weights.file}: size or SHA-256 differs from the manifest`,
    );
  }
  // Copy into an aligned buffer: a Buffer may start at an odd offset of Node's pool.
  const weights = new Int16Array(bytes.length / 2);
  new Uint8Array(weights.buffer).set(bytes);
  const { format, hash_bits, scale, bias, thresholds } = manifest;
  return { weights, params: { format, hash_bits, scale, bias, thresholds } };
}

let shared: Engine | undefined;

/** The engine built from the package's data, built once per process and then shared. */
export function defaultEngine(): Engine {
  shared ??= createEngine(loadEngineData());
  return shared;
}

let sharedDigest: string | undefined;

/**
 * SHA-256 (hex) over the relative path and bytes of every file in the data directory, in path
 * order: changes whenever any data the engine or the RDAP client runs on changes. Read once per
 * process for the package's own data (about 4 MB, milliseconds). The shared verdict cache keys
 * verdicts by it (docs/decisions.md, decision 117).
 *
 * @param dir data directory (default: the package's own, digested once and remembered).
 * @throws when the directory cannot be read.
 */
export function engineDataDigest(dir?: string): string {
  if (dir === undefined) {
    sharedDigest ??= digestDirectory(dataDirectory());
    return sharedDigest;
  }
  return digestDirectory(dir);
}

function digestDirectory(dir: string): string {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
  const digest = createHash('sha256');
  for (const file of files) {
    const bytes = readFileSync(join(dir, file));
    // Path and length first, so no two different trees give the same byte stream.
    digest.update(`${file}\0${bytes.length}\0`).update(bytes);
  }
  return digest.digest('hex');
}
