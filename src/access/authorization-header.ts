/**
 * @module access/authorization-header
 * The one reader of the `Authorization` request header, used by every door that takes
 * credentials in it: `/v1/detect` and `/mcp` (Bearer) and the OAuth token and revocation
 * endpoints (Basic client authentication). One grammar everywhere (docs/decisions.md, decision
 * 133), from RFC 6750 §2.1 and RFC 7617 §2, both built on RFC 9110 §11.4's `credentials`:
 *
 *     credentials = auth-scheme 1*SP token68        ; "Bearer" or "Basic", any letter case
 *     token68     = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
 *
 * So one or more spaces (SP, never a tab) separate the scheme from exactly one token, and the
 * token holds nothing else. Leading and trailing spaces and tabs are not part of a field value
 * (RFC 9110 §5.5) and are ignored, as Node's HTTP parser already does.
 */

/** What an `Authorization` header holds. */
export type PresentedAuthorization =
  /** No header, or an empty one. */
  | { kind: 'none' }
  /** `Bearer <token>` in the RFC 6750 grammar. */
  | { kind: 'bearer'; token: string }
  /** `Basic <token68>` in the RFC 7617 grammar; the token68 is still base64 to decode. */
  | { kind: 'basic'; token68: string }
  /** A well-formed credential of another scheme (`Digest …`, `Negotiate …`). */
  | { kind: 'other'; scheme: string }
  /** Anything else: a tab or nothing after the scheme, two tokens, characters outside token68. */
  | { kind: 'malformed' };

/** The RFC 9110 §5.6.2 `token` of the scheme name. */
const SCHEME = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?: +(.*))?$/s;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;
/** Leading and trailing OWS (SP / HTAB), which is not part of a field value. */
const OWS = /^[ \t]+|[ \t]+$/g;

/**
 * What a Bearer door answers for a malformed or non-Bearer header, also its `error_description`
 * (RFC 6750 §3 allows no `"` or `\` there, so none is used).
 */
export const BEARER_GRAMMAR_MESSAGE =
  'Authorization must be Bearer, one or more spaces and one token (RFC 6750 section 2.1)';

/**
 * Read an `Authorization` header.
 *
 * @param header the raw header value; an array (the header sent twice) is malformed.
 * @returns what it holds (see {@link PresentedAuthorization}); never throws.
 */
export function readAuthorization(header: string | string[] | undefined): PresentedAuthorization {
  if (header === undefined) return { kind: 'none' };
  if (Array.isArray(header)) return { kind: 'malformed' };
  const value = header.replace(OWS, '');
  if (value === '') return { kind: 'none' };
  const match = SCHEME.exec(value);
  if (match === null) return { kind: 'malformed' };
  const scheme = match[1] ?? '';
  const rest = match[2];
  const lower = scheme.toLowerCase();
  if (lower === 'bearer' || lower === 'basic') {
    if (rest === undefined || !TOKEN68.test(rest)) return { kind: 'malformed' };
    return lower === 'bearer' ? { kind: 'bearer', token: rest } : { kind: 'basic', token68: rest };
  }
  return { kind: 'other', scheme };
}

/**
 * The `WWW-Authenticate` challenge of a Bearer door's 401 (RFC 6750 §3).
 *
 * @param error `invalid_request` for a header outside the grammar, `invalid_token` for a token
 *   that is unknown, expired or revoked; null when no credentials were sent (no error then).
 * @param description the `error_description`: printable ASCII without `"` or `\` (§3).
 * @param params parameters put first, e.g. `resource_metadata="…"` (RFC 9728 §5.1).
 */
export function bearerChallenge(
  error: 'invalid_request' | 'invalid_token' | null,
  description: string,
  params: string[] = [],
): string {
  const all = [...params];
  if (error !== null) all.push(`error="${error}"`, `error_description="${description}"`);
  return all.length === 0 ? 'Bearer' : `Bearer ${all.join(', ')}`;
}
