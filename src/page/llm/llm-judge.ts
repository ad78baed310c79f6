/**
 * @module page/llm/llm-judge
 * The optional LLM judge of layer 3 (detection.md §3.3): one page summary in, one validated
 * {@link LlmVerdict} out, through any OpenAI-compatible chat-completions endpoint (OpenAI, Azure
 * OpenAI-compatible gateways, OpenRouter, vLLM, llama.cpp server, Ollama's `/v1`).
 *
 * Protocol (OpenAI API reference, "Create chat completion", and the "Structured Outputs" guide):
 * `POST {baseUrl}/chat/completions` with `{model, messages, temperature, response_format:
 * {type: "json_schema", json_schema: {name, strict: true, schema}}}` and `Authorization: Bearer
 * <key>`; the answer is `{id, object: "chat.completion", created, model, choices: [{index,
 * message: {role: "assistant", content, refusal}, finish_reason}], usage}`. With Structured
 * Outputs `content` is the JSON text; a safety refusal comes as a non-null `message.refusal`
 * instead; `finish_reason: "length"` means the answer was cut at the token limit and is not
 * valid JSON. Errors are `{error: {message, type, param, code}}` with the HTTP status.
 *
 * What the judge returns is a proposal: `llmFindings()` (engine) decides what it may add to the
 * verdict. The request goes through the SSRF-safe client with redirects off (a redirecting API
 * endpoint is a misconfiguration, and following it could carry the key elsewhere), a 256 KiB
 * answer cap and a hard timeout. Nothing here logs; errors carry neither the key nor page text.
 */
import { randomUUID } from 'node:crypto';

import Type from 'typebox';
import { Compile } from 'typebox/compile';

import type { LlmPageSummary } from '../../engine/page/llm-summary.js';
import {
  LLM_VERDICT_RESPONSE_FORMAT,
  type LlmVerdict,
  parseLlmVerdict,
} from '../../engine/page/llm-verdict.js';
import { type HttpClient, isNetError } from '../../net/index.js';
import { LlmError } from './llm-error.js';
import { buildLlmMessages } from './llm-prompt.js';

/** Options of {@link createLlmJudge}. */
export interface LlmJudgeOptions {
  http: HttpClient;
  /** API root with the version path (`https://api.openai.com/v1`); a trailing `/` is fine. */
  baseUrl: string;
  /** Model name as the endpoint knows it (`gpt-4.1-mini`, `gemini-2.0-flash`, …). */
  model: string;
  /** Sent as `Authorization: Bearer <key>`; null for endpoints without authentication. */
  apiKey: string | null;
  /** Budget of one judgement in ms (connect, answer and body), 1–120,000. */
  timeoutMs: number;
}

/** Options of one {@link LlmJudge.judge} call. */
export interface JudgeCallOptions {
  /** The caller's remaining budget in ms; the smaller of this and the configured one applies. */
  timeoutMs?: number;
  /** Caller's cancellation: the call then rejects with `signal.reason` (not an LlmError). */
  signal?: AbortSignal;
}

/** A configured judge. */
export interface LlmJudge {
  /**
   * Ask the model about one page.
   *
   * @returns the model's answer, validated against the verdict schema.
   * @throws {LlmError} `timeout`, `unavailable`, `http_status` or `invalid_response`.
   */
  judge(summary: LlmPageSummary, options?: JudgeCallOptions): Promise<LlmVerdict>;
}

/** A verdict is < 2 KiB; 256 KiB also holds any error page, and bounds memory per call. */
const MAX_RESPONSE_BYTES = 256 * 1024;
const MAX_TIMEOUT_MS = 120_000;
/** An error `code`/`type` from the endpoint is quoted only when it is a plain identifier. */
const PLAIN_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

const NullableString = Type.Union([Type.String(), Type.Null()]);
/** The parts of a chat completion the judge reads; other fields are allowed and ignored. */
const ChatCompletion = Compile(
  Type.Object({
    choices: Type.Array(
      Type.Object({
        message: Type.Object({
          content: Type.Optional(NullableString),
          refusal: Type.Optional(NullableString),
        }),
        finish_reason: Type.Optional(NullableString),
      }),
      { minItems: 1 },
    ),
  }),
);
const ErrorBody = Compile(
  Type.Object({
    error: Type.Object({
      code: Type.Optional(Type.Unknown()),
      type: Type.Optional(Type.Unknown()),
    }),
  }),
);

/**
 * Create a judge for one OpenAI-compatible endpoint and model.
 *
 * @throws {TypeError} when `baseUrl` is not an http(s) URL, `model` is empty, or `apiKey` is
 *   empty or contains whitespace; {@link RangeError} when `timeoutMs` is not an integer in
 *   1–120,000. All are configuration mistakes, reported at start-up.
 */
export function createLlmJudge(options: LlmJudgeOptions): LlmJudge {
  const { http, model, apiKey, timeoutMs } = options;
  const baseUrl = options.baseUrl.trim().replace(/\/+$/, '');
  if (!/^https?:\/\/\S+$/i.test(baseUrl)) throw new TypeError('LLM baseUrl must be http(s)');
  if (model.trim() === '') throw new TypeError('LLM model must not be empty');
  if (apiKey !== null && !/^\S+$/.test(apiKey)) {
    throw new TypeError('LLM apiKey must be non-empty without whitespace');
  }
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) {
    throw new RangeError(`LLM timeoutMs must be an integer in 1–${MAX_TIMEOUT_MS}`);
  }
  const endpoint = `${baseUrl}/chat/completions`;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
  };
  if (apiKey !== null) headers.authorization = `Bearer ${apiKey}`;
  const scrub = (text: string): string =>
    apiKey === null ? text : text.split(apiKey).join('[redacted]');

  async function judge(summary: LlmPageSummary, call: JudgeCallOptions = {}): Promise<LlmVerdict> {
    const budget = Math.floor(Math.min(timeoutMs, call.timeoutMs ?? timeoutMs));
    if (!(budget >= 1)) throw new LlmError('timeout', 'no time left for the LLM judge');
    const body = JSON.stringify({
      model,
      temperature: 0,
      messages: buildLlmMessages(summary, randomUUID()),
      response_format: LLM_VERDICT_RESPONSE_FORMAT,
    });

    let response;
    try {
      response = await http.fetch(endpoint, {
        method: 'POST',
        headers,
        body,
        timeoutMs: budget,
        maxBytes: MAX_RESPONSE_BYTES,
        maxRedirects: 0,
        signal: call.signal,
      });
    } catch (error) {
      if (!isNetError(error)) throw error; // the caller's abort reason, or a bug
      if (error.code === 'timeout') {
        throw new LlmError('timeout', `no answer within ${budget} ms`, { cause: error });
      }
      if (error.code === 'too_large') {
        throw new LlmError('invalid_response', `answer larger than ${MAX_RESPONSE_BYTES} bytes`);
      }
      throw new LlmError('unavailable', `LLM endpoint unreachable (${error.code})`, {
        cause: error,
      });
    }

    const { status } = response;
    if (status < 200 || status > 299) {
      const code = scrub(errorCode(response.body));
      const message = `LLM endpoint answered HTTP ${status}${code === '' ? '' : ` (${code})`}`;
      throw new LlmError(status >= 500 || status === 429 ? 'unavailable' : 'http_status', message, {
        status,
      });
    }
    return readVerdict(response.body, status);
  }

  return { judge };
}

/** The verdict in a 2xx chat-completion body. */
function readVerdict(body: Buffer, status: number): LlmVerdict {
  const invalid = (message: string) => new LlmError('invalid_response', message, { status });
  let completion: unknown;
  try {
    completion = JSON.parse(body.toString('utf8'));
  } catch {
    throw invalid('the answer is not JSON');
  }
  if (!ChatCompletion.Check(completion)) throw invalid('the answer is not a chat completion');
  const [choice] = completion.choices;
  if (choice === undefined) throw invalid('the answer has no choices');
  const { content, refusal } = choice.message;
  if (typeof refusal === 'string' && refusal !== '') throw invalid('the model refused');
  if (choice.finish_reason === 'length') throw invalid('the answer was cut at the token limit');
  if (choice.finish_reason === 'content_filter') throw invalid('the answer was filtered');
  if (content === undefined || content === null || content.trim() === '') {
    throw invalid('the answer has no content');
  }
  const parsed = parseLlmVerdict(content);
  if (!parsed.ok) throw invalid(parsed.message);
  return parsed.verdict;
}

/**
 * The `error.code` (else `error.type`) of an OpenAI-style error body when it is a plain
 * identifier, else ''. The error `message` is never used: providers quote part of the key in it.
 */
function errorCode(body: Buffer): string {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return '';
  }
  if (!ErrorBody.Check(value)) return '';
  const { code, type } = value.error;
  for (const candidate of [code, type]) {
    if (typeof candidate === 'string' && PLAIN_CODE.test(candidate)) return candidate;
  }
  return '';
}
