/**
 * @module engine/url/normalize-url
 * The one place where untrusted URL text becomes a structured URL. It applies the URL rules of
 * docs/decisions.md, "URL input", and is total: it returns `{ ok: false, reason }` instead of
 * throwing.
 *
 * Parsing is the WHATWG URL parser (the same one every later fetch uses, so there is no parser
 * differential between what we judge and what we would fetch) plus tldts for the Public Suffix
 * List with its private section, so `x.pages.dev` has registrable domain `x.pages.dev`.
 */
import { domainToUnicode } from 'node:url';

import { parse as parseDomain } from 'tldts';

import { classifyIp } from './classify-ip.js';

/** Maximum accepted input length in characters (README, "API": ≤ 2048). */
export const MAX_URL_LENGTH = 2048;

/** Why a URL was refused; each becomes `invalid_url` with this as `reason`. */
export type UrlRejection =
  | 'empty'
  | 'too_long'
  | 'unsupported_scheme'
  | 'malformed'
  | 'invalid_host'
  | 'private_address'
  | 'special_use_name'
  | 'unknown_tld';

/** A URL that passed every rule, split into the parts detection works on. */
export interface ParsedUrl {
  /** Canonical serialization (WHATWG, trailing dot of the host removed): the normalized URL. */
  href: string;
  scheme: 'http' | 'https';
  /** ASCII host (punycode for IDNs), lowercase, no trailing dot, IPv6 without brackets. */
  hostname: string;
  /** Unicode form of the host (IDNA ToUnicode), equal to `hostname` for ASCII hosts. */
  hostnameUnicode: string;
  /** Explicit non-default port, or null. */
  port: number | null;
  pathname: string;
  /** Query string including `?`, or ''. */
  search: string;
  /** Fragment including `#`, or ''. */
  hash: string;
  /**
   * True when the authority carried userinfo (`user@host`): evidence in itself
   * (docs/decisions.md, "URL input").
   */
  hasUserinfo: boolean;
  /** Decoded username part of the userinfo, or ''. */
  username: string;
  /** IP version when the host is an IP literal, else null. */
  ipVersion: 4 | 6 | null;
  /** Registrable domain (eTLD+1, private PSL section included); null for IP hosts. */
  registrableDomain: string | null;
  /** The registrable domain without its suffix (`paypal` of `paypal.co.uk`); null for IP hosts. */
  domainLabel: string | null;
  /** Public suffix with the private section (`pages.dev`, `co.uk`); null for IP hosts. */
  publicSuffix: string | null;
  /** ICANN public suffix only (`dev`, `co.uk`); null for IP hosts. */
  icannSuffix: string | null;
  /** True when `publicSuffix` comes from the PSL private section (hosting platforms). */
  privateSuffix: boolean;
  /** Labels left of the registrable domain, outermost first (`['www']`); [] when none. */
  subdomainLabels: string[];
  /**
   * The host is itself a Public Suffix List entry (`gov.uk`, `s3.amazonaws.com`, `dweb.link`,
   * `vitalik.eth.limo` under the `*.eth.limo` wildcard): it is then its own site, so
   * `registrableDomain` is the host, `domainLabel` its first label and `publicSuffix` the rest.
   */
  hostIsSuffix: boolean;
}

export type NormalizeResult =
  { ok: true; url: ParsedUrl } | { ok: false; reason: UrlRejection; message: string };

/**
 * Special-use names that never denote a public site. Sources: IANA "Special-Use Domain Names"
 * registry (RFC 6761: localhost, invalid, test, example; RFC 6762: local; RFC 7686: onion;
 * RFC 8375: home.arpa; RFC 9476: alt), ICANN board resolution 2024.07.29.06 (`internal`), and
 * `arpa` as infrastructure-only (RFC 3172). `example.com/.net/.org` are left alone: they resolve
 * publicly and RFC 6761 §6.5 asks applications not to treat them specially.
 */
const SPECIAL_USE_TLDS: ReadonlySet<string> = new Set([
  'localhost',
  'local',
  'invalid',
  'test',
  'example',
  'onion',
  'alt',
  'internal',
  'arpa',
]);

const SCHEME_PREFIX = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
/** After `name:` a port (digits) then the end or a path/query/fragment: `example.com:8080/x`. */
const PORT_AFTER_COLON = /^\d+(?:[/?#]|$)/;
/** An ASCII DNS label after IDNA: letters, digits, hyphen inside, underscore tolerated. */
const DNS_LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

const reject = (reason: UrlRejection, message: string): NormalizeResult => ({
  ok: false,
  reason,
  message,
});

/**
 * Validate and parse a URL or bare host as docs/decisions.md, "URL input", describes.
 *
 * - http and https only; a bare host (`example.com`, `example.com/path`) reads as `https://…`.
 * - At most {@link MAX_URL_LENGTH} characters after trimming.
 * - IP literals must be public unicast in every spelling the URL parser accepts ({@link
 * classifyIp}). - Special-use names (`localhost`, `*.local`, `*.onion`, …) and hosts whose
 * top-level domain is not
 *   in the Public Suffix List are refused: neither can be a public web site.
 * - A host that is itself a Public Suffix List entry (`gov.uk`, `nhs.uk`, `s3.amazonaws.com`,
 *   `dweb.link`, `bubbleapps.io`, `ngrok.app`, `vitalik.eth.limo`) is accepted and judged as its
 *   own site (`hostIsSuffix`; docs/decisions.md, decision 88); only a lone TLD (`https://com/`)
 *   is refused (`invalid_host`).
 * - Userinfo is allowed and reported (`hasUserinfo`).
 *
 * @param input untrusted text from a request, CLI argument or file.
 * @returns the parsed URL, or the rejection reason with a human message.
 */
export function normalizeUrl(input: string): NormalizeResult {
  const text = input.trim();
  if (text === '') return reject('empty', 'URL is empty');
  if (text.length > MAX_URL_LENGTH) {
    return reject('too_long', `URL is longer than ${MAX_URL_LENGTH} characters`);
  }

  const withScheme = addSchemeIfBare(text);
  if (withScheme === null) {
    return reject('unsupported_scheme', 'Only http and https URLs (or a bare host) are accepted');
  }

  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return reject('malformed', 'URL is not well formed');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return reject('unsupported_scheme', 'Only http and https URLs are accepted');
  }

  // The parser keeps a trailing dot (`paypal.com.`); it names the same host, so drop it.
  if (url.hostname.endsWith('.') && !url.hostname.startsWith('[')) {
    url.hostname = url.hostname.replace(/\.+$/, '');
  }
  const host = url.hostname;
  if (host === '') return reject('invalid_host', 'URL has no host');

  const ip = classifyIp(host);
  if (ip.kind === 'blocked') {
    return reject(
      'private_address',
      `URL points at a non-public address (${ip.range}); only public hosts can be checked`,
    );
  }
  if (ip.kind === 'public') return { ok: true, url: ipUrl(url, ip.version) };

  return hostUrl(url, host);
}

/** Prefix `https://` to a bare host; null for another scheme (`javascript:`, `mailto:`, `ftp:`). */
function addSchemeIfBare(text: string): string | null {
  if (text.startsWith('//')) return `https:${text}`;
  const match = SCHEME_PREFIX.exec(text);
  if (match === null) return `https://${text}`;
  const scheme = (match[1] ?? '').toLowerCase();
  if (scheme === 'http' || scheme === 'https') return text;
  // `example.com:8443/x` looks like a scheme to the regex but is host:port.
  return PORT_AFTER_COLON.test(text.slice(match[0].length)) ? `https://${text}` : null;
}

/**
 * The parsed URL as one object literal with a fixed field order. (Built with an object spread it
 * cost ~10 µs per URL: V8 gave the result a slow dictionary shape.)
 */
function parsedUrl(url: URL, host: HostParts): ParsedUrl {
  return {
    href: url.href,
    scheme: url.protocol === 'http:' ? 'http' : 'https',
    hostname: host.hostname,
    hostnameUnicode: host.hostnameUnicode,
    port: url.port === '' ? null : Number(url.port),
    pathname: url.pathname,
    search: url.search,
    hash: url.hash,
    hasUserinfo: url.username !== '' || url.password !== '',
    username: url.username === '' ? '' : safeDecode(url.username),
    ipVersion: host.ipVersion,
    registrableDomain: host.registrableDomain,
    domainLabel: host.domainLabel,
    publicSuffix: host.publicSuffix,
    icannSuffix: host.icannSuffix,
    privateSuffix: host.privateSuffix,
    subdomainLabels: host.subdomainLabels,
    hostIsSuffix: host.hostIsSuffix,
  };
}

type HostParts = Pick<
  ParsedUrl,
  | 'hostname'
  | 'hostnameUnicode'
  | 'ipVersion'
  | 'registrableDomain'
  | 'domainLabel'
  | 'publicSuffix'
  | 'icannSuffix'
  | 'privateSuffix'
  | 'subdomainLabels'
  | 'hostIsSuffix'
>;

function ipUrl(url: URL, version: 4 | 6): ParsedUrl {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  return parsedUrl(url, {
    hostname,
    hostnameUnicode: hostname,
    ipVersion: version,
    registrableDomain: null,
    domainLabel: null,
    publicSuffix: null,
    icannSuffix: null,
    privateSuffix: false,
    subdomainLabels: [],
    hostIsSuffix: false,
  });
}

function hostUrl(url: URL, host: string): NormalizeResult {
  const labels = host.split('.');
  if (host.length > 253 || labels.some((label) => !DNS_LABEL.test(label))) {
    return reject('invalid_host', 'Host name is not a valid DNS name');
  }
  const tld = labels[labels.length - 1] ?? '';
  if (SPECIAL_USE_TLDS.has(tld)) {
    return reject('special_use_name', `"${tld}" is a special-use name, not a public site`);
  }

  const parsed = parseDomain(host, { allowPrivateDomains: true, extractHostname: false });
  if (parsed.isIcann !== true && parsed.isPrivate !== true) {
    return reject('unknown_tld', 'Host has no known public top-level domain');
  }
  // IDNA ToUnicode is an ICU call; only punycode labels can change under it.
  const unicode = host.includes('xn--') ? domainToUnicode(host) : host;
  const hostnameUnicode = unicode === '' ? host : unicode;
  const registrable = parsed.domain;
  if (registrable === null) {
    // The host is a public suffix itself: a government portal (`gov.uk`), a platform's own front
    // page or path-style tenancy (`s3.amazonaws.com/bucket/…`, `dweb.link/ipfs/…`). These are
    // real sites; judge them as their own site. A lone TLD (`https://com/`) is not one.
    if (labels.length < 2) {
      return reject('invalid_host', 'A top-level domain alone is not a web site');
    }
    return { ok: true, url: parsedUrl(url, suffixHostParts(host, hostnameUnicode, parsed)) };
  }
  // The ICANN suffix differs only under a private suffix (`x.pages.dev` → `dev`): parse again then.
  const icannSuffix =
    parsed.isPrivate === true
      ? parseDomain(host, { allowPrivateDomains: false, extractHostname: false }).publicSuffix
      : parsed.publicSuffix;
  const subdomain = parsed.subdomain ?? '';
  return {
    ok: true,
    url: parsedUrl(url, {
      hostname: host,
      hostnameUnicode,
      ipVersion: null,
      registrableDomain: registrable,
      domainLabel: parsed.domainWithoutSuffix,
      publicSuffix: parsed.publicSuffix,
      icannSuffix,
      privateSuffix: parsed.isPrivate === true,
      subdomainLabels: subdomain === '' ? [] : subdomain.split('.'),
      hostIsSuffix: false,
    }),
  };
}

/**
 * Parts of a host that is a Public Suffix List entry: its own site, named by its first label,
 * under the rest of the host as suffix (`gov.uk` → label `gov`, suffix `uk`).
 */
function suffixHostParts(
  host: string,
  hostnameUnicode: string,
  parsed: ReturnType<typeof parseDomain>,
): HostParts {
  const dot = host.indexOf('.');
  const rest = host.slice(dot + 1);
  const icann =
    parsed.isPrivate === true
      ? parseDomain(host, { allowPrivateDomains: false, extractHostname: false }).publicSuffix
      : parsed.publicSuffix;
  return {
    hostname: host,
    hostnameUnicode,
    ipVersion: null,
    registrableDomain: host,
    domainLabel: host.slice(0, dot),
    publicSuffix: rest,
    // `gov.uk` is an ICANN suffix itself; its own suffix for TLD rules is the rest (`uk`).
    icannSuffix: icann === host ? rest : icann,
    privateSuffix: parsed.isPrivate === true,
    subdomainLabels: [],
    hostIsSuffix: true,
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
