/**
 * @module engine/url/classify-ip
 * Decides whether an IP literal may be the host of a URL we judge. Only globally routable unicast
 * addresses pass: a detection service must never be pointed at loopback, private, link-local,
 * CGNAT, multicast or reserved space (spec §2.1 "must not point at a private IP"; DESIGN §4.9).
 *
 * Input is the host exactly as the WHATWG URL parser serialized it, which has already turned the
 * decimal (`2130706433`), octal (`0177.0.0.1`), hex (`0x7f.1`) and short (`127.1`) IPv4 spellings
 * into dotted decimal and compressed IPv6 — so classification sees one canonical form.
 */
import ipaddr from 'ipaddr.js';

/** Outcome of {@link classifyIp}. `range` is ipaddr.js's range name (e.g. `loopback`, `private`). */
export type IpClass =
  | { kind: 'not_ip' }
  | { kind: 'public'; version: 4 | 6; address: string }
  | { kind: 'blocked'; version: 4 | 6; address: string; range: string };

/**
 * Classify a URL host that may be an IP literal.
 *
 * IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is unwrapped and judged as IPv4. Every IPv6 range other
 * than global unicast is refused, including the transition ranges that embed an IPv4 address
 * (6to4 `2002::/16`, Teredo `2001::/32`, NAT64 `64:ff9b::/96`) and the deprecated IPv4-compatible
 * `::/96`, because each can smuggle a private IPv4 target. Ranges: ipaddr.js 2.x `range()`, which
 * follows the IANA IPv4/IPv6 Special-Purpose Address Registries.
 *
 * @param host URL hostname; IPv6 may be bracketed (`[::1]`) as `URL.hostname` returns it.
 */
export function classifyIp(host: string): IpClass {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  // Cheap gate before ipaddr.js (whose parsers cost more than the rest of URL parsing): after the
  // URL parser an IP host is dotted-decimal IPv4 or contains ':' (IPv6); anything else is a name.
  if (!bare.includes(':') && !DOTTED_QUAD.test(bare)) return NOT_IP;
  if (!ipaddr.isValid(bare)) return NOT_IP;
  const parsed = ipaddr.parse(bare);
  const address = ipaddr.process(bare);
  const version = address.kind() === 'ipv4' ? 4 : 6;
  const text = address.toString();
  const range = address.range();
  if (range !== 'unicast') return { kind: 'blocked', version, address: text, range };
  if (address.kind() === 'ipv6' && parsed.kind() === 'ipv6') {
    if (isIpv4Compatible(text))
      return { kind: 'blocked', version, address: text, range: 'ipv4Compatible' };
    // ipaddr.js calls every unlisted IPv6 address "unicast"; only 2000::/3 is allocated as global
    // unicast (RFC 4291 §2.4, IANA IPv6 Address Space registry).
    if (!address.match(GLOBAL_UNICAST_V6))
      return { kind: 'blocked', version, address: text, range: 'notGlobalUnicast' };
  }
  return { kind: 'public', version, address: text };
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const DOTTED_QUAD = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const NOT_IP: IpClass = Object.freeze({ kind: 'not_ip' });

/** `::a.b.c.d` (RFC 4291 §2.5.5.1, deprecated): ipaddr.js reports it as unicast. */
function isIpv4Compatible(text: string): boolean {
  const parts = ipaddr.IPv6.parse(text).parts;
  return parts.slice(0, 6).every((p) => p === 0);
}
