/**
 * @module cli/commands/rdap-command
 * `linkguard rdap update-bootstrap [--url URL] [--out FILE]`: download the IANA RDAP bootstrap for
 * domains (RFC 9224) through the SSRF-safe client, validate it (shape, `com` present, ≥ 100 TLDs)
 * and replace `data/rdap/dns.json` atomically (temp file in the same directory, then rename). An
 * invalid download leaves the old file in place and exits 1.
 *
 * `linkguard rdap lookup DOMAIN [--json]`: the age of one registrable domain as the service sees
 * it (bootstrap, overrides, restricted TLDs), for operators. It waits for a slow registry instead
 * of giving up at RDAP_TIMEOUT_MS. Exit 0 when the age is known or exempt, 1 when unknown.
 *
 * Both read the same environment as the server (NET_RESOLVE, RDAP_ENABLED, RDAP_TIMEOUT_MS).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { domainToASCII } from 'node:url';

import { Command } from 'commander';
import pc from 'picocolors';

import { type Clock, systemClock } from '../../clock.js';
import { loadConfig } from '../../config/config.js';
import {
  IANA_RDAP_BOOTSTRAP_URL,
  loadRdapBootstrap,
  parseRdapBootstrapFile,
  type RdapBootstrap,
  rdapDataDirectory,
} from '../../intel/rdap/rdap-bootstrap.js';
import {
  createRdapClient,
  disabledRdapClient,
  type DomainAge,
  type RdapClient,
} from '../../intel/rdap/rdap-client.js';
import { createHttpClient, type HttpClient, isNetError } from '../../net/index.js';
import { SERVICE_VERSION } from '../../version.js';

/** Seams for tests; production uses the defaults. */
export interface RdapCommandOptions {
  /** Outbound client; default one built from the configuration (NET_RESOLVE). */
  createHttp?: () => HttpClient;
  /** Bootstrap for `lookup`; default data/rdap/. */
  loadBootstrap?: () => RdapBootstrap;
  clock?: Clock;
}

/** The bootstrap is ~70 KB; 4 MB leaves room for growth and still bounds memory. */
const MAX_BOOTSTRAP_BYTES = 4 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 30_000;
const DAY_MS = 24 * 60 * 60 * 1000;

export function rdapCommand(options: RdapCommandOptions = {}): Command {
  const createHttp =
    options.createHttp ??
    (() =>
      createHttpClient({
        userAgent: `linkguard/${SERVICE_VERSION}`,
        resolveOverrides: loadConfig().netResolve,
      }));
  const clock = options.clock ?? systemClock;

  const rdap = new Command('rdap').description('domain age over RDAP: bootstrap file and lookups');
  rdap
    .command('update-bootstrap')
    .description('download and validate the IANA RDAP bootstrap, then replace data/rdap/dns.json')
    .option('--url <url>', 'where to download it from', IANA_RDAP_BOOTSTRAP_URL)
    .option('--out <file>', 'file to replace (default data/rdap/dns.json)')
    .action(async (opts: { url: string; out?: string }) => {
      const out = opts.out ?? join(rdapDataDirectory(), 'dns.json');
      const http = createHttp();
      try {
        process.exitCode = await updateBootstrap(http, opts.url, out, clock.now());
      } finally {
        await http.close();
      }
    });
  rdap
    .command('lookup')
    .description('show the registration date and age of a registrable domain')
    .argument('<domain>', 'registrable domain, e.g. example.com')
    .option('--json', 'print the result as JSON')
    .action(async (domain: string, opts: { json?: boolean }) => {
      const config = loadConfig();
      const bootstrap = (options.loadBootstrap ?? loadRdapBootstrap)();
      const http = config.rdapEnabled ? createHttp() : null;
      try {
        const client =
          http === null
            ? disabledRdapClient
            : createRdapClient({ http, bootstrap, clock, timeoutMs: config.rdapTimeoutMs });
        const age = await lookupPatiently(client, domain);
        const server = bootstrap.lookup(domainToASCII(domain.trim()));
        const serverUrl = server.kind === 'server' ? server.baseUrl : null;
        if (opts.json === true) console.log(JSON.stringify({ domain, server: serverUrl, ...age }));
        else console.log(describeAge(domain, age, serverUrl));
        process.exitCode = age.status === 'unknown' ? 1 : 0;
      } finally {
        await http?.close();
      }
    });
  return rdap;
}

/** An operator can wait: past the verdict budget, take the background answer when it lands. */
async function lookupPatiently(client: RdapClient, domain: string): Promise<DomainAge> {
  const age = await client.domainAge(domain);
  if (age.status !== 'unknown' || age.reason !== 'timeout') return age;
  await client.whenIdle();
  return client.peek(domain) ?? age;
}

function describeAge(domain: string, age: DomainAge, server: string | null): string {
  const via = server === null ? '' : pc.dim(` (${server})`);
  switch (age.status) {
    case 'known': {
      const date = new Date(age.registeredAt).toISOString().slice(0, 10);
      const days = age.ageDays.toLocaleString('en-US');
      const fresh = age.ageDays < 30 ? pc.yellow(' fresh') : '';
      return `${domain}: ${age.basis} ${date}, ${days} days ago${fresh}${via}`;
    }
    case 'exempt':
      return `${domain}: old by policy (.${age.tld} registration is restricted), not queried`;
    case 'unknown':
      return `${domain}: age unknown (${age.reason})${via}`;
  }
}

/**
 * Download, validate and atomically replace `out`.
 *
 * @returns the exit code: 0 replaced, 1 download or validation failed (old file kept).
 */
async function updateBootstrap(
  http: HttpClient,
  url: string,
  out: string,
  now: number,
): Promise<number> {
  let bytes: Buffer;
  try {
    const response = await http.fetch(url, {
      method: 'GET',
      headers: { accept: 'application/json' },
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
      maxBytes: MAX_BOOTSTRAP_BYTES,
      maxRedirects: 3,
    });
    if (response.status !== 200) {
      console.error(
        pc.red(`Download failed: HTTP ${response.status} from ${url}; ${out} unchanged.`),
      );
      return 1;
    }
    bytes = response.body;
  } catch (error) {
    const why = isNetError(error) ? error.code : error instanceof Error ? error.message : 'error';
    console.error(pc.red(`Download failed (${why}) from ${url}; ${out} unchanged.`));
    return 1;
  }
  const parsed = parseRdapBootstrapFile(bytes.toString('utf8'));
  if (!parsed.ok) {
    console.error(pc.red(`Refused ${url}: ${parsed.message}; ${out} unchanged.`));
    return 1;
  }
  const previous = previousPublication(out);
  // Same directory, so the rename is atomic: readers see the old file or the new one, never half.
  const temp = join(dirname(out), `.${basename(out)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, bytes, { flag: 'wx' });
    await rename(temp, out);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  const tlds = new Set(parsed.file.services.flatMap(([labels]) => labels)).size;
  const age = Math.floor((now - Date.parse(parsed.file.publication)) / DAY_MS);
  console.log(
    `Updated ${out}: publication ${parsed.file.publication}` +
      (previous === null ? '' : ` (was ${previous})`) +
      `, ${tlds} TLDs` +
      (Number.isFinite(age) && age > 30 ? pc.yellow(` — published ${age} days ago`) : '') +
      '.',
  );
  return 0;
}

function previousPublication(file: string): string | null {
  if (!existsSync(file)) return null;
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof value === 'object' && value !== null && 'publication' in value) {
      return typeof value.publication === 'string' ? value.publication : null;
    }
    return null;
  } catch {
    return null;
  }
}
