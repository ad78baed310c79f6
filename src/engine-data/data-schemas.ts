/**
 * @module engine-data/data-schemas
 * TypeBox schemas of the data files in `data/`. The loader checks every file against its schema
 * at start-up so a bad hand edit stops the service with the file and the field named, instead of
 * silently weakening detection.
 */
import Type, { type TArray, type TString } from 'typebox';

import { BRAND_CATEGORIES, WORD_GROUPS, type WordGroup } from '../engine/engine-data.js';

const Host = Type.String({ pattern: '^[a-z0-9][a-z0-9.-]*[a-z0-9]$' });

export const BrandSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' }),
    name: Type.String({ minLength: 1 }),
    aliases: Type.Array(Type.String({ minLength: 1 })),
    tokens: Type.Array(Type.String({ pattern: '^[a-z0-9]{3,}$' }), { minItems: 1 }),
    common_word: Type.Boolean(),
    self_hosted: Type.Optional(Type.Boolean()),
    domains: Type.Array(Host, { minItems: 1 }),
    category: Type.Union(BRAND_CATEGORIES.map((c) => Type.Literal(c))),
    country: Type.String({ pattern: '^[A-Z]{2}$' }),
    scope: Type.Union([Type.Literal('global'), Type.Literal('national')]),
    /** How the entry's official domains were established (batches added from 2026-11-26). */
    source: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

export const BrandsFileSchema = Type.Array(BrandSchema, { minItems: 1 });

export const HostingFileSchema = Type.Object({
  platforms: Type.Array(
    Type.Object(
      {
        suffix: Host,
        operator: Type.String(),
        kind: Type.Union(
          ['static', 'builder', 'tunnel', 'ddns', 'ipfs', 'storage', 'shared'].map((k) =>
            Type.Literal(k),
          ),
        ),
        tenancy: Type.Union([Type.Literal('subdomain'), Type.Literal('path')]),
        psl: Type.Boolean(),
        path_prefixes: Type.Optional(Type.Array(Type.String({ pattern: '^/' }))),
      },
      { additionalProperties: false },
    ),
  ),
});

export const ShortenersFileSchema = Type.Object({
  shorteners: Type.Array(Host),
  link_in_bio: Type.Array(Host),
});

export const AbusedTldsFileSchema = Type.Object({
  tier_a: Type.Array(Type.String()),
  tier_b: Type.Array(Type.String()),
  tier_c: Type.Array(Type.String()),
});

export const PhishingWordsFileSchema = Type.Object(
  Object.fromEntries(
    WORD_GROUPS.map((g) => [g, Type.Array(Type.String({ pattern: '^[a-z0-9]+$' }))]),
  ) as Record<WordGroup, TArray<TString>>,
);

export const FillerWordsFileSchema = Type.Object({ words: Type.Array(Type.String()) });

const WordList = Type.Array(Type.String({ pattern: '^[a-z0-9]+$' }));
export const CompanyWordsFileSchema = Type.Object({
  _comment: Type.String(),
  geo: WordList,
  corporate: WordList,
  infrastructure: WordList,
  community: WordList,
});

/** A documented list of host suffixes (`cdn-edge-suffixes.json`, `cloud-endpoint-suffixes.json`). */
export const CdnEdgeFileSchema = Type.Object({ note: Type.String(), suffixes: Type.Array(Host) });

export const PopularDomainsFileSchema = Type.Object({
  source: Type.String(),
  domains: Type.Array(Host),
});

/** The scoring parameters of `data/models/url-model.json` (the rest of the manifest documents it). */
export const UrlModelManifestSchema = Type.Object({
  format: Type.Literal('linkguard-url-model/1'),
  hash_bits: Type.Integer({ minimum: 8, maximum: 24 }),
  scale: Type.Number({ exclusiveMinimum: 0 }),
  bias: Type.Number(),
  thresholds: Type.Object({
    support: Type.Number(),
    caution: Type.Number(),
    strong: Type.Number(),
  }),
  weights: Type.Object({
    file: Type.String({ pattern: '^[a-z0-9.-]+$' }),
    bytes: Type.Integer({ minimum: 0 }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  }),
});
