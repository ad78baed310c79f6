/**
 * Builds `data/lists/popular-domains.json` from the Tranco top-10k list in MISP warninglists (CC0)
 * under `../shared/data`, minus every domain whose subdomains or paths third parties control
 * (our hosting list, URL shorteners and link hubs, MISP dynamic-DNS and LOTS wildcard entries),
 * because popularity of a platform must never vouch for its tenants (detection.md §1.7, §4.4).
 *
 * Only Tranco is used, so the other top lists (Majestic, Cisco Umbrella, Cloudflare Radar, Moz)
 * remain independent benign sets for measuring false positives (docs/eval.md).
 *
 *   npm run data:update   regenerate
 *   npm run data:check    regenerate in memory and fail if the committed file differs
 *                         (skipped with a notice when ../shared/data is absent, as in a user's clone)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { getDomain } from 'tldts';

const root = resolve(import.meta.dirname, '..');
const shared = resolve(process.env.LINKGUARD_SHARED_DIR ?? join(root, '..', 'shared'), 'data');
const output = join(root, 'data/lists/popular-domains.json');
const check = process.argv.includes('--check');

interface MispList {
  version: number | string;
  list: string[];
}

const misp = (name: string): MispList =>
  JSON.parse(
    readFileSync(join(shared, 'misp-warninglists', name, 'list.json'), 'utf8'),
  ) as MispList;
const registrable = (host: string): string | null =>
  getDomain(host.replace(/^\.+/, ''), { allowPrivateDomains: true });

if (!existsSync(join(shared, 'misp-warninglists'))) {
  console.log(
    `data:check skipped: ${shared} is not present (only the maintainers' checkout has it).`,
  );
  process.exit(0);
}

const excluded = new Set<string>();
const hosting = JSON.parse(
  readFileSync(join(root, 'data/lists/hosting-platforms.json'), 'utf8'),
) as {
  platforms: { suffix: string; tenancy: 'subdomain' | 'path' }[];
};
const shorteners = JSON.parse(
  readFileSync(join(root, 'data/lists/url-shorteners.json'), 'utf8'),
) as {
  shorteners: string[];
  link_in_bio: string[];
};
// The engine checks hosting tenancy before popularity, so tenants never ride on a popular apex;
// excluding subdomain platforms whose apex is registrable (weebly.com) is defence in depth. Path
// platforms (docs.google.com) must not drag their whole registrable domain (google.com) out.
for (const platform of hosting.platforms) {
  if (platform.tenancy === 'subdomain' && registrable(platform.suffix) === platform.suffix) {
    excluded.add(platform.suffix);
  }
}
for (const host of [...shorteners.shorteners, ...shorteners.link_in_bio]) {
  excluded.add(host);
  const domain = registrable(host);
  if (domain !== null) excluded.add(domain);
}
for (const name of ['dynamic-dns', 'lots-project']) {
  for (const entry of misp(name).list) {
    // A leading dot means "any subdomain": tenants of that domain are not vouched for.
    if (!entry.startsWith('.') && name === 'lots-project') continue;
    const domain = registrable(entry);
    if (domain !== null) excluded.add(domain);
    excluded.add(entry.replace(/^\.+/, ''));
  }
}

const tranco = misp('tranco10k');
const domains = new Set<string>();
for (const host of tranco.list) {
  const domain = registrable(host.toLowerCase());
  if (domain !== null && !excluded.has(domain)) domains.add(domain);
}

const content = `${JSON.stringify(
  {
    source: `Tranco top-10k via MISP warninglists tranco10k v${tranco.version} (CC0), minus hosting platforms, shorteners, link hubs, MISP dynamic-dns and LOTS wildcard entries; built by scripts/build-lists.ts`,
    domains: [...domains].sort(),
  },
  null,
  2,
)}\n`;

if (check) {
  const current = existsSync(output) ? readFileSync(output, 'utf8') : '';
  if (current !== content) {
    console.error('data/lists/popular-domains.json is out of date: run npm run data:update');
    process.exit(1);
  }
  console.log(`data:check ok (${domains.size} popular domains)`);
} else {
  writeFileSync(output, content);
  console.log(
    `wrote ${output}: ${domains.size} domains (${tranco.list.length} in Tranco, ${excluded.size} excluded names)`,
  );
}
