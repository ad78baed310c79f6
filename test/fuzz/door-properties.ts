/**
 * The properties of the fuzz suite, door by door, as data: each builds a fast-check property
 * over a started {@link FuzzApp}. The tests under `test/fuzz/` run them with a fixed seed and a
 * bounded count; `npm run fuzz` (`scripts/fuzz.ts`) runs them long with a seed from the clock.
 *
 * Every request goes through `FuzzApp.send()`, which holds its answer to the documented
 * contract (`documented-answers.ts`: no 5xx, a documented code for every 4xx, an answer within
 * the bound). Some properties assert more where the outcome is known: a well-formed proof with
 * an issued nonce reaches the chain stub and is `tx_not_found`, a URL the validator refuses is
 * `invalid_url` with the validator's reason over HTTP too.
 *
 * Properties marked `known` break on a bug fixed elsewhere in issue 14 (the finding is named);
 * the tests expect them to fail until that fix is merged, then they are re-enabled.
 */
import { getBase58Decoder } from '@solana/kit';
import fc from 'fast-check';

import { normalizeUrl } from '../../src/engine/url/normalize-url.js';
import type { Door } from './documented-answers.js';
import { FUZZ_BASE_URL, type FuzzApp, FuzzFailure, type FuzzRequest } from './fuzz-app.js';
import {
  publicIpv4Url,
  publicIpv6Url,
  publicNameUrl,
  refusedUrl,
  suffixHostUrl,
} from './url-spellings.js';

/** One property of the suite. */
export interface DoorProperty {
  /** Test title and row of the failure report. */
  name: string;
  door: Door;
  /** Share of the run count (1 = the base count); cheap pure properties run more. */
  weight: number;
  /** A finding of issue 14 that still breaks this property, fixed on another branch. */
  known?: string;
  build(h: FuzzApp): fc.IRawProperty<[unknown]>;
}

// ---------------------------------------------------------------------------------------------
// Shared pieces

/** JSON text of a generated value (`null` for the undefined JSON.stringify gives nothing for). */
function jsonText(value: unknown): string {
  return value === undefined ? 'null' : JSON.stringify(value);
}

/** Header-safe text: visible ASCII, space, tab and Latin-1 (what HTTP/1.1 can carry). */
const headerChar = fc
  .oneof(
    { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
    { weight: 1, arbitrary: fc.constant(0x09) },
    { weight: 1, arbitrary: fc.integer({ min: 0xa0, max: 0xff }) },
  )
  .map((code) => String.fromCharCode(code));

const headerText = (maxLength = 120) => fc.string({ unit: headerChar, maxLength });

/** Any text, including the odd Unicode a JSON body can carry. */
const anyText = (maxLength = 80) =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({ unit: 'binary', maxLength }),
  );

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const base58 = getBase58Decoder();

const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json;charset=UTF-16',
  'application/vnd.api+json',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
  'garbage',
  undefined,
);

/** Authorization header values, from none through near-valid to garbage. */
function authorizations(h: FuzzApp): fc.Arbitrary<string | undefined> {
  const raw = h.bearer.slice('Bearer '.length);
  return fc.oneof(
    fc.constant(undefined),
    fc.constant(h.bearer),
    fc.constantFrom(
      `bearer ${raw}`,
      `Bearer ${raw}x`,
      `Bearer ${raw.slice(0, -1)}`,
      `Basic ${raw}`,
    ),
    fc.stringMatching(/^[A-Za-z0-9]{43}$/).map((s) => `Bearer sk_live_${s}`),
    fc.stringMatching(/^[A-Za-z0-9]{43}$/).map((s) => `Bearer mcp_at_${s}`),
    headerText(80).map((s) => `Bearer ${s}`),
    headerText(80),
  );
}

function withHeaders(entries: Record<string, string | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(entries))
    if (value !== undefined) headers[name] = value;
  return headers;
}

/** URL-ish strings for bodies and tool arguments: refused, public, suffix hosts, garbage. */
const urlish: fc.Arbitrary<string> = fc.oneof(
  refusedUrl,
  publicIpv4Url.map((x) => x.url),
  publicIpv6Url,
  publicNameUrl,
  suffixHostUrl.map((x) => x.url),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom(
    '',
    ' ',
    'javascript:alert(1)',
    'mailto:a@b.c',
    'ftp://x.com/',
    'http://',
    'https://com/',
    '//',
  ),
  anyText(60),
  fc.string({ minLength: 2040, maxLength: 2100 }).map((s) => `https://example.com/${s}`),
);

// ---------------------------------------------------------------------------------------------
// POST /v1/detect: bodies and headers

function detectRequest(payload: string | Buffer, headers: Record<string, string>): FuzzRequest {
  return { method: 'POST', url: '/v1/detect', headers, payload };
}

const detectBodies: DoorProperty = {
  name: 'detect: any JSON body, content type and credentials',
  door: 'detect',
  weight: 2,
  build: (h) =>
    fc.asyncProperty(
      fc.record({
        body: fc.oneof(
          fc.record({ url: urlish }),
          fc.record({ url: fc.oneof(fc.jsonValue(), urlish) }),
          fc.dictionary(
            fc.constantFrom('url', 'URL', 'urls', 'x', '__proto__', 'constructor'),
            fc.jsonValue(),
          ),
          fc.jsonValue(),
        ),
        contentType: contentTypes,
        authorization: authorizations(h),
        requestId: fc.option(headerText(70), { nil: undefined }),
      }),
      async ({ body, contentType, authorization, requestId }) => {
        await h.send(
          'detect',
          detectRequest(
            jsonText(body),
            withHeaders({
              'content-type': contentType,
              authorization,
              'x-request-id': requestId,
            }),
          ),
        );
      },
    ),
};

const detectRawBodies: DoorProperty = {
  name: 'detect: raw bytes as a JSON body (broken JSON, huge, binary)',
  door: 'detect',
  weight: 1,
  build: (h) =>
    fc.asyncProperty(
      fc.oneof(
        fc.string({ maxLength: 300 }),
        fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
        fc.jsonValue().map((v) => jsonText(v).slice(0, -1)),
        fc.constantFrom(
          '{"url":',
          '{"url":"https://a.com/"}}',
          '\ufeff{"url":"https://a.com/"}',
          '{"url":"\\ud800"}',
        ),
        fc
          .integer({ min: 16 * 1024 - 20, max: 40 * 1024 })
          .map((n) => `{"url":"https://a.com/${'a'.repeat(n)}"}`),
      ),
      fc.constantFrom('application/json', 'application/json; charset=utf-8'),
      async (payload, contentType) => {
        await h.send('detect', detectRequest(payload, { 'content-type': contentType }));
      },
    ) as never,
};

/** With a live key: what the validator decides is what the API answers. */
const detectUrls: DoorProperty = {
  name: 'detect: any URL string with a key is a verdict or the validator’s invalid_url',
  door: 'url',
  weight: 2,
  build: (h) =>
    fc.asyncProperty(urlish, async (url) => {
      const answer = await h.send(
        'url',
        detectRequest(JSON.stringify({ url }), {
          'content-type': 'application/json',
          authorization: h.bearer,
        }),
      );
      const verdict = normalizeUrl(url);
      const body = JSON.parse(answer.body) as { error?: string; reason?: string; verdict?: string };
      if (verdict.ok && (answer.status !== 200 || typeof body.verdict !== 'string')) {
        throw new FuzzFailure(`accepted by the validator, answered ${answer.status}: ${url}`);
      }
      if (!verdict.ok && url.length <= 2048) {
        const reason = url.trim() === '' ? 'empty' : verdict.reason;
        if (answer.status !== 400 || body.error !== 'invalid_url' || body.reason !== reason) {
          throw new FuzzFailure(
            `refused by the validator (${verdict.reason}), answered ${answer.status} ${String(body.reason)}: ${url}`,
          );
        }
      }
    }),
};

// ---------------------------------------------------------------------------------------------
// POST /v1/detect/batch: bodies, credentials, and each entry against /v1/detect

function batchRequest(payload: string | Buffer, headers: Record<string, string>): FuzzRequest {
  return { method: 'POST', url: '/v1/detect/batch', headers, payload };
}

const batchBodies: DoorProperty = {
  name: 'batch: any JSON body, content type and credentials',
  door: 'batch',
  weight: 1,
  build: (h) =>
    fc.asyncProperty(
      fc.record({
        body: fc.oneof(
          fc.record({ urls: fc.array(urlish, { maxLength: 12 }) }),
          fc.record({ urls: fc.array(fc.oneof(fc.jsonValue(), urlish), { maxLength: 6 }) }),
          fc.record({ urls: fc.array(fc.constant('a.org'), { minLength: 99, maxLength: 102 }) }),
          fc.dictionary(fc.constantFrom('urls', 'url', 'URLS', '__proto__'), fc.jsonValue()),
          fc.jsonValue(),
        ),
        contentType: contentTypes,
        authorization: authorizations(h),
      }),
      async ({ body, contentType, authorization }) => {
        await h.send(
          'batch',
          batchRequest(jsonText(body), withHeaders({ 'content-type': contentType, authorization })),
        );
      },
    ),
};

/** A report the service may accept: a URL-ish string, a real kind, optional plain fields. */
const plausibleReport = fc.record(
  {
    url: urlish,
    kind: fc.constantFrom('false_positive', 'false_negative'),
    comment: fc.oneof(fc.constant(null), fc.string({ maxLength: 200 })),
    contact: fc.oneof(fc.constant(null), fc.emailAddress()),
  },
  { requiredKeys: ['url', 'kind'] },
);

/** Report kinds, near misses and garbage. */
const reportKinds = fc.oneof(
  fc.constantFrom('false_positive', 'false_negative', 'FALSE_POSITIVE', 'false positive', ''),
  fc.jsonValue({ maxDepth: 1 }),
);

/** Comments around the 1,000-character limit, with control characters and odd Unicode. */
const reportComments = fc.oneof(
  anyText(80),
  fc.constantFrom(null, 'x'.repeat(1000), 'x'.repeat(1001), '😀'.repeat(1000), 'a\u0000b'),
  fc.jsonValue({ maxDepth: 1 }),
);

const reportContacts = fc.oneof(
  fc.emailAddress(),
  anyText(40),
  fc.constantFrom(null, `${'a'.repeat(250)}@example.org`),
  fc.jsonValue({ maxDepth: 1 }),
);

/** `POST /v1/reports`: any body, content type and credentials (a 202 or a documented error). */
const reportBodies: DoorProperty = {
  name: 'reports: any JSON body, content type and credentials',
  door: 'reports',
  weight: 1,
  build: (h) =>
    fc.asyncProperty(
      fc.record({
        body: fc.oneof(
          { weight: 3, arbitrary: plausibleReport },
          fc.record(
            { url: urlish, kind: reportKinds, comment: reportComments, contact: reportContacts },
            { requiredKeys: ['url'] },
          ),
          fc.dictionary(
            fc.constantFrom('url', 'kind', 'comment', 'contact', 'email', '__proto__'),
            fc.jsonValue({ maxDepth: 1 }),
          ),
          fc.jsonValue(),
        ),
        contentType: fc.oneof(
          { weight: 3, arbitrary: fc.constant('application/json') },
          { weight: 1, arbitrary: contentTypes },
        ),
        authorization: authorizations(h),
      }),
      async ({ body, contentType, authorization }) => {
        const answer = await h.send('reports', {
          method: 'POST',
          url: '/v1/reports',
          headers: withHeaders({ 'content-type': contentType, authorization }),
          payload: jsonText(body),
        });
        if (answer.status === 202) {
          const receipt = JSON.parse(answer.body) as { id?: unknown; status?: unknown };
          if (typeof receipt.id !== 'string' || !receipt.id.startsWith('rpt_')) {
            throw new FuzzFailure(`a 202 without a report id: ${answer.body.slice(0, 200)}`);
          }
        }
      },
    ),
};

/** A real CSRF pair of the report page: the cookie header and the form's token. */
async function reportPageCsrf(h: FuzzApp): Promise<{ cookie: string; token: string }> {
  const page = await h.send('report-page', { method: 'GET', url: '/report' });
  const token = /name="csrf_token" value="([^"]+)"/.exec(page.body)?.[1];
  const setCookie = String(page.headers['set-cookie'] ?? '');
  const cookie = /lg_report_csrf=[^;]+/.exec(setCookie)?.[0];
  if (token === undefined || cookie === undefined) {
    throw new FuzzFailure('GET /report gave no CSRF token and cookie');
  }
  return { cookie, token };
}

/**
 * The page for site owners: either form with any fields, CSRF token and cookie (real, absent or
 * forged) and content type, and `GET /report` with any query: a page, a 303 back to the start, or
 * a documented error. A real token with a real cookie is never refused as a forgery.
 */
const reportPageForms: DoorProperty = {
  name: 'report page: any form, CSRF pair and content type on /report, /report/check, /report/file',
  door: 'report-page',
  weight: 1,
  build: (h) =>
    fc.asyncProperty(
      fc.record({
        path: fc.constantFrom('/report/check', '/report/file', '/report'),
        method: fc.constantFrom('POST', 'POST', 'GET'),
        url: fc.option(urlish, { nil: undefined }),
        kind: fc.option(reportKinds, { nil: undefined }),
        comment: fc.option(anyText(60), { nil: undefined }),
        contact: fc.option(fc.oneof(fc.emailAddress(), anyText(30)), { nil: undefined }),
        csrf: fc.constantFrom('REAL', 'forged', 'none'),
        cookie: fc.constantFrom('REAL', 'forged', 'none'),
        contentType: fc.constantFrom<string | undefined>(
          'application/x-www-form-urlencoded',
          'application/x-www-form-urlencoded',
          'application/json',
          'text/plain',
          undefined,
        ),
        duplicate: fc.boolean(),
      }),
      async (input) => {
        const real =
          input.csrf === 'REAL' || input.cookie === 'REAL' ? await reportPageCsrf(h) : null;
        const form = new URLSearchParams();
        if (input.url !== undefined) form.set('url', input.url);
        if (input.kind !== undefined && typeof input.kind === 'string')
          form.set('kind', input.kind);
        if (input.comment !== undefined) form.set('comment', input.comment);
        if (input.contact !== undefined) form.set('contact', input.contact);
        const token =
          input.csrf === 'REAL'
            ? real?.token
            : input.csrf === 'forged'
              ? 'x'.repeat(43)
              : undefined;
        if (token !== undefined) form.set('csrf_token', token);
        if (input.duplicate) form.append('url', 'again.example');
        const cookie =
          input.cookie === 'REAL'
            ? real?.cookie
            : input.cookie === 'forged'
              ? `lg_report_csrf=${'y'.repeat(43)}`
              : undefined;
        const get = input.method === 'GET';
        const answer = await h.send('report-page', {
          method: input.method,
          url: get ? `${input.path}?${form.toString()}` : input.path,
          headers: withHeaders({ 'content-type': get ? undefined : input.contentType, cookie }),
          ...(get
            ? {}
            : {
                payload:
                  input.contentType === 'application/json'
                    ? JSON.stringify(Object.fromEntries(form))
                    : form.toString(),
              }),
        });
        const pair = input.csrf === 'REAL' && input.cookie === 'REAL';
        if (
          pair &&
          !get &&
          input.contentType === 'application/x-www-form-urlencoded' &&
          !input.duplicate &&
          answer.status === 403
        ) {
          throw new FuzzFailure(`a real CSRF pair refused: ${answer.body.slice(0, 200)}`);
        }
      },
    ),
};

/** With a live key: every entry is the verdict or the error body /v1/detect gives its URL. */
const batchEntries: DoorProperty = {
  name: 'batch: with a key, each entry is what /v1/detect answers for its URL, in order',
  door: 'batch',
  weight: 0.5,
  build: (h) =>
    fc.asyncProperty(fc.array(urlish, { minLength: 1, maxLength: 8 }), async (urls) => {
      const answer = await h.send(
        'batch',
        batchRequest(JSON.stringify({ urls }), {
          'content-type': 'application/json',
          authorization: h.bearer,
        }),
      );
      if (answer.status !== 200) {
        throw new FuzzFailure(`a batch of ${String(urls.length)} URLs answered ${answer.status}`);
      }
      const { results } = JSON.parse(answer.body) as {
        results: { url: string; verdict?: string; error?: { error?: string; reason?: string } }[];
      };
      if (results.length !== urls.length || results.some((r, i) => r.url !== urls[i])) {
        throw new FuzzFailure(`results not one per URL in input order: ${JSON.stringify(urls)}`);
      }
      for (const [i, url] of urls.entries()) {
        const entry = results[i];
        const verdict = normalizeUrl(url);
        if (verdict.ok) {
          if (typeof entry?.verdict !== 'string') {
            throw new FuzzFailure(`entry ${String(i)} has no verdict: ${url}`);
          }
          continue;
        }
        const reason = url.trim() === '' ? 'empty' : verdict.reason;
        if (entry?.error?.error !== 'invalid_url' || entry.error.reason !== reason) {
          throw new FuzzFailure(
            `entry ${String(i)} ${JSON.stringify(entry).slice(0, 200)}, expected invalid_url ${reason}: ${url}`,
          );
        }
      }
    }),
};

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;

const apiPaths: DoorProperty = {
  name: 'api: any method on any path',
  door: 'api',
  weight: 1,
  build: (h) =>
    fc.asyncProperty(
      fc.constantFrom(...METHODS),
      fc.oneof(
        fc.constantFrom(
          '/v1/detect',
          '/v1/status',
          '/v1/ready',
          '/v1/openapi.json',
          '/docs',
          '/v1/',
          '/v1/detect/',
          '/v1/detect/batch',
          '/v1/detect/batch/',
          '/v1/reports',
          '/v1/reports/',
          '/V1/DETECT',
          '/v1//detect',
          '/v1/detect?x=1',
          '/%2e%2e/v1/status',
          '/v1/status?%zz',
        ),
        fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)),
      ),
      async (method, path) => {
        const door: Door = path.startsWith('/mcp')
          ? 'mcp'
          : path.startsWith('/oauth')
            ? 'oauth-token'
            : 'api';
        await h.send(door, { method, url: path, headers: { origin: 'https://x.example' } });
      },
    ) as never,
};

// ---------------------------------------------------------------------------------------------
// Payment proofs (no key): X-PAYMENT and X-402-*

const PROBE_URL = 'https://example.com/pay';

/** Ask for a 402 and return its nonce (a real one, bound to {@link PROBE_URL}). */
async function issuedNonce(h: FuzzApp): Promise<string> {
  const answer = await h.send(
    'payment',
    detectRequest(JSON.stringify({ url: PROBE_URL }), { 'content-type': 'application/json' }),
  );
  const nonce = (JSON.parse(answer.body) as { payment?: { nonce?: unknown } }).payment?.nonce;
  if (answer.status !== 402 || typeof nonce !== 'string') {
    throw new FuzzFailure(`no 402 challenge for ${PROBE_URL} (got ${answer.status})`);
  }
  return nonce;
}

/** A proof part and whether it is well-formed. */
interface Part {
  value: string | undefined;
  valid: boolean;
}

const validSolanaSig = fc
  .uint8Array({ minLength: 64, maxLength: 64 })
  .map((bytes) => base58.decode(bytes));

const solanaSig: fc.Arbitrary<Part> = fc.oneof(
  validSolanaSig.map((value) => ({ value, valid: true })),
  validSolanaSig.map((s) => ({ value: s.slice(0, 40), valid: false })),
  fc
    .uint8Array({ minLength: 32, maxLength: 32 })
    .map((b) => ({ value: base58.decode(b), valid: false })),
  fc
    .string({ unit: fc.constantFrom(...Array.from(BASE58)), minLength: 89, maxLength: 120 })
    .map((value) => ({ value, valid: false })),
  fc.constantFrom(undefined, '').map((value) => ({ value, valid: false })),
  headerText(40).map((value) => ({ value, valid: false })),
);

const hex = (length: number) =>
  fc.string({
    unit: fc.constantFrom(...Array.from('0123456789abcdefABCDEF')),
    minLength: length,
    maxLength: length,
  });

const baseHash: fc.Arbitrary<Part> = fc.oneof(
  hex(64).map((h) => ({ value: `0x${h}`, valid: true })),
  hex(63).map((h) => ({ value: `0x${h}`, valid: false })),
  hex(64).map((h) => ({ value: h, valid: false })),
  hex(64).map((h) => ({ value: `0x${h.slice(1)}g`, valid: false })),
  validSolanaSig.map((value) => ({ value, valid: false })),
  fc.constant({ value: undefined, valid: false }),
);

const walletSig: fc.Arbitrary<Part> = fc.oneof(
  hex(130).map((h) => ({ value: `0x${h}`, valid: true })),
  hex(128).map((h) => ({ value: `0x${h}`, valid: false })),
  headerText(20).map((value) => ({ value, valid: false })),
  fc.constant({ value: undefined, valid: false }),
);

/** How the nonce is chosen; `issued` is replaced by a real nonce at run time. */
type NonceKind = 'issued' | 'issued-upper' | 'random-v4' | 'v1' | 'garbage' | 'absent';
const nonceKind = fc.constantFrom<NonceKind>(
  'issued',
  'issued',
  'issued-upper',
  'random-v4',
  'v1',
  'garbage',
  'absent',
);

function nonceValue(kind: NonceKind, issued: string, random: string): string | undefined {
  switch (kind) {
    case 'issued':
      return issued;
    case 'issued-upper':
      return issued.toUpperCase();
    case 'random-v4':
      return random;
    case 'v1':
      return `${random.slice(0, 14)}1${random.slice(15)}`;
    case 'garbage':
      return random.replaceAll('-', '');
    default:
      return undefined;
  }
}

/** The nonce form the service issues (`crypto.randomUUID()`: lower-case UUIDv4). */
const ISSUED_FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * What the gate must answer a proof (README, "Paying per request"): form checks first
 * (`malformed_proof`), then the nonce (`nonce_unknown`), then the chain, where the stub knows no
 * transaction (`tx_not_found`).
 */
function expectedReason(
  partsValid: boolean,
  nonce: string | undefined,
  issued: string | null,
): string {
  if (!partsValid || nonce === undefined || !ISSUED_FORM.test(nonce.trim()))
    return 'malformed_proof';
  return nonce.trim() === issued ? 'tx_not_found' : 'nonce_unknown';
}

/** A real nonce when the nonce kind needs one, else null. */
async function maybeIssued(h: FuzzApp, kind: NonceKind): Promise<string | null> {
  return kind === 'issued' || kind === 'issued-upper' ? issuedNonce(h) : null;
}

async function sendProof(
  h: FuzzApp,
  headers: Record<string, string>,
  expected: string | null,
): Promise<void> {
  const answer = await h.send(
    'payment',
    detectRequest(JSON.stringify({ url: PROBE_URL }), {
      'content-type': 'application/json',
      ...headers,
    }),
  );
  if (expected === null) return;
  const body = JSON.parse(answer.body) as { error?: string; reason?: string };
  // No proof header at all: a plain challenge, without reason.
  if (Object.keys(headers).length === 0) {
    if (answer.status === 402 && body.error === 'payment_required') return;
    throw new FuzzFailure(`no proof: expected 402 payment_required, got ${answer.status}`);
  }
  if (answer.status !== 402 || body.reason !== expected) {
    throw new FuzzFailure(
      `proof ${JSON.stringify(headers).slice(0, 400)}: expected 402 ${expected}, got ${answer.status} ${String(body.reason)}`,
    );
  }
}

const legacyProofs: DoorProperty = {
  name: 'payment: near-valid X-402-* proofs (Solana and Base) are refused with the right reason',
  door: 'payment',
  weight: 1,
  build: (h) =>
    fc.asyncProperty(
      fc.record({
        chain: fc.constantFrom<string | undefined>(
          undefined,
          'solana',
          'base',
          'SOLANA',
          'Base',
          'ethereum',
          '',
        ),
        solana: solanaSig,
        hash: baseHash,
        wallet: walletSig,
        nonce: nonceKind,
        random: fc.uuid({ version: 4 }),
        padding: fc.constantFrom('', ' ', '\t'),
      }),
      async ({ chain, solana, hash, wallet, nonce, random, padding }) => {
        const kind = chain ?? 'solana';
        const isBase = kind === 'base';
        const signature = isBase ? hash : solana;
        const issued = await maybeIssued(h, nonce);
        const nonceText = nonceValue(nonce, issued ?? random, random);
        const headers = withHeaders({
          'x-402-chain': chain,
          'x-402-signature':
            signature.value === undefined ? undefined : padding + signature.value + padding,
          'x-402-nonce': nonceText,
          'x-402-wallet-sig': isBase || wallet.value === undefined ? wallet.value : undefined,
        });
        const knownChain = kind === 'solana' || kind === 'base';
        const partsValid =
          knownChain &&
          signature.valid &&
          (!isBase || wallet.valid) &&
          (headers['x-402-wallet-sig'] === undefined || isBase);
        await sendProof(h, headers, expectedReason(partsValid, nonceText, issued));
      },
    ),
};

type Encoding = 'base64' | 'base64url' | 'unpadded' | 'raw-json' | 'spaced';

function encode(json: string, encoding: Encoding): { value: string; valid: boolean } {
  const b64 = Buffer.from(json, 'utf8').toString('base64');
  switch (encoding) {
    case 'base64':
      return { value: b64, valid: true };
    case 'spaced':
      return { value: ` ${b64} `, valid: true };
    case 'base64url': {
      const url = Buffer.from(json, 'utf8').toString('base64url');
      // Without + or / and with no padding needed, base64url is standard base64 too.
      return { value: url, valid: url === b64 };
    }
    case 'unpadded': {
      const bare = b64.replace(/=+$/, '');
      return { value: bare, valid: bare === b64 };
    }
    default:
      return { value: json, valid: false };
  }
}

const xPaymentProofs: DoorProperty = {
  name: 'payment: near-valid X-PAYMENT envelopes (Solana and Base) are refused with the right reason',
  door: 'payment',
  weight: 1,
  build: (h) =>
    fc.asyncProperty(
      fc.record({
        version: fc.constantFrom<unknown>(1, 1, 1, '1', 2, 0, null),
        scheme: fc.constantFrom<unknown>('exact', 'exact', 'exact', 'EXACT', 'upto', 1),
        network: fc.constantFrom<unknown>(
          'solana',
          'base',
          'solana',
          'base',
          'solana-devnet',
          'base-sepolia',
          'Solana',
        ),
        solana: solanaSig,
        hash: baseHash,
        wallet: walletSig,
        nonce: nonceKind,
        random: fc.uuid({ version: 4 }),
        encoding: fc.constantFrom<Encoding>(
          'base64',
          'base64',
          'spaced',
          'base64url',
          'unpadded',
          'raw-json',
        ),
        extra: fc.option(
          fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
          { nil: undefined },
        ),
      }),
      async ({
        version,
        scheme,
        network,
        solana,
        hash,
        wallet,
        nonce,
        random,
        encoding,
        extra,
      }) => {
        const issued = await maybeIssued(h, nonce);
        const nonceText = nonceValue(nonce, issued ?? random, random);
        const isBase = network === 'base';
        const payload = isBase
          ? { txHash: hash.value, walletSig: wallet.value, nonce: nonceText }
          : { txSignature: solana.value, nonce: nonceText };
        const envelope = { ...extra, x402Version: version, scheme, network, payload };
        const encoded = encode(JSON.stringify(envelope), encoding);
        const envelopeValid =
          encoded.valid &&
          version === 1 &&
          scheme === 'exact' &&
          (network === 'solana' || network === 'base') &&
          nonceText !== undefined;
        const partsValid = envelopeValid && (isBase ? hash.valid && wallet.valid : solana.valid);
        await sendProof(
          h,
          { 'x-payment': encoded.value },
          expectedReason(partsValid, nonceText, issued),
        );
      },
    ),
};

const garbageProofs: DoorProperty = {
  name: 'payment: garbage in every proof header',
  door: 'payment',
  weight: 1,
  build: (h) =>
    fc.asyncProperty(
      fc.record(
        {
          'x-payment': fc.oneof(
            headerText(200),
            fc.base64String({ maxLength: 400 }),
            fc.jsonValue().map((v) => Buffer.from(jsonText(v)).toString('base64')),
          ),
          'x-402-chain': headerText(20),
          'x-402-signature': headerText(100),
          'x-402-nonce': fc.oneof(headerText(40), fc.uuid()),
          'x-402-wallet-sig': headerText(140),
        },
        { requiredKeys: [] },
      ),
      fc.boolean(),
      async (headers, long) => {
        if (long) headers['x-402-signature'] = 'A'.repeat(5000);
        await sendProof(h, headers, null);
      },
    ) as never,
};

/** Finding 1: must be 402 malformed_proof (was 500: issue 14, finding 1). */
const finding1: DoorProperty = {
  name: 'payment: a 64–88-character non-base58 X-402-Signature with a UUIDv4 nonce is malformed_proof',
  door: 'payment',
  weight: 0.2,
  build: (h) =>
    fc.asyncProperty(
      fc.integer({ min: 64, max: 88 }),
      fc.constantFrom('0', 'O', 'I', 'l', '+', '/', '_'),
      fc.uuid({ version: 4 }),
      async (length, bad, nonce) => {
        await sendProof(
          h,
          { 'x-402-signature': bad.repeat(length), 'x-402-nonce': nonce },
          'malformed_proof',
        );
      },
    ) as never,
};

// ---------------------------------------------------------------------------------------------
// /mcp: JSON-RPC

const MCP_ACCEPT = 'application/json, text/event-stream';
const PROTOCOL_VERSIONS = ['2025-06-18', '2025-03-26', '2025-11-25', '2024-11-05'];
const TOOLS = ['check_url', 'check_urls_batch', 'official_domain', 'domain_history', 'report_url'];

const rpcId = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 10 }),
  fc.constant(null),
  fc.double(),
  fc.constant(undefined),
);

const toolArguments = fc.oneof(
  fc.record({ url: urlish }),
  fc.record({ urls: fc.array(urlish, { maxLength: 12 }) }),
  fc.record({
    brand: fc.oneof(anyText(30), fc.constantFrom('PayPal', 'metamask', 'Coinbase', '')),
  }),
  fc.record({ domain: urlish }),
  plausibleReport,
  fc.record(
    { url: urlish, kind: reportKinds, comment: reportComments, contact: reportContacts },
    { requiredKeys: ['url', 'kind'] },
  ),
  fc.dictionary(
    fc.constantFrom('url', 'urls', 'brand', 'domain', 'kind', 'comment', 'x'),
    fc.jsonValue({ maxDepth: 2 }),
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

function rpc(
  method: unknown,
  id: unknown,
  params: unknown,
  jsonrpc: unknown,
): Record<string, unknown> {
  const message: Record<string, unknown> = { jsonrpc, method };
  if (id !== undefined) message.id = id;
  if (params !== undefined) message.params = params;
  return message;
}

const jsonrpcVersion = fc.constantFrom<unknown>('2.0', '2.0', '2.0', '2.0', '1.0', undefined, 2);

const rpcMessage: fc.Arbitrary<unknown> = fc.oneof(
  fc
    .tuple(
      rpcId,
      fc.record(
        {
          protocolVersion: fc.oneof(
            fc.constantFrom(...PROTOCOL_VERSIONS),
            fc.string({ maxLength: 12 }),
          ),
          capabilities: fc.oneof(fc.constant({}), fc.jsonValue({ maxDepth: 2 })),
          clientInfo: fc.record({
            name: fc.string({ maxLength: 10 }),
            version: fc.string({ maxLength: 5 }),
          }),
        },
        { requiredKeys: [] },
      ),
      jsonrpcVersion,
    )
    .map(([id, params, v]) => rpc('initialize', id, params, v)),
  fc
    .tuple(rpcId, fc.option(fc.jsonValue({ maxDepth: 1 }), { nil: undefined }), jsonrpcVersion)
    .map(([id, params, v]) => rpc('tools/list', id, params, v)),
  fc
    .tuple(
      rpcId,
      fc.oneof(fc.constantFrom(...TOOLS), fc.string({ maxLength: 16 })),
      toolArguments,
      jsonrpcVersion,
      fc.option(fc.jsonValue({ maxDepth: 1 }), { nil: undefined }),
    )
    .map(([id, name, args, v, meta]) =>
      rpc(
        'tools/call',
        id,
        { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
        v,
      ),
    ),
  fc
    .tuple(
      fc.oneof(
        fc.constantFrom('notifications/initialized', 'notifications/cancelled'),
        fc.string({ maxLength: 20 }),
      ),
      fc.option(fc.jsonValue({ maxDepth: 1 }), { nil: undefined }),
    )
    .map(([method, params]) => rpc(method, undefined, params, '2.0')),
  fc
    .tuple(
      rpcId,
      fc.oneof(
        fc.constantFrom(
          'ping',
          'resources/list',
          'resources/read',
          'resources/templates/list',
          'prompts/list',
          'logging/setLevel',
          'completion/complete',
        ),
        fc.string({ maxLength: 20 }),
      ),
      fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
    )
    .map(([id, method, params]) => rpc(method, id, params, '2.0')),
  fc.jsonValue({ maxDepth: 2 }),
);

const mcpMessages: DoorProperty = {
  name: 'mcp: any JSON-RPC message or batch, with any Accept, content type and credentials',
  door: 'mcp',
  weight: 2,
  build: (h) =>
    fc.asyncProperty(
      fc.oneof(
        { weight: 3, arbitrary: rpcMessage },
        { weight: 1, arbitrary: fc.array(rpcMessage, { maxLength: 4 }) },
      ),
      fc.constantFrom<string | undefined>(
        MCP_ACCEPT,
        MCP_ACCEPT,
        MCP_ACCEPT,
        'application/json',
        'text/event-stream',
        '*/*',
        'text/html',
        undefined,
      ),
      fc.constantFrom<string | undefined>(
        'application/json',
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        undefined,
      ),
      authorizations(h),
      fc.option(fc.oneof(fc.constantFrom(...PROTOCOL_VERSIONS), headerText(12)), {
        nil: undefined,
      }),
      async (body, accept, contentType, authorization, version) => {
        await h.send('mcp', {
          method: 'POST',
          url: '/mcp',
          headers: withHeaders({
            accept,
            'content-type': contentType,
            authorization,
            'mcp-protocol-version': version,
          }),
          payload: jsonText(body),
        });
      },
    ) as never,
};

const mcpRaw: DoorProperty = {
  name: 'mcp: broken JSON, binary and oversized bodies',
  door: 'mcp',
  weight: 1,
  build: (h) =>
    fc.asyncProperty(
      fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
        fc.constantFrom(
          '{"jsonrpc":"2.0","id":1,"method":"tools/list"',
          '[]',
          '[[]]',
          '[{}]',
          '{}',
          'null',
          '0',
        ),
        fc.integer({ min: 16 * 1024, max: 40 * 1024 }).map((n) =>
          JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'ping',
            params: { pad: 'x'.repeat(n) },
          }),
        ),
      ),
      async (payload) => {
        await h.send('mcp', {
          method: 'POST',
          url: '/mcp',
          headers: { accept: MCP_ACCEPT, 'content-type': 'application/json' },
          payload,
        });
      },
    ),
};

/** GET answers 405 (README, "MCP connector": stateless, no SSE stream). */
const mcpGet: DoorProperty = {
  name: 'mcp: GET /mcp is 405 method_not_allowed',
  door: 'mcp',
  weight: 0.2,
  build: (h) =>
    fc.asyncProperty(
      fc.constantFrom<string | undefined>(MCP_ACCEPT, 'text/event-stream', undefined),
      fc.option(fc.uuid(), { nil: undefined }),
      async (accept, session) => {
        const answer = await h.send('mcp', {
          method: 'GET',
          url: '/mcp',
          headers: withHeaders({ accept, 'mcp-session-id': session }),
        });
        if (answer.status !== 405) throw new FuzzFailure(`GET /mcp answered ${answer.status}`);
      },
    ) as never,
};

/**
 * Finding 9: DELETE /mcp is 405, also sent as MCP clients send it (JSON content type, no body);
 * it was 400 `missing_url` before issue 14, when the body parser ran before the route.
 */
const finding9: DoorProperty = {
  name: 'mcp: DELETE /mcp (JSON content type, no body) is 405 method_not_allowed',
  door: 'mcp',
  weight: 0.1,
  build: (h) =>
    fc.asyncProperty(
      fc.constantFrom<string | undefined>(MCP_ACCEPT, undefined),
      fc.option(fc.uuid(), { nil: undefined }),
      async (accept, session) => {
        const answer = await h.send('mcp', {
          method: 'DELETE',
          url: '/mcp',
          headers: withHeaders({
            accept,
            'content-type': 'application/json',
            'mcp-session-id': session,
          }),
        });
        if (answer.status !== 405) throw new FuzzFailure(`DELETE /mcp answered ${answer.status}`);
      },
    ) as never,
};

/**
 * Found by this suite: a request whose `params` do not match the MCP schema was -32603
 * (internal error) with the schema issues as message; JSON-RPC 2.0 §5.1 says -32602.
 */
const mcpInvalidParams: DoorProperty = {
  name: 'mcp: params that do not match the MCP schema are -32602 invalid params',
  door: 'mcp',
  weight: 0.2,
  build: (h) =>
    fc.asyncProperty(
      fc.constantFrom(
        { method: 'initialize', params: {} },
        { method: 'initialize', params: { protocolVersion: 1 } },
        { method: 'tools/call', params: { arguments: {} } },
        { method: 'resources/read', params: {} },
      ),
      fc.integer(),
      async (message, id) => {
        const answer = await h.send('mcp', {
          method: 'POST',
          url: '/mcp',
          headers: { accept: MCP_ACCEPT, 'content-type': 'application/json' },
          payload: JSON.stringify({ jsonrpc: '2.0', id, ...message }),
        });
        const body = JSON.parse(answer.body) as { error?: { code?: unknown } };
        if (body.error?.code !== -32602) {
          throw new FuzzFailure(
            `${message.method} ${JSON.stringify(message.params)}: JSON-RPC ${String(body.error?.code)}`,
          );
        }
      },
    ) as never,
};

/** Finding 6: one Bearer grammar on every door (the doors differed before issue 14). */
const finding6: DoorProperty = {
  name: 'cross-door: /v1/detect and /mcp accept the same Authorization spellings of a key',
  door: 'mcp',
  weight: 0.2,
  build: (h) =>
    fc.asyncProperty(
      fc.constantFrom('Bearer', 'bearer', 'BEARER'),
      fc.constantFrom(' ', '  ', '\t', ' \t'),
      fc.constantFrom('', ' ', '\t'),
      async (scheme, gap, tail) => {
        const authorization = `${scheme}${gap}${h.bearer.slice('Bearer '.length)}${tail}`;
        const detect = await h.send(
          'detect',
          detectRequest(JSON.stringify({ url: 'https://example.com/' }), {
            'content-type': 'application/json',
            authorization,
          }),
        );
        const mcp = await h.send('mcp', {
          method: 'POST',
          url: '/mcp',
          headers: { accept: MCP_ACCEPT, 'content-type': 'application/json', authorization },
          payload: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'official_domain', arguments: { brand: 'PayPal' } },
          }),
        });
        if ((detect.status === 200) !== (mcp.status === 200)) {
          throw new FuzzFailure(
            `${JSON.stringify(authorization.replace(/sk_live_\w+/, 'sk_live_…'))}: /v1/detect ${detect.status}, /mcp ${mcp.status}`,
          );
        }
      },
    ) as never,
};

// ---------------------------------------------------------------------------------------------
// /oauth/*

const redirectUri = fc.oneof(
  fc.constantFrom(
    'https://claude.ai/api/mcp/auth_callback',
    'http://127.0.0.1:33418/callback',
    'http://[::1]/cb',
    'http://localhost:6274/oauth/callback',
    'cursor://anysphere.cursor-retrieval/oauth/callback',
    'com.example.app:/oauth2redirect',
    'javascript:alert(1)',
    'data:text/html,x',
    'http://example.com/cb',
    'https://user@example.com/cb',
    'https://example.com/cb#frag',
    'https://',
    'relative/path',
    '',
  ),
  fc.webUrl({ validSchemes: ['https', 'http'], withFragments: true, withQueryParameters: true }),
  anyText(60),
);

const oauthRegister: DoorProperty = {
  name: 'oauth: registration with any metadata and content type',
  door: 'oauth-register',
  weight: 1,
  build: (h) =>
    fc.asyncProperty(
      fc.oneof(
        fc.record(
          {
            redirect_uris: fc.oneof(
              fc.array(redirectUri, { maxLength: 11 }),
              fc.jsonValue({ maxDepth: 1 }),
            ),
            token_endpoint_auth_method: fc.oneof(
              fc.constantFrom(
                'none',
                'client_secret_post',
                'client_secret_basic',
                'private_key_jwt',
              ),
              fc.jsonValue({ maxDepth: 0 }),
            ),
            grant_types: fc.array(
              fc.constantFrom(
                'authorization_code',
                'refresh_token',
                'client_credentials',
                'implicit',
                '',
              ),
              { maxLength: 6 },
            ),
            response_types: fc.array(fc.constantFrom('code', 'token', 'id_token'), {
              maxLength: 3,
            }),
            client_name: fc.oneof(anyText(40), fc.string({ minLength: 190, maxLength: 210 })),
            scope: fc.string({ maxLength: 20 }),
            contacts: fc.array(fc.emailAddress(), { maxLength: 11 }),
            logo_uri: redirectUri,
          },
          { requiredKeys: [] },
        ),
        fc.jsonValue({ maxDepth: 2 }),
      ),
      fc.constantFrom<string | undefined>(
        'application/json',
        'application/json',
        'application/json; charset=utf-8',
        'application/x-www-form-urlencoded',
        'text/plain',
        undefined,
      ),
      async (metadata, contentType) => {
        const payload =
          contentType === 'application/x-www-form-urlencoded'
            ? new URLSearchParams({ redirect_uris: JSON.stringify(metadata) }).toString()
            : jsonText(metadata);
        await h.send('oauth-register', {
          method: 'POST',
          url: '/oauth/register',
          headers: withHeaders({ 'content-type': contentType }),
          payload,
        });
      },
    ) as never,
};

/** Finding 10: redirect URIs that read as carrying user info are refused (issue 14). */
const finding10: DoorProperty = {
  name: 'oauth: a redirect URI that reads as carrying user info is refused at registration',
  door: 'oauth-register',
  weight: 0.2,
  build: (h) =>
    fc.asyncProperty(
      fc.constantFrom('evil.example', 'attacker.test.example.com', 'xn--pypal-4ve.com'),
      fc.constantFrom('\\@', '%40', '\\\\@'),
      fc.constantFrom('claude.ai', 'vscode.dev'),
      async (host, at, shown) => {
        const uri = `https://${host}${at}${shown}/cb`;
        const answer = await h.send('oauth-register', {
          method: 'POST',
          url: '/oauth/register',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ redirect_uris: [uri], token_endpoint_auth_method: 'none' }),
        });
        if (answer.status !== 400) throw new FuzzFailure(`${uri} registered (${answer.status})`);
      },
    ) as never,
};

const challenge = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{43}$/),
  fc.constantFrom('', 'short', '='.repeat(43)),
  headerText(60),
);

/** The query of an authorization request, near-valid or not. */
function authorizeQuery(h: FuzzApp): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.record(
        {
          response_type: fc.constantFrom('code', 'code', 'token', 'code id_token', ''),
          client_id: fc.oneof(
            fc.constant(h.publicClient.id),
            fc.constant(h.confidentialClient.id),
            fc.string({ maxLength: 30 }),
          ),
          redirect_uri: fc.oneof(
            fc.constant(h.publicClient.redirectUri),
            fc.constant(h.confidentialClient.redirectUri),
            fc.constantFrom(
              'http://127.0.0.1:50123/callback',
              'http://127.0.0.1:9/callback#x',
              'http://user@127.0.0.1:9/callback',
              'http://localhost:9/callback',
            ),
            redirectUri,
          ),
          code_challenge: challenge,
          code_challenge_method: fc.constantFrom('S256', 'S256', 'plain', 's256', ''),
          state: fc.oneof(
            fc.string({ maxLength: 40 }),
            fc.string({ minLength: 1000, maxLength: 1100 }),
          ),
          resource: fc.constantFrom(
            `${FUZZ_BASE_URL}/mcp`,
            `${FUZZ_BASE_URL}/mcp`,
            `${FUZZ_BASE_URL}/`,
            'https://other.example/mcp',
            '',
          ),
          scope: fc.constantFrom('mcp', 'openid', ''),
        },
        { requiredKeys: [] },
      ),
      fc.option(fc.constantFrom('client_id', 'redirect_uri', 'state', 'code_challenge'), {
        nil: undefined,
      }),
      fc.constantFrom('', '&%zz', '&a=%E0%A4%A', '&&', '&=x'),
    )
    .map(([params, repeated, tail]) => {
      const search = new URLSearchParams(params as Record<string, string>);
      if (repeated !== undefined) search.append(repeated, 'again');
      return `?${search.toString()}${tail}`;
    });
}

const oauthAuthorizeGet: DoorProperty = {
  name: 'oauth: GET /oauth/authorize with any query',
  door: 'oauth-authorize',
  weight: 1,
  build: (h) =>
    fc.asyncProperty(authorizeQuery(h), async (query) => {
      await h.send('oauth-authorize', { method: 'GET', url: `/oauth/authorize${query}` });
    }),
};

/** Start a real authorization (public client) and read the page's form fields and cookie. */
async function pendingAuthorization(
  h: FuzzApp,
): Promise<{ requestId: string; csrf: string; cookie: string }> {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: h.publicClient.id,
    redirect_uri: h.publicClient.redirectUri,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'fuzz',
    resource: `${FUZZ_BASE_URL}/mcp`,
  });
  const page = await h.send('oauth-authorize', {
    method: 'GET',
    url: `/oauth/authorize?${query.toString()}`,
  });
  const requestId = /name="request_id" value="([^"]+)"/.exec(page.body)?.[1];
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)?.[1];
  const setCookie = page.headers['set-cookie'];
  const cookie = String(Array.isArray(setCookie) ? setCookie[0] : setCookie).split(';')[0];
  if (
    page.status !== 200 ||
    requestId === undefined ||
    csrf === undefined ||
    cookie === undefined
  ) {
    throw new FuzzFailure(`no sign-in page for a valid authorization request (${page.status})`);
  }
  return { requestId, csrf, cookie };
}

const oauthAuthorizePost: DoorProperty = {
  name: 'oauth: POST /oauth/authorize with any form, cookie and credential',
  door: 'oauth-authorize',
  weight: 1,
  build: (h) =>
    fc.asyncProperty(
      fc.record({
        real: fc.boolean(),
        requestId: fc.option(fc.oneof(fc.constant('REAL'), fc.string({ maxLength: 50 })), {
          nil: undefined,
        }),
        csrf: fc.option(fc.oneof(fc.constant('REAL'), fc.string({ maxLength: 50 })), {
          nil: undefined,
        }),
        cookie: fc.constantFrom('REAL', 'none', 'other'),
        credential: fc.option(
          fc.oneof(
            fc.constant('KEY'),
            fc.stringMatching(/^[A-Za-z0-9]{43}$/).map((s) => `lic_${s}`),
            anyText(60),
          ),
          { nil: undefined },
        ),
        action: fc.option(fc.constantFrom('approve', 'deny', 'APPROVE', ''), { nil: undefined }),
        contentType: fc.constantFrom<string | undefined>(
          'application/x-www-form-urlencoded',
          'application/x-www-form-urlencoded',
          'application/json',
          'text/plain',
          undefined,
        ),
        duplicate: fc.boolean(),
      }),
      async (input) => {
        const real = input.real ? await pendingAuthorization(h) : null;
        const form = new URLSearchParams();
        const pick = (v: string | undefined, realValue: string | undefined) =>
          v === 'REAL' ? (realValue ?? 'x') : v;
        const requestId = pick(input.requestId, real?.requestId);
        const csrf = pick(input.csrf, real?.csrf);
        if (requestId !== undefined) form.set('request_id', requestId);
        if (csrf !== undefined) form.set('csrf_token', csrf);
        if (input.credential !== undefined) {
          form.set(
            'credential',
            input.credential === 'KEY' ? h.bearer.slice('Bearer '.length) : input.credential,
          );
        }
        if (input.action !== undefined) form.set('action', input.action);
        if (input.duplicate) form.append('request_id', 'again');
        const cookie =
          input.cookie === 'REAL'
            ? real?.cookie
            : input.cookie === 'other'
              ? 'lg_csrf_0000000000000000=abc'
              : undefined;
        await h.send('oauth-authorize', {
          method: 'POST',
          url: '/oauth/authorize',
          headers: withHeaders({ 'content-type': input.contentType, cookie }),
          payload:
            input.contentType === 'application/json'
              ? JSON.stringify(Object.fromEntries(form))
              : form.toString(),
        });
      },
    ),
};

function clientAuthorization(h: FuzzApp): fc.Arbitrary<string | undefined> {
  const basic = (id: string, secret: string) =>
    `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  return fc.oneof(
    fc.constant(undefined),
    fc.constant(basic(h.confidentialClient.id, h.confidentialClient.secret)),
    fc.constant(basic(h.confidentialClient.id, 'wrong')),
    fc.constant(basic(h.publicClient.id, '')),
    fc.constant(`Basic ${Buffer.from('no-colon').toString('base64')}`),
    fc.constant(`Basic ${Buffer.from('%zz:%zz').toString('base64')}`),
    fc.base64String({ maxLength: 40 }).map((s) => `Basic ${s}`),
    headerText(60),
  );
}

const tokenForm = (h: FuzzApp) =>
  fc.record(
    {
      grant_type: fc.constantFrom(
        'authorization_code',
        'refresh_token',
        'client_credentials',
        'password',
        '',
      ),
      client_id: fc.oneof(
        fc.constant(h.publicClient.id),
        fc.constant(h.confidentialClient.id),
        fc.string({ maxLength: 20 }),
      ),
      client_secret: fc.oneof(
        fc.constant(h.confidentialClient.secret),
        fc.string({ maxLength: 20 }),
      ),
      code: fc.oneof(
        fc.stringMatching(/^[A-Za-z0-9]{43}$/).map((s) => `mcp_code_${s}`),
        fc.string({ maxLength: 60 }),
      ),
      code_verifier: fc.oneof(
        fc.stringMatching(/^[A-Za-z0-9._~-]{43,128}$/),
        fc.string({ maxLength: 20 }),
      ),
      redirect_uri: fc.oneof(fc.constant(h.publicClient.redirectUri), redirectUri),
      refresh_token: fc.oneof(
        fc.stringMatching(/^[A-Za-z0-9]{43}$/).map((s) => `mcp_rt_${s}`),
        fc.string({ maxLength: 60 }),
      ),
      resource: fc.constantFrom(`${FUZZ_BASE_URL}/mcp`, 'https://other.example/mcp', ''),
      scope: fc.constantFrom('mcp', 'mcp admin', ''),
      token: fc.oneof(
        fc.stringMatching(/^[A-Za-z0-9]{43}$/).map((s) => `mcp_at_${s}`),
        fc.stringMatching(/^[A-Za-z0-9]{43}$/).map((s) => `mcp_rt_${s}`),
        fc.string({ maxLength: 60 }),
      ),
      token_type_hint: fc.constantFrom('access_token', 'refresh_token', 'id_token', ''),
    },
    { requiredKeys: [] },
  );

function oauthFormProperty(name: string, door: Door, path: string): DoorProperty {
  return {
    name,
    door,
    weight: 1,
    build: (h) =>
      fc.asyncProperty(
        tokenForm(h),
        clientAuthorization(h),
        fc.constantFrom<string | undefined>(
          'application/x-www-form-urlencoded',
          'application/x-www-form-urlencoded',
          'application/x-www-form-urlencoded; charset=UTF-8',
          'application/json',
          'text/plain',
          undefined,
        ),
        fc.option(fc.constantFrom('grant_type', 'client_id', 'code', 'token'), { nil: undefined }),
        async (form, authorization, contentType, repeated) => {
          const search = new URLSearchParams(form as Record<string, string>);
          if (repeated !== undefined) search.append(repeated, 'again');
          await h.send(door, {
            method: 'POST',
            url: path,
            headers: withHeaders({ 'content-type': contentType, authorization }),
            payload: contentType === 'application/json' ? JSON.stringify(form) : search.toString(),
          });
        },
      ) as never,
  };
}

const oauthMetadata: DoorProperty = {
  name: 'oauth: metadata documents answer 200 whatever the query',
  door: 'oauth-metadata',
  weight: 0.3,
  build: (h) =>
    fc.asyncProperty(
      fc.constantFrom(
        '/.well-known/oauth-authorization-server',
        '/.well-known/oauth-protected-resource',
        '/.well-known/oauth-protected-resource/mcp',
      ),
      fc.constantFrom('', '?x=1', '?%zz', `?${'a'.repeat(2000)}`),
      async (path, query) => {
        const answer = await h.send('oauth-metadata', { method: 'GET', url: path + query });
        if (answer.status !== 200) throw new FuzzFailure(`${path} answered ${answer.status}`);
      },
    ) as never,
};

// ---------------------------------------------------------------------------------------------
// URL validation (pure: the validator itself, thousands of spellings)

const urlRefused: DoorProperty = {
  name: 'url: every private, reserved or special-use spelling is refused',
  door: 'url',
  weight: 10,
  build: () =>
    fc.property(refusedUrl, (url) => {
      const result = normalizeUrl(url);
      if (result.ok) throw new FuzzFailure(`accepted ${url} as ${result.url.hostname}`);
    }),
};

const urlPublicAccepted: DoorProperty = {
  name: 'url: public IPv4 and IPv6 in every spelling are accepted as the canonical address',
  door: 'url',
  weight: 10,
  build: () =>
    fc.property(
      fc.oneof(
        publicIpv4Url,
        publicIpv6Url.map((url) => ({ url, host: null })),
      ),
      ({ url, host }) => {
        const result = normalizeUrl(url);
        if (!result.ok) throw new FuzzFailure(`refused ${url}: ${result.reason}`);
        if (host !== null && result.url.hostname !== host) {
          throw new FuzzFailure(`${url} read as ${result.url.hostname}, not ${host}`);
        }
      },
    ),
};

/** Finding 3 of issue 14 (issue 12): hosts that are public suffixes are sites. */
const urlSuffixHosts: DoorProperty = {
  name: 'url: hosts that are Public Suffix List entries (gov.uk, s3.amazonaws.com, *.eth.limo…) are accepted as their own site',
  door: 'url',
  weight: 5,
  build: () =>
    fc.property(
      fc.oneof(
        suffixHostUrl,
        publicNameUrl.map((url) => ({ url, host: null })),
      ),
      ({ url, host }) => {
        const result = normalizeUrl(url);
        if (!result.ok) throw new FuzzFailure(`refused ${url}: ${result.reason}`);
        if (
          host !== null &&
          (result.url.hostname !== host ||
            !result.url.hostIsSuffix ||
            result.url.registrableDomain !== host)
        ) {
          throw new FuzzFailure(
            `${url}: host ${result.url.hostname}, registrable ${String(result.url.registrableDomain)}, hostIsSuffix ${String(result.url.hostIsSuffix)}`,
          );
        }
      },
    ),
};

const urlOverHttp: DoorProperty = {
  name: 'url: over /v1/detect, refused spellings are invalid_url and suffix hosts get a verdict',
  door: 'url',
  weight: 1,
  build: (h) =>
    fc.asyncProperty(
      fc.oneof(
        refusedUrl.map((url) => ({ url, refused: true })),
        suffixHostUrl.map(({ url }) => ({ url, refused: false })),
      ),
      async ({ url, refused }) => {
        const answer = await h.send(
          'url',
          detectRequest(JSON.stringify({ url }), {
            'content-type': 'application/json',
            authorization: h.bearer,
          }),
        );
        const body = JSON.parse(answer.body) as { error?: string; verdict?: string };
        if (refused ? body.error !== 'invalid_url' : typeof body.verdict !== 'string') {
          throw new FuzzFailure(`${url}: answered ${answer.status} ${answer.body.slice(0, 120)}`);
        }
      },
    ),
};

/** Every property, grouped by the test file that runs it. */
export const PROPERTIES = {
  detect: [
    detectBodies,
    detectRawBodies,
    detectUrls,
    apiPaths,
    batchBodies,
    batchEntries,
    reportBodies,
    reportPageForms,
  ],
  payment: [legacyProofs, xPaymentProofs, garbageProofs, finding1],
  mcp: [mcpMessages, mcpRaw, mcpGet, finding9, mcpInvalidParams, finding6],
  oauth: [
    oauthRegister,
    finding10,
    oauthAuthorizeGet,
    oauthAuthorizePost,
    oauthFormProperty(
      'oauth: POST /oauth/token with any form and client credentials',
      'oauth-token',
      '/oauth/token',
    ),
    oauthFormProperty(
      'oauth: POST /oauth/revoke with any form and client credentials',
      'oauth-revoke',
      '/oauth/revoke',
    ),
    oauthMetadata,
  ],
  url: [urlRefused, urlPublicAccepted, urlSuffixHosts, urlOverHttp],
} as const satisfies Record<string, readonly DoorProperty[]>;
