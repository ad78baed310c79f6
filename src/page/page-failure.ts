/**
 * @module page/page-failure
 * Why a page could not be analysed, in words a caller can act on. The verdict then rests on
 * layers 1–2 and says so (DESIGN §5 "a page that could not be fetched is reported in the reason,
 * and confidence drops").
 */
import type { PageFailure } from '../engine/page-evidence.js';
import { isNetError, type NetErrorCode } from '../net/index.js';

export type { PageFailure };

const NET_FAILURES: Readonly<Record<NetErrorCode, PageFailure>> = {
  invalid_url: 'unreachable',
  blocked_address: 'blocked_address',
  dns_failure: 'unreachable',
  connect_failed: 'unreachable',
  timeout: 'timeout',
  too_large: 'too_large',
  too_many_redirects: 'too_many_redirects',
  protocol_error: 'protocol_error',
};

/** The failure code of an outbound-client error, or null when `error` is not a NetError. */
export function pageFailureOf(error: unknown): PageFailure | null {
  return isNetError(error) ? NET_FAILURES[error.code] : null;
}
