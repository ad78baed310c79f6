/**
 * @module net
 * The SSRF-safe outbound HTTP client (DESIGN §8). Everything outside src/net/ uses this entry
 * point; importing undici elsewhere is a lint error.
 */
export type { LookupFunction, ResolvedAddress } from './guarded-lookup.js';
export {
  createHttpClient,
  type FetchOptions,
  type FetchResult,
  type HttpClient,
  type HttpClientOptions,
} from './http-client.js';
export { isNetError, NetError, type NetErrorCode } from './net-error.js';
export {
  parseResolveOverrides,
  type ParseResolveOverridesResult,
  type ResolveOverride,
} from './resolve-override.js';
