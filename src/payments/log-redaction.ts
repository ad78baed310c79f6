/**
 * @module payments/log-redaction
 * The one redaction step of the payments module (README "Limitations and security
 * considerations"; docs/decisions.md, "Hardening (issue 14)"). RPC client errors carry what must
 * never reach a log line: viem puts the RPC URL (API keys often sit in its path or query) and the
 * JSON-RPC request body (the transaction hash) in `message`, `details` and `metaMessages`, and
 * keeps them as enumerable fields (`url`, `body`, `headers`) that a log serializer copies; kit
 * errors quote the value they refused. Every error leaving the payment gate, and every log line
 * the payments module writes, goes through {@link redactError} first, so a log call anywhere
 * (the HTTP error handler included) sees only the redacted copy.
 *
 * What is left: the error's class name, a message and stack with every secret replaced, a
 * numeric HTTP status or error code, and the causes, redacted the same way. What is removed:
 * every configured RPC URL beyond its origin (and its path segments, query values and user info
 * wherever they appear alone), every other http(s) URL beyond its origin, the values of the proof
 * at hand, and anything shaped like a proof — 0x hex of 20 bytes or more (hashes, signatures,
 * addresses), runs of 32 or more base58/base64/hex characters (Solana signatures and addresses,
 * nonces), UUIDs — viem's `Request body:` and `Details:` lines (the request, and the answer of
 * the endpoint, which may echo a credential in part), and a JSON parser's excerpt of the answer.
 */

/** What a redaction must remove besides the proof-shaped patterns it always removes. */
export interface RedactionSecrets {
  /** RPC endpoints as configured (`SOLANA_RPC_URL`, `BASE_RPC_URL`): only their origin stays. */
  rpcUrls: readonly string[];
  /** Exact values to remove wherever they appear: the fields of the proof at hand. */
  values?: readonly string[];
}

/** An error as it may be logged: redacted message, stack and causes, no other payload. */
export class RedactedError extends Error {
  override readonly name: string;
  /** Class name of the original error (`HttpRequestError`, `SolanaError`, `TypeError`…). */
  readonly errorType: string;
  /** HTTP status of a failed RPC request, when the error had one. */
  readonly status?: number;
  /** Numeric error code (JSON-RPC, kit) or a short code string (`ECONNREFUSED`), when present. */
  readonly code?: number | string;
  /** Origin of the RPC endpoint involved (scheme, host and port only), when known. */
  readonly rpc?: string;
  /** Chain of the RPC involved, when known. */
  readonly chain?: string;

  constructor(fields: {
    errorType: string;
    message: string;
    stack: string | undefined;
    cause: RedactedError | undefined;
    status?: number;
    code?: number | string;
    rpc?: string;
    chain?: string;
  }) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = fields.errorType;
    this.errorType = fields.errorType;
    if (fields.status !== undefined) this.status = fields.status;
    if (fields.code !== undefined) this.code = fields.code;
    if (fields.rpc !== undefined) this.rpc = fields.rpc;
    if (fields.chain !== undefined) this.chain = fields.chain;
    this.stack = fields.stack;
  }
}

const REDACTED = '[redacted]';
/** Causes followed at most (viem nests two or three). */
const MAX_CAUSE_DEPTH = 5;
/** An http(s) or ws(s) URL up to the next character that cannot be part of it in a message. */
const URL_PATTERN = /\b(?:https?|wss?):\/\/[^\s"'<>`]+/gi;
const HEX_PATTERN = /0x[0-9a-f]{40,}/gi;
const UUID_PATTERN = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
/** Solana signatures (87–88) and addresses (32–44) in base58, base64 blobs, long hex. */
const TOKEN_PATTERN = /[A-Za-z0-9+=_-]{32,}/g;
/**
 * viem's meta lines with the JSON-RPC request (the transaction hash is in it) and with what the
 * endpoint answered (`Details:`: a response body, which may echo a credential in part).
 */
const REQUEST_BODY_PATTERN = /(Request body|Details): .*/g;
/** Shortest path segment / query value of a configured URL removed wherever it appears alone. */
const MIN_PATH_SEGMENT = 6;
const MIN_QUERY_VALUE = 4;
/** Code strings kept as they are (`ECONNREFUSED`, `UND_ERR_SOCKET`): short, upper case. */
const SAFE_CODE = /^[A-Z][A-Z0-9_]{1,40}$/;

/**
 * The origin of an endpoint URL (scheme, host, port; never user info, path or query), or a
 * placeholder when it does not parse.
 */
export function urlOrigin(url: string): string {
  const origin = parseUrl(url)?.origin ?? 'null';
  return origin === 'null' ? '[url]' : origin;
}

/** WHATWG parse, null when `text` is not a URL. */
function parseUrl(text: string): URL | null {
  try {
    // eslint-disable-next-line no-restricted-syntax -- configured RPC endpoints and URLs quoted in error texts, parsed only to cut them to their origin for a log line: never fetched nor judged, so normalizeUrl()'s detection rules do not apply.
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * Remove every secret of `secrets` and every proof-shaped or URL-shaped part from `text`.
 *
 * @param text any text bound for a log line (a message, a stack).
 * @returns the text with configured URLs reduced to their origin, other URLs to theirs, and
 *   secret values and proof-shaped tokens replaced by `[redacted]`.
 */
export function redactText(text: string, secrets: RedactionSecrets): string {
  let out = text.replace(REQUEST_BODY_PATTERN, (_line, label: string) => `${label}: ${REDACTED}`);
  const replacements: [string, string][] = [];
  for (const url of secrets.rpcUrls) {
    const origin = urlOrigin(url);
    for (const spelling of urlSpellings(url)) replacements.push([spelling, origin]);
    for (const part of urlSecretParts(url)) replacements.push([part, REDACTED]);
  }
  for (const value of secrets.values ?? []) {
    if (value.length >= MIN_QUERY_VALUE) {
      replacements.push([value, REDACTED], [value.toLowerCase(), REDACTED]);
    }
  }
  // Longest first, so a whole URL becomes its origin before its parts are replaced.
  replacements.sort((a, b) => b[0].length - a[0].length);
  for (const [secret, replacement] of replacements) out = out.split(secret).join(replacement);
  return out
    .replace(URL_PATTERN, (url) => urlOrigin(url))
    .replace(HEX_PATTERN, `0x${REDACTED}`)
    .replace(UUID_PATTERN, REDACTED)
    .replace(TOKEN_PATTERN, REDACTED);
}

/**
 * A copy of `error` fit for a log line: class name, redacted message and stack, a numeric status
 * or code, and its causes redacted the same way. Nothing else of the original is kept (viem's
 * `url`, `body`, `headers`, `details`, `metaMessages` and kit's `context` are dropped).
 *
 * @param error anything thrown.
 * @param secrets the configured RPC URLs and the proof values to remove.
 * @param about origin and chain of the RPC involved, recorded on the top-level copy.
 */
export function redactError(
  error: unknown,
  secrets: RedactionSecrets,
  about: { rpc?: string; chain?: string } = {},
): RedactedError {
  return redactAt(error, secrets, about, 0);
}

function redactAt(
  error: unknown,
  secrets: RedactionSecrets,
  about: { rpc?: string; chain?: string },
  depth: number,
): RedactedError {
  if (error instanceof RedactedError && about.rpc === undefined) return error;
  const isError = error instanceof Error;
  const record = (typeof error === 'object' && error !== null ? error : {}) as Record<
    string,
    unknown
  >;
  const errorType = isError
    ? error.constructor.name !== '' && error.constructor.name !== 'Error'
      ? error.constructor.name
      : error.name
    : typeof error;
  // A JSON parser's message quotes the start of the text it refused: here an RPC's answer, which
  // may hold any part of a credential. The fact is kept, the excerpt is not.
  const message =
    error instanceof SyntaxError
      ? 'The response is not valid JSON'
      : isError
        ? error.message
        : String(error);
  const rawCause = isError ? (error as { cause?: unknown }).cause : undefined;
  const cause =
    rawCause === undefined || depth >= MAX_CAUSE_DEPTH
      ? undefined
      : redactAt(rawCause, secrets, {}, depth + 1);
  const status = numeric(record.status) ?? numeric(record.statusCode);
  const context = record.context as Record<string, unknown> | undefined;
  const code = numeric(context?.__code) ?? numeric(record.code) ?? safeCode(record.code);
  const chain = about.chain ?? (typeof record.chain === 'string' ? record.chain : undefined);
  const rpc = about.rpc ?? (typeof record.rpc === 'string' ? urlOrigin(record.rpc) : undefined);
  return new RedactedError({
    errorType,
    message: redactText(message, secrets),
    stack: isError ? redactStack(error, message, secrets) : undefined,
    cause,
    ...(status === undefined ? {} : { status }),
    ...(code === undefined ? {} : { code }),
    ...(rpc === undefined ? {} : { rpc }),
    ...(chain === undefined ? {} : { chain }),
  });
}

/** The stack with its first lines (the original message) replaced by the redacted message. */
function redactStack(error: Error, message: string, secrets: RedactionSecrets): string {
  const stack = error.stack ?? '';
  const firstFrame = stack.search(/\n\s+at /);
  const frames = firstFrame === -1 ? '' : stack.slice(firstFrame);
  return redactText(`${error.name}: ${message}${frames}`, secrets);
}

function numeric(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function safeCode(value: unknown): string | undefined {
  return typeof value === 'string' && SAFE_CODE.test(value) ? value : undefined;
}

/** The ways a configured URL may be printed: as given, as WHATWG serializes it, without `/`. */
function urlSpellings(url: string): string[] {
  const spellings = new Set<string>([url]);
  const parsed = parseUrl(url);
  if (parsed !== null) {
    spellings.add(parsed.href);
    spellings.add(parsed.href.replace(/\/$/, ''));
    const withoutUser = `${parsed.protocol}//${parsed.host}${parsed.pathname}${parsed.search}`;
    spellings.add(withoutUser);
    if (parsed.pathname !== '/' || parsed.search !== '') {
      spellings.add(`${parsed.pathname}${parsed.search}`);
    }
  }
  return [...spellings].filter((s) => s.length > 0);
}

/** Parts of a configured URL that may carry a credential when they appear on their own. */
function urlSecretParts(url: string): string[] {
  const parsed = parseUrl(url);
  if (parsed === null) return [];
  const parts: string[] = [];
  const add = (value: string, min: number) => {
    if (value.length < min) return;
    parts.push(value);
    try {
      const decoded = decodeURIComponent(value);
      if (decoded !== value) parts.push(decoded);
    } catch {
      // Not percent-encoded text: the raw form is enough.
    }
  };
  add(parsed.username, MIN_QUERY_VALUE);
  add(parsed.password, MIN_QUERY_VALUE);
  for (const segment of parsed.pathname.split('/')) add(segment, MIN_PATH_SEGMENT);
  for (const [, value] of parsed.searchParams) add(value, MIN_QUERY_VALUE);
  if (parsed.search.length > 1) add(parsed.search.slice(1), MIN_QUERY_VALUE);
  if (parsed.hash.length > 1) add(parsed.hash.slice(1), MIN_QUERY_VALUE);
  return parts;
}
