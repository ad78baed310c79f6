/**
 * @module ratelimit/source-address
 * Which "source" a client address counts as for every per-source budget (per-IP detect
 * requests, the connector's sign-in steps, failed authentications; docs/decisions.md, decision
 * 132). An IPv4 address is its own source. An IPv6 address counts as its /64: one subscriber,
 * host or cloud instance is routinely given a whole /64 (RFC 6177, RIPE-690 §4.2), so counting
 * single IPv6 addresses would give one client 2^64 budgets. An IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`, what a dual-stack socket reports for an IPv4 peer) is the IPv4 address.
 * Parsing is ipaddr.js's, not ours.
 */
import ipaddr from 'ipaddr.js';

/** Prefix length of an IPv6 source. */
export const IPV6_SOURCE_PREFIX = 64;

/**
 * The source key of a client address.
 *
 * @param address the client address as Fastify reports it (`request.ip`): dotted IPv4, or IPv6
 *   in any RFC 4291 text form, possibly IPv4-mapped or with a zone id.
 * @returns the IPv4 address (`192.0.2.1`), or the IPv6 /64 in RFC 5952 form
 *   (`2001:db8:1:2::/64`); a value that is not an IP address (never the case for a socket
 *   address) is returned unchanged, so it still counts as a source of its own.
 */
export function sourceOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const bytes = parsed.toByteArray().map((byte, i) => (i < IPV6_SOURCE_PREFIX / 8 ? byte : 0));
  const network = ipaddr.fromByteArray(bytes);
  return `${network instanceof ipaddr.IPv6 ? network.toRFC5952String() : network.toString()}/${IPV6_SOURCE_PREFIX}`;
}
