/**
 * @module page/llm/llm-error
 * The one error of the LLM judge (`createLlmJudge`). The judge is optional and advisory: a caller
 * catches this error and returns the verdict without the LLM, so the codes say only what to log
 * and whether retrying later may help. Messages never contain the API key, the prompt or the
 * model's answer (both may carry page text).
 */

/** Why the judge gave no verdict. Stable: callers branch on these, never on the message. */
export type LlmErrorCode =
  /** No complete answer within the budget (the smaller of the per-call and configured timeouts). */
  | 'timeout'
  /** The endpoint was unreachable (DNS, connect, protocol) or answered 5xx or 429: transient. */
  | 'unavailable'
  /** Another non-2xx status (400 bad request, 401/403 key, 404 model): a configuration problem. */
  | 'http_status'
  /**
   * A 2xx answer that is not a usable verdict: not JSON, larger than the size cap, no choices,
   * no content, a refusal, a truncated answer (`finish_reason` `length` or `content_filter`),
   * or content that breaks the verdict schema.
   */
  | 'invalid_response';

/** A failed judgement. `status` is the HTTP status when a response arrived. */
export class LlmError extends Error {
  override readonly name = 'LlmError';
  readonly code: LlmErrorCode;
  readonly status: number | null;

  constructor(
    code: LlmErrorCode,
    message: string,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status ?? null;
  }
}
