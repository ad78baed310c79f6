/**
 * @module page/page-layer
 * Layer 3 assembled: the page fetcher (SSRF-safe client with browser headers), the budget, and
 * the optional LLM judge. The detection service asks it to examine a URL's page once layers 1–2
 * are not conclusive; the engine's analyzers and scoring do the judging.
 *
 * Privacy (spec §1, DESIGN §8): page content lives only in memory for the analysis; only
 * findings (short evidence strings) leave this layer, and nothing here logs.
 */
import type { Config } from '../config/config.js';
import type { LookupFunction } from '../net/index.js';
import { createHttpClient, type HttpClient } from '../net/index.js';
import { createLlmJudge, type LlmJudge } from './llm/llm-judge.js';
import { PageFetcher } from './page-fetcher.js';
import { BROWSER_USER_AGENT } from './page-request.js';

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
  config: Config,
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
