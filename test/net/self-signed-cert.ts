/**
 * A self-signed X.509 certificate made in memory for TLS tests: Node can create keys but not
 * certificates, so the DER is assembled here (RFC 5280 fields, ECDSA P-256 with SHA-256) instead
 * of depending on an `openssl` binary.
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

export interface TestCertificate {
  /** PEM private key (PKCS#8). */
  key: string;
  /** PEM certificate; also its own CA (basicConstraints cA=true), so clients can trust it directly. */
  cert: string;
}

/** A certificate valid from an hour ago for a day, for the given DNS names (subjectAltName). */
export function selfSignedCert(dnsNames: readonly string[]): TestCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ecdsaWithSha256 = seq(oid('1.2.840.10045.4.3.2'));
  const name = seq(set(seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from('linkguard test')))));
  const now = Date.now();
  const serial = randomBytes(8);
  // A positive INTEGER in minimal DER: top bit clear (not negative) and the first byte never 0
  // (a leading zero byte before one < 0x80 is "illegal padding", 1 run in 128 before this).
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x40;
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))), // version v3
    tlv(0x02, serial),
    ecdsaWithSha256,
    name,
    seq(utcTime(new Date(now - 3_600_000)), utcTime(new Date(now + 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(
      0xa3,
      seq(
        // basicConstraints (critical): cA = true.
        seq(
          oid('2.5.29.19'),
          tlv(0x01, Buffer.from([0xff])),
          octets(seq(tlv(0x01, Buffer.from([0xff])))),
        ),
        // subjectAltName: dNSName [2] entries.
        seq(oid('2.5.29.17'), octets(seq(...dnsNames.map((n) => tlv(0x82, Buffer.from(n)))))),
      ),
    ),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = seq(tbs, ecdsaWithSha256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  return {
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: pem('CERTIFICATE', der),
  };
}

function tlv(tag: number, content: Buffer): Buffer {
  const length = content.length;
  let header: number[];
  if (length < 0x80) header = [length];
  else {
    const bytes: number[] = [];
    for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
    header = [0x80 | bytes.length, ...bytes];
  }
  return Buffer.concat([Buffer.from([tag, ...header]), content]);
}

const seq = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));
const octets = (content: Buffer): Buffer => tlv(0x04, content);

function oid(text: string): Buffer {
  const arcs = text.split('.').map(Number);
  const bytes = [(arcs[0] ?? 0) * 40 + (arcs[1] ?? 0)];
  for (const arc of arcs.slice(2)) {
    const base128 = [arc & 0x7f];
    for (let n = Math.floor(arc / 128); n > 0; n = Math.floor(n / 128))
      base128.unshift(0x80 | (n & 0x7f));
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function utcTime(date: Date): Buffer {
  const iso = date.toISOString(); // 2026-01-02T03:04:05.678Z → 260102030405Z
  const text =
    iso.slice(2, 4) +
    iso.slice(5, 7) +
    iso.slice(8, 10) +
    iso.slice(11, 13) +
    iso.slice(14, 16) +
    iso.slice(17, 19) +
    'Z';
  return tlv(0x17, Buffer.from(text));
}

function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
