/**
 * @module oauth/oauth-context
 * What the authorization server's steps share, and the reading of its form and query
 * parameters.
 */

import type { Clock } from '../clock.js';
import type { Store } from '../store/ports/store.js';
import { OAuthError } from './oauth-error.js';

/** The authorization server's dependencies; `publicBaseUrl` is its issuer. */
export interface OAuthContext {
  store: Store;
  clock: Clock;
  /** `PUBLIC_BASE_URL`: the issuer (RFC 8414) and the base of `/mcp`. */
  publicBaseUrl: string;
}

/** Parsed query or urlencoded form: a name given twice arrives as an array. */
export type OAuthParams = Record<string, string | string[] | undefined>;

/**
 * One parameter, or undefined when absent or empty (RFC 6749 §3.1: "parameters sent without a
 * value MUST be treated as if they were omitted").
 *
 * @throws {OAuthError} `invalid_request` when it was given more than once (RFC 6749 §3.1).
 */
export function param(params: OAuthParams, name: string): string | undefined {
  const value = params[name];
  if (Array.isArray(value)) {
    throw new OAuthError('invalid_request', `The ${name} parameter was given more than once`);
  }
  return value === undefined || value === '' ? undefined : value;
}

/** Like {@link param}, but absence is an `invalid_request` too. */
export function requiredParam(params: OAuthParams, name: string): string {
  const value = param(params, name);
  if (value === undefined) {
    throw new OAuthError('invalid_request', `The ${name} parameter is missing`);
  }
  return value;
}
