/**
 * Generators of URL spellings for the URL-validation properties: every spelling the WHATWG URL
 * parser accepts for a private or reserved address (decimal, octal, hex and short IPv4 forms,
 * leading zeros, full-width and circled digits, ideographic full stops, percent-encoded hosts,
 * IPv4-mapped and -compatible IPv6, NAT64, 6to4, Teredo, link-local with a zone id, trailing
 * dots, `localhost` and the other special-use names in ASCII, upper case and full-width forms),
 * and public hosts in the same spellings, which must be accepted.
 *
 * Ranges: the IANA IPv4 and IPv6 Special-Purpose Address Registries
 * (https://www.iana.org/assignments/iana-ipv4-special-registry,
 * https://www.iana.org/assignments/iana-ipv6-special-registry); special-use names: the IANA
 * Special-Use Domain Names registry (RFC 6761 and successors). Spellings: the WHATWG URL
 * Standard, "IPv4 parser" and "host parsing" (https://url.spec.whatwg.org/#concept-ipv4-parser).
 */
import fc from 'fast-check';

/** An IPv4 address as four octets. */
export type Octets = readonly [number, number, number, number];

/** Private, loopback, link-local, shared, reserved, documentation, multicast and broadcast. */
const BLOCKED_V4_RANGES: readonly (readonly [Octets, number])[] = [
  [[0, 0, 0, 0], 8],
  [[10, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10],
  [[127, 0, 0, 0], 8],
  [[169, 254, 0, 0], 16],
  [[172, 16, 0, 0], 12],
  [[192, 0, 0, 0], 24],
  [[192, 0, 2, 0], 24],
  [[192, 88, 99, 0], 24],
  [[192, 168, 0, 0], 16],
  [[198, 18, 0, 0], 15],
  [[198, 51, 100, 0], 24],
  [[203, 0, 113, 0], 24],
  [[224, 0, 0, 0], 4],
  [[240, 0, 0, 0], 4],
];

function toInt(o: Octets): number {
  return ((o[0] << 24) >>> 0) + (o[1] << 16) + (o[2] << 8) + o[3];
}

function fromInt(n: number): Octets {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
}

function inRange(address: Octets, [base, bits]: readonly [Octets, number]): boolean {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (toInt(address) & mask) >>> 0 === (toInt(base) & mask) >>> 0;
}

/** A blocked IPv4 address: any address inside one of the special-purpose ranges. */
export const blockedIpv4: fc.Arbitrary<Octets> = fc
  .tuple(fc.constantFrom(...BLOCKED_V4_RANGES), fc.integer({ min: 0, max: 0xffffffff }))
  .map(([[base, bits], random]) => {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return fromInt(((toInt(base) & mask) | (random & ~mask)) >>> 0);
  });

/** A public unicast IPv4 address (outside every special-purpose range). */
export const publicIpv4: fc.Arbitrary<Octets> = fc
  .tuple(
    fc.integer({ min: 1, max: 223 }),
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
  )
  .map((o): Octets => o)
  .filter((o) => !BLOCKED_V4_RANGES.some((range) => inRange(o, range)));

/** Dotted-decimal serialization, what the URL parser turns every IPv4 spelling into. */
export function dotted(o: Octets): string {
  return o.join('.');
}

const hex = (n: number, upper: boolean) => {
  const digits = n.toString(16);
  return `0${upper ? 'X' : 'x'}${upper ? digits.toUpperCase() : digits}`;
};
const octal = (n: number) => `0${n.toString(8)}`;

/** One part of an IPv4 spelling in decimal, octal or hex (WHATWG IPv4 number parser). */
const radix = fc.constantFrom<'dec' | 'oct' | 'hex' | 'HEX'>('dec', 'oct', 'hex', 'HEX');

function writePart(n: number, base: 'dec' | 'oct' | 'hex' | 'HEX', zeros: number): string {
  if (base === 'dec') return n.toString(10);
  if (base === 'oct') return '0'.repeat(zeros) + octal(n);
  return hex(n, base === 'HEX');
}

/**
 * Every IPv4 spelling the URL parser reads as `o`: 1 to 4 parts (the last one covers the
 * remaining bytes), each in decimal, octal or hex.
 */
export function ipv4Spelling(o: Octets): fc.Arbitrary<string> {
  const n = toInt(o);
  return fc
    .tuple(
      fc.integer({ min: 1, max: 4 }),
      fc.array(radix, { minLength: 4, maxLength: 4 }),
      fc.integer({ min: 0, max: 2 }),
    )
    .map(([partsCount, bases, zeros]) => {
      const parts: number[] =
        partsCount === 1
          ? [n]
          : partsCount === 2
            ? [o[0], n & 0xffffff]
            : partsCount === 3
              ? [o[0], o[1], n & 0xffff]
              : [...o];
      return parts.map((part, i) => writePart(part, bases[i] ?? 'dec', zeros)).join('.');
    });
}

const FULLWIDTH_DIGIT_OFFSET = 0xff10 - 0x30;

/** Unicode dressing the host parser maps back to ASCII (UTS #46 mapping, then IPv4 parsing). */
export function unicodeDress(host: string): fc.Arbitrary<string> {
  return fc
    .constantFrom('plain', 'fullwidth', 'ideographic-dot', 'fullwidth-dot', 'percent')
    .map((style) => {
      switch (style) {
        case 'fullwidth':
          return host.replace(/[0-9]/g, (d) =>
            String.fromCodePoint((d.codePointAt(0) ?? 0x30) + FULLWIDTH_DIGIT_OFFSET),
          );
        case 'ideographic-dot':
          return host.replaceAll('.', '\u3002');
        case 'fullwidth-dot':
          return host.replaceAll('.', '\uff0e');
        case 'percent':
          return Array.from(host)
            .map((c) => `%${c.charCodeAt(0).toString(16)}`)
            .join('');
        default:
          return host;
      }
    });
}

function v4Hex(o: Octets): [string, string] {
  return [((o[0] << 8) | o[1]).toString(16), ((o[2] << 8) | o[3]).toString(16)];
}

/** IPv6 literals (bracketed) that embed or wrap the IPv4 address `o`, or are blocked alone. */
function ipv6Wrappings(o: Octets): fc.Arbitrary<string> {
  const [hi, lo] = v4Hex(o);
  const d = dotted(o);
  return fc.constantFrom(
    `[::ffff:${d}]`,
    `[::ffff:${hi}:${lo}]`,
    `[0:0:0:0:0:ffff:${d}]`,
    `[::${d}]`,
    `[::${hi}:${lo}]`,
    `[64:ff9b::${d}]`,
    `[64:ff9b::${hi}:${lo}]`,
    `[64:ff9b:1::${hi}:${lo}]`,
    `[2002:${hi}:${lo}::]`,
    `[2002:${hi}:${lo}::1]`,
    `[2001:0:${hi}:${lo}::1]`,
  );
}

/** IPv6 literals outside global unicast, and global-unicast ones reserved for special purposes. */
const blockedIpv6: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '[::1]',
    '[::]',
    '[0:0:0:0:0:0:0:1]',
    '[0000::0001]',
    '[fe80::1]',
    '[FE80::1]',
    '[fe80::1%25eth0]',
    '[fe80::1%25lo]',
    '[fc00::1]',
    '[fd12:3456:789a::1]',
    '[ff02::1]',
    '[2001:db8::1]',
    '[100::1]',
    '[::ffff:0:0]',
  ),
  fc
    .tuple(
      fc.constantFrom('fe80', 'febf', 'fc00', 'fdff', 'ff0e', '2001:db8', '2001:2'),
      fc.nat(0xffff),
    )
    .map(([prefix, tail]) => `[${prefix}::${tail.toString(16)}]`),
);

/** Special-use names in several dresses. */
const specialUseHost: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(
      'localhost',
      'LOCALHOST',
      'LocalHost',
      '\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54',
      'foo.localhost',
      'printer.local',
      'nas.LOCAL',
      'x.internal',
      'svc.cluster.internal',
      'duckduckgogg42xjoc72x3sjasowoarfbgcmvfimaftt6twagswzczad.onion',
      'router.home.arpa',
      '1.0.0.127.in-addr.arpa',
      'site.test',
      'site.example',
      'site.invalid',
      'site.alt',
    ),
    fc.boolean(),
  )
  .map(([name, trailingDot]) => (trailingDot ? `${name}.` : name));

/** `scheme://[userinfo@]host[:port]/path` around a host, or a bare host (read as https). */
export function aroundHost(host: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.constantFrom('http://', 'https://', 'HTTP://', 'hTtPs://', '//', ''),
      fc.constantFrom('', 'user@', 'paypal.com@', 'a:b@'),
      host,
      fc.constantFrom('', ':80', ':443', ':8080'),
      fc.constantFrom('', '/', '/login', '/a?b=c#d', '?q'),
    )
    .map(([scheme, userinfo, h, port, path]) => {
      // A bare host cannot carry userinfo without a scheme (it would read as a scheme).
      const info = scheme === '' ? '' : userinfo;
      return `${scheme}${info}${h}${port}${path}`;
    });
}

/** A URL whose host is private, reserved or special-use, in any spelling. */
export const refusedUrl: fc.Arbitrary<string> = aroundHost(
  fc.oneof(
    { weight: 4, arbitrary: blockedIpv4.chain(ipv4Spelling).chain(unicodeDress) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(blockedIpv4.chain(ipv4Spelling), fc.constantFrom('', '.'))
        .map(([h, dot]) => h + dot),
    },
    { weight: 3, arbitrary: blockedIpv4.chain(ipv6Wrappings) },
    // Wrapping a public IPv4 in a transition range smuggles nothing, but the ranges themselves
    // are refused (docs/decisions.md, decision 4) — except IPv4-mapped, judged as the IPv4.
    {
      weight: 1,
      arbitrary: publicIpv4.map((o) => {
        const [hi, lo] = v4Hex(o);
        return `[64:ff9b::${hi}:${lo}]`;
      }),
    },
    { weight: 2, arbitrary: blockedIpv6 },
    { weight: 2, arbitrary: specialUseHost },
  ),
);

/** A public IPv4 in any spelling, paired with the dotted form the parser must give. */
export const publicIpv4Url: fc.Arbitrary<{ url: string; host: string }> = publicIpv4.chain((o) =>
  aroundHost(
    fc
      .tuple(ipv4Spelling(o), fc.constantFrom('', '.'))
      .map(([h, dot]) => h + dot)
      .chain(unicodeDress),
  ).map((url) => ({ url, host: dotted(o) })),
);

/** A public (2000::/3, not documentation, 6to4 or Teredo) IPv6 literal. */
export const publicIpv6Url: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('2a00', '2600', '2a03', '2400', '2c0f', '2804'),
    fc.array(fc.nat(0xffff), { minLength: 3, maxLength: 3 }),
  )
  .map(([prefix, rest]) => `https://[${prefix}:${rest.map((x) => x.toString(16)).join(':')}::1]/`);

/** Hosts that are Public Suffix List entries and real sites (issue 12): accepted and judged. */
export const SUFFIX_HOSTS = [
  'gov.uk',
  'nhs.uk',
  's3.amazonaws.com',
  'dweb.link',
  'bubbleapps.io',
  'ngrok.app',
] as const;

/** A URL on a host that is itself a public suffix, with the path-style tenancy it serves. */
export const suffixHostUrl: fc.Arbitrary<{ url: string; host: string }> = fc
  .tuple(
    fc.oneof(
      fc.constantFrom(...SUFFIX_HOSTS),
      fc.stringMatching(/^[a-z][a-z0-9]{2,20}$/).map((name) => `${name}.eth.limo`),
    ),
    fc.constantFrom('https://', 'http://', '', 'HTTPS://'),
    fc.boolean(),
    fc.boolean(),
    fc.constantFrom(
      '/',
      '/bucket/index.html',
      '/ipfs/bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
      '/x?y=z',
    ),
  )
  .map(([host, scheme, upper, trailingDot, path]) => ({
    url: `${scheme}${upper ? host.toUpperCase() : host}${trailingDot ? '.' : ''}${path}`,
    host,
  }));

/** Ordinary public names: random labels under real TLDs. */
export const publicNameUrl: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,14}[a-z0-9])?$/), {
      minLength: 1,
      maxLength: 3,
    }),
    fc.constantFrom('com', 'org', 'net', 'co.uk', 'de', 'io', 'app', 'dev', 'xyz', 'top'),
  )
  .map(([labels, tld]) => `https://${labels.join('.')}.${tld}/`);
