/**
 * @module net/resolve-override
 * curl's `--resolve host:port:address` for the outbound client: fixed answers for exact
 * host:port pairs, used to point test host names at local servers.
 *
 * SECURITY: an overridden pair skips the SSRF address check — that is its purpose (mapping
 * `feeds.test.example:8080` to `127.0.0.1`). The exemption covers only the exact host and port
 * listed: the same host on another port, or another name resolving to the same address, is
 * checked as usual. Never configure overrides (`NET_RESOLVE`) in production.
 */
import { isIP } from 'node:net';

/** One fixed answer: connect to `address` when a URL's host is `host` and its port is `port`. */
export interface ResolveOverride {
  /** Host name as the URL parser serializes it: ASCII, lowercase, no trailing dot. */
  host: string;
  /** Effective TCP port (80 / 443 when the URL gives none), 1–65535. */
  port: number;
  /** IPv4 or IPv6 address without brackets; any address, loopback included. */
  address: string;
}

export type ParseResolveOverridesResult =
  { ok: true; overrides: ResolveOverride[] } | { ok: false; message: string };

/** A DNS name (letters, digits, `-`, `_` in dot-separated labels); IP literals are not names. */
const HOST_NAME =
  /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
const PORT = /^\d{1,5}$/;

/**
 * Parse `host:port:address[,host:port:address…]` (the `NET_RESOLVE` syntax). IPv6 addresses may
 * be bracketed (`api.test.example:443:[::1]`) or bare (`api.test.example:443:::1`).
 *
 * @param text the comma-separated list; blank text gives an empty list.
 * @returns the validated overrides, or a message naming the first bad entry.
 */
export function parseResolveOverrides(text: string): ParseResolveOverridesResult {
  if (text.trim() === '') return { ok: true, overrides: [] };
  const overrides: ResolveOverride[] = [];
  for (const entry of text.split(',').map((s) => s.trim())) {
    const first = entry.indexOf(':');
    const second = entry.indexOf(':', first + 1);
    const parsed =
      first < 0 || second < 0
        ? null
        : normalizeResolveOverride({
            host: entry.slice(0, first),
            port: PORT.test(entry.slice(first + 1, second))
              ? Number(entry.slice(first + 1, second))
              : Number.NaN,
            address: entry.slice(second + 1),
          });
    if (parsed === null) {
      return { ok: false, message: `"${entry}" is not host:port:address` };
    }
    overrides.push(parsed);
  }
  return { ok: true, overrides };
}

/**
 * Validate one override and put it in canonical form (lowercase host without trailing dot,
 * address without brackets).
 *
 * @returns the canonical override, or null when the host is not a DNS name, the port is not an
 * integer in 1–65535, or the address is not an IP address.
 */
export function normalizeResolveOverride(override: ResolveOverride): ResolveOverride | null {
  const host = override.host.trim().toLowerCase().replace(/\.$/, '');
  const rawAddress = override.address.trim().toLowerCase();
  const address =
    rawAddress.startsWith('[') && rawAddress.endsWith(']') ? rawAddress.slice(1, -1) : rawAddress;
  const { port } = override;
  if (host.length > 253 || !HOST_NAME.test(host) || isIP(host) !== 0) return null;
  if (!Number.isInteger(port) || port < 1 || port > 65_535) return null;
  if (isIP(address) === 0) return null;
  return { host, port, address };
}

/**
 * The override for a URL host and effective port, if one is listed.
 *
 * @param host `URL.hostname` (lowercase; a trailing dot is ignored).
 * @param port the effective port (80 / 443 when the URL gives none).
 */
export function findResolveOverride(
  overrides: readonly ResolveOverride[],
  host: string,
  port: number,
): ResolveOverride | undefined {
  const name = host.replace(/\.$/, '');
  return overrides.find((o) => o.host === name && o.port === port);
}
