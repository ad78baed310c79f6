/**
 * @module engine/rules/lexical-features
 * Cheap features of the URL string that phishing URLs show more often than benign ones
 * (detection.md §1.6: the UCI "Phishing Websites" address-bar features, phishing_catcher's hyphen
 * and dot weights, file extensions, e-mail addresses in fragments). None is evidence on its own;
 * scoring adds them as weak log-odds with diminishing returns.
 */
import type { ParsedUrl } from '../url/normalize-url.js';

/** One lexical feature that fired, with its log-odds weight and evidence code. */
export interface LexicalFeature {
  /** `matched_patterns` code, e.g. `lexical:many_hyphens`. */
  code: string;
  /** Log-odds contribution before damping (detection.md §4.3 starting weights). */
  weight: number;
  /** Short human description for the reason. */
  text: string;
}

/** Executables and scripts a link should not hand out (ClickFix / malware delivery, §1.6). */
const RISKY_EXTENSION =
  /\.(exe|scr|msi|msix|apk|hta|ps1|vbs|vbe|js|jse|wsf|bat|cmd|jar|dmg|pkg|iso|img|lnk|cpl)$/i;
const EMAIL = /[a-z0-9._%+-]+(@|%40)[a-z0-9.-]+\.[a-z]{2,}/i;
const HTTP_TOKEN = /(^|[-.])https?([-.]|$)/;

/**
 * Compute the lexical features of a URL.
 *
 * @param url parsed URL.
 * @param siteLabel the label that names the site (registrable label or hosting tenant), or null.
 */
export function lexicalFeatures(url: ParsedUrl, siteLabel: string | null): LexicalFeature[] {
  const out: LexicalFeature[] = [];
  const add = (code: string, weight: number, text: string): void => {
    out.push({ code: `lexical:${code}`, weight, text });
  };
  const host = url.hostname;

  if (url.hasUserinfo) add('userinfo', 2.5, 'the link hides its real host behind an "@"');
  if (url.ipVersion !== null) add('ip_host', 2.0, 'the host is a bare IP address');
  if (url.port !== null) add('non_default_port', 0.6, `it uses the unusual port ${url.port}`);
  const depth = url.subdomainLabels.filter((label) => label !== 'www').length;
  if (depth >= 4) add('deep_subdomain', 0.8, `the host is nested ${depth} levels deep`);
  const hyphens = host.split('-').length - 1;
  if (hyphens >= 4) add('many_hyphens', 0.6, `the host has ${hyphens} hyphens`);
  if (host.length > 50) add('long_host', 0.4, 'the host name is unusually long');
  if (HTTP_TOKEN.test(host)) add('http_token_in_host', 1.2, 'the host name contains "http"');
  if (host.includes('xn--'))
    add('punycode', 0.5, 'the host is an internationalized (punycode) name');
  if (siteLabel !== null) {
    const digits = siteLabel.replace(/\D/g, '').length;
    if (digits >= 5) add('digits_in_name', 0.4, 'the site name is full of digits');
    if (siteLabel.length >= 12 && shannonEntropy(siteLabel) > 3.8) {
      add('random_name', 0.5, 'the site name looks randomly generated');
    }
  }
  if (RISKY_EXTENSION.test(url.pathname)) {
    add('executable_download', 1.0, 'the link downloads an executable or script');
  }
  if (EMAIL.test(safeDecode(url.hash)) || EMAIL.test(safeDecode(url.search))) {
    add('email_in_url', 1.0, 'the link carries an e-mail address, as pre-filled phishing links do');
  }
  if (url.pathname.includes('//')) add('double_slash', 0.3, 'the path contains "//"');
  return out;
}

/** Shannon entropy in bits per character. */
function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
