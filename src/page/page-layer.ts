/**
 * @module page/page-layer
 * Layer 3 assembled: the page fetcher (SSRF-safe client with browser headers), the budget, and
 * the optional LLM judge. The detection service asks it to examine a URL's page once layers 1–2
 * are not conclusive; the engine's analyzers and scoring do the judging.
 *
 * Privacy (spec §1, DESIGN §8): page content lives only in memory for the analysis; only
 * findings (short evidence strings) leave this layer, and nothing here logs.
 */
import type { LookupFunction, ResolveOverride } from '../net/index.js';
import { createHttpClient, type HttpClient } from '../net/index.js';
import { createLlmJudge, type LlmJudge } from './llm/llm-judge.js';
import { PageFetcher } from './page-fetcher.js';
import { BROWSER_USER_AGENT } from './page-request.js';

/** Settings of layer 3's page fetch. */
export interface PageConfig {
  /** Fetch and analyse pages (PAGE_ANALYSIS, `on` | `off`, default `on`). */
  enabled: boolean;
  /** Budget for one fresh verdict with its page fetch, ms (PAGE_BUDGET_MS, default 4000). */
  budgetMs: number;
  /** Cap on a page plus its scripts, bytes (PAGE_MAX_BYTES, default 2 MiB). */
  maxBytes: number;
  /** Redirects followed per page (PAGE_MAX_REDIRECTS, default 5, 0–10). */
  maxRedirects: number;
  /** Page fetches in flight at once per process (PAGE_FETCH_CONCURRENCY, default 32). */
  concurrency: number;
}

/** The OpenAI-compatible chat-completions endpoint of the LLM judge. */
export interface LlmConfig {
  /** API base, e.g. `https://api.openai.com/v1` (LLM_BASE_URL); `/chat/completions` is appended. */
  baseUrl: string;
  /** Model name (LLM_MODEL). */
  model: string;
  /** Bearer key (LLM_API_KEY, optional for local servers). A secret: never logged. */
  apiKey: string | null;
  /** Budget per call, ms (LLM_TIMEOUT_MS, default 2500; the page budget caps it too). */
  timeoutMs: number;
}

/** What layer 3 needs from the configuration. */
export interface PageLayerOptions {
  page: PageConfig;
  /** The optional LLM judge, or null. */
  llm: LlmConfig | null;
  /** Fixed name resolution for the outbound clients (tests only; see `NET_RESOLVE`). */
  netResolve: readonly ResolveOverride[];
}

/** Layer 3's parts, as the detection service uses them. */
export interface PageLayer {
  fetcher: PageFetcher;
  /** Budget for one fresh verdict including its page, ms. */
  budgetMs: number;
  /** The LLM judge and its per-call budget, or null when not configured. */
  llm: { judge: LlmJudge; timeoutMs: number } | null;
  /** Close the outbound connections. */
  close(): Promise<void>;
}

/**
 * Build layer 3 from the configuration, or null when `PAGE_ANALYSIS=off`.
 *
 * @param options.lookup name resolver for the page client (tests inject one; default DNS).
 * @param options.http use this client for pages instead of creating one (tests).
 */
export function createPageLayer(
  config: PageLayerOptions,
  options: { lookup?: LookupFunction; http?: HttpClient } = {},
): PageLayer | null {
  if (!config.page.enabled) return null;
  const http =
    options.http ??
    createHttpClient({
      userAgent: BROWSER_USER_AGENT,
      resolveOverrides: config.netResolve,
      ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
    });
  // The LLM endpoint is the operator's, not a page's: its own client, service User-Agent.
  const llmHttp =
    config.llm === null
      ? null
      : createHttpClient({ userAgent: 'linkguard-llm-judge', resolveOverrides: config.netResolve });
  const llm =
    config.llm === null || llmHttp === null
      ? null
      : {
          judge: createLlmJudge({
            http: llmHttp,
            baseUrl: config.llm.baseUrl,
            model: config.llm.model,
            apiKey: config.llm.apiKey,
            timeoutMs: config.llm.timeoutMs,
          }),
          timeoutMs: config.llm.timeoutMs,
        };
  return {
    fetcher: new PageFetcher({
      http,
      maxBytes: config.page.maxBytes,
      maxRedirects: config.page.maxRedirects,
      concurrency: config.page.concurrency,
    }),
    budgetMs: config.page.budgetMs,
    llm,
    close: async () => {
      await Promise.all([options.http === undefined ? http.close() : null, llmHttp?.close()]);
    },
  };
}
