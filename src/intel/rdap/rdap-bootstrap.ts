/**
 * @module intel/rdap/rdap-bootstrap
 * Which RDAP server answers for a domain: the IANA bootstrap registry for domains (RFC 9224,
 * `data/rdap/dns.json`) overlaid with linkguard's override table (`data/rdap/overrides.json`,
 * detection guide §5.2), both validated with TypeBox. Provenance and refresh: data/SOURCES.md.
 *
 * Matching follows RFC 9224 §4: the longest matching sequence of trailing labels wins
 * (`example.co.gl` tries `co.gl`, then `gl`). An override replaces the bootstrap entry for the same
 * label sequence. TLDs in the override file's `restricted_tlds` (edu, gov, int, mil: registration
 * is limited to vetted institutions) answer `restricted` and are never queried: their domains count
 * as old by policy (guide §5.2), even where a server exists (`.gov` is in the 2026 bootstrap).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import Type, { type Static, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

import { dataDirectory } from '../../engine-data/load-engine-data.js';

/** Where `linkguard rdap update-bootstrap` downloads the registry from (RFC 9224 §3). */
export const IANA_RDAP_BOOTSTRAP_URL = 'https://data.iana.org/rdap/dns.json';

/**
 * A real registry file maps about 1,200 TLDs; far fewer means a truncated or wrong download, so
 * the file is refused rather than silently losing domain age for most of the namespace.
 */
export const MIN_BOOTSTRAP_TLDS = 100;

/** A DNS label sequence as the registry writes it (`com`, `xn--p1acf`, `co.gl`). */
const Labels = Type.String({
  pattern: '^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$',
  maxLength: 253,
});
const BaseUrl = Type.String({ pattern: '^https?://[^\\s/?#]+(/[^\\s?#]*)?$', maxLength: 2048 });
/** One `services` entry: `[[label sequence, …], [base URL, …]]`. */
const Service = Type.Tuple([
  Type.Array(Labels, { minItems: 1 }),
  Type.Array(BaseUrl, { minItems: 1 }),
]);

/** RFC 9224 §3 registry file (IANA adds `description`). Unknown members are allowed. */
export const RdapBootstrapFileSchema = Type.Object({
  version: Type.Optional(Type.String()),
  publication: Type.String({ minLength: 1 }),
  description: Type.Optional(Type.String()),
  services: Type.Array(Service, { minItems: 1 }),
});

/** linkguard's override table, same `services` shape plus the restricted TLDs. */
export const RdapOverridesFileSchema = Type.Object(
  {
    description: Type.String(),
    /** Date (YYYY-MM-DD) of the source the entries were taken from. */
    updated: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
    services: Type.Array(Service),
    restricted_tlds: Type.Array(Labels),
  },
  { additionalProperties: false },
);

export type RdapBootstrapFile = Static<typeof RdapBootstrapFileSchema>;
export type RdapOverridesFile = Static<typeof RdapOverridesFileSchema>;

/** Result of {@link RdapBootstrap.lookup}. */
export type RdapServerLookup =
  /** Query `{baseUrl}domain/{domain}`; `baseUrl` ends with `/`. */
  | { kind: 'server'; tld: string; baseUrl: string; source: 'iana' | 'override' }
  /** Registration restricted to vetted institutions: old by policy, never queried. */
  | { kind: 'restricted'; tld: string }
  /** Neither the bootstrap nor the overrides know the TLD. */
  | { kind: 'none' };

/** The merged, read-only lookup table. */
export interface RdapBootstrap {
  /** `publication` of the IANA file (RFC 3339). */
  readonly publication: string;
  /** Label sequences with a server (bootstrap and overrides merged). */
  readonly tldCount: number;
  /**
   * The server for a registrable domain (lowercase ASCII, no trailing dot): the longest matching
   * trailing label sequence, the override before the bootstrap, https before http.
   */
  lookup(registrableDomain: string): RdapServerLookup;
}

export type ParseFileResult<T> = { ok: true; file: T } | { ok: false; message: string };

/**
 * Merge a bootstrap file and an override table into a lookup table. Pure; used by the loader and
 * by tests that point a bootstrap at a local server.
 */
export function createRdapBootstrap(
  bootstrap: RdapBootstrapFile,
  overrides?: RdapOverridesFile,
): RdapBootstrap {
  const servers = new Map<string, { baseUrl: string; source: 'iana' | 'override' }>();
  const add = (file: { services: RdapBootstrapFile['services'] }, source: 'iana' | 'override') => {
    for (const [labels, urls] of file.services) {
      const baseUrl = preferredBaseUrl(urls);
      for (const label of labels) servers.set(label.toLowerCase(), { baseUrl, source });
    }
  };
  add(bootstrap, 'iana');
  if (overrides !== undefined) add(overrides, 'override');
  const restricted = new Set((overrides?.restricted_tlds ?? []).map((t) => t.toLowerCase()));

  return {
    publication: bootstrap.publication,
    tldCount: servers.size,
    lookup(registrableDomain: string): RdapServerLookup {
      const labels = registrableDomain.toLowerCase().replace(/\.$/, '').split('.');
      // Proper suffixes only: the domain itself is not a registry zone.
      for (let start = 1; start < labels.length; start++) {
        const tld = labels.slice(start).join('.');
        if (restricted.has(tld)) return { kind: 'restricted', tld };
        const server = servers.get(tld);
        if (server !== undefined) return { kind: 'server', tld, ...server };
      }
      return { kind: 'none' };
    },
  };
}

/**
 * RFC 9224 §3 lists base URLs "in order of preference"; linkguard moves https ahead of http (a
 * registration date read over plain HTTP could be altered on the way) but still uses http when a
 * registry offers nothing else (`.kg`, `.mg` in 2026). RFC 9224 base URLs end with `/`; one that
 * does not gets it, so `{base}domain/{name}` stays under the base path.
 */
function preferredBaseUrl(urls: readonly string[]): string {
  const chosen = urls.find((u) => u.startsWith('https://')) ?? urls[0] ?? '';
  return chosen.endsWith('/') ? chosen : `${chosen}/`;
}

/**
 * Parse and validate the text of an IANA bootstrap file: JSON, the RFC 9224 shape, `com` present
 * and at least {@link MIN_BOOTSTRAP_TLDS} label sequences.
 */
export function parseRdapBootstrapFile(text: string): ParseFileResult<RdapBootstrapFile> {
  const parsed = parseJson(text, RdapBootstrapFileSchema);
  if (!parsed.ok) return parsed;
  const labels = new Set(parsed.file.services.flatMap(([l]) => l.map((x) => x.toLowerCase())));
  if (!labels.has('com')) return { ok: false, message: 'no entry for "com"' };
  if (labels.size < MIN_BOOTSTRAP_TLDS) {
    return {
      ok: false,
      message: `only ${labels.size} TLDs (a real registry has over ${MIN_BOOTSTRAP_TLDS})`,
    };
  }
  return parsed;
}

/** Parse and validate the text of `data/rdap/overrides.json`. */
export function parseRdapOverridesFile(text: string): ParseFileResult<RdapOverridesFile> {
  return parseJson(text, RdapOverridesFileSchema);
}

function parseJson<S extends TSchema>(text: string, schema: S): ParseFileResult<Static<S>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: 'not JSON' };
  }
  const validator = Compile(schema);
  if (!validator.Check(value)) {
    const first = [...validator.Errors(value)][0];
    return {
      ok: false,
      message: `${first?.instancePath ?? ''} ${first?.message ?? 'invalid'}`.trim(),
    };
  }
  return { ok: true, file: value };
}

/** `data/rdap/` of this package. */
export function rdapDataDirectory(): string {
  return join(dataDirectory(), 'rdap');
}

/**
 * Read, validate and merge `dns.json` and `overrides.json`. Runs once at start-up.
 *
 * @param dir directory holding both files (default {@link rdapDataDirectory}).
 * @throws {Error} naming the file and the problem when a file is missing or invalid.
 */
export function loadRdapBootstrap(dir: string = rdapDataDirectory()): RdapBootstrap {
  const read = <T>(file: string, parse: (text: string) => ParseFileResult<T>): T => {
    const result = parse(readFileSync(join(dir, file), 'utf8'));
    if (!result.ok) throw new Error(`data/rdap/${file}: ${result.message}`);
    return result.file;
  };
  return createRdapBootstrap(
    read('dns.json', parseRdapBootstrapFile),
    read('overrides.json', parseRdapOverridesFile),
  );
}
