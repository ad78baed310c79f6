/**
 * @module page/page-fetcher
 * Fetches a page for layer 3 the way a browser would see it, within a deadline: the document
 * (HTTP redirects and a `<meta http-equiv=refresh>` hop followed, at most `maxRedirects` in all),
 * then its same-site external scripts (kits keep their logic there: detection.md §2.1 "grep the
 * concatenated HTML plus inline and external scripts"). Every request goes through the SSRF-safe
 * client; nothing is cached or written anywhere, and the content leaves this module only as the
 * parsed {@link PageDocument}.
 *
 * Limits: the page and its scripts together stay under `maxBytes`; at most
 * {@link MAX_SCRIPTS} scripts, fetched in parallel; third-party scripts (CDNs, analytics) are
 * not fetched — their `src` is still seen by the analyzers.
 */
import pLimit, { type LimitFunction } from 'p-limit';

import type { PageDocument } from '../engine/page/page-document.js';
import { parsePage } from '../engine/page/parse-page.js';
import { normalizeUrl, type ParsedUrl } from '../engine/url/normalize-url.js';
import { resolveReference } from '../engine/url/resolve-reference.js';
import type { HttpClient } from '../net/index.js';
import { type PageFailure, pageFailureOf } from './page-failure.js';
import { decodeHtml, decodeScript, NAVIGATION_HEADERS, SCRIPT_HEADERS } from './page-request.js';

/** External scripts fetched per page at most. */
export const MAX_SCRIPTS = 8;
/** A `<meta refresh>` with a longer delay is content, not a redirect. */
const META_REFRESH_MAX_DELAY_S = 10;
/** Time kept back from the deadline for analysis and scoring after the scripts (ms). */
const ANALYSIS_RESERVE_MS = 150;

/** Options of {@link PageFetcher}. */
export interface PageFetcherOptions {
  /** The outbound client, created with the browser User-Agent. */
  http: HttpClient;
  /** Cap on the page plus its scripts, in bytes (issue: 2 MB). */
  maxBytes: number;
  /** Redirects followed at most, HTTP and meta refresh together (issue: 5). */
  maxRedirects: number;
  /** Page fetches in flight at once; more wait their turn within their deadline. */
  concurrency: number;
}

/** A fetched and parsed page. */
export interface FetchedPage {
  ok: true;
  /** The URL whose content was analysed, after every redirect. */
  finalUrl: ParsedUrl;
  /** URLs that answered with a redirect, in order (the submitted URL first when it redirected). */
  redirects: string[];
  /** HTTP status of the final response (kits serve lures with 404 too). */
  status: number;
  doc: PageDocument;
  /** External scripts whose code was added to `doc`. */
  scriptsFetched: number;
}

/** A page that could not be fetched. */
export interface UnfetchedPage {
  ok: false;
  failure: PageFailure;
  redirects: string[];
}

/** Fetches pages for layer 3 with bounded concurrency. */
export class PageFetcher {
  private readonly limit: LimitFunction;

  constructor(private readonly options: PageFetcherOptions) {
    this.limit = pLimit(options.concurrency);
  }

  /**
   * Fetch and parse `url` before `deadline`.
   *
   * @param url the URL to fetch (already validated by `normalizeUrl`).
   * @param deadline `performance.now()` value by which the page must be in hand.
   * @returns the page, or why not; never throws for network outcomes.
   */
  async fetch(url: ParsedUrl, deadline: number): Promise<FetchedPage | UnfetchedPage> {
    const busy: UnfetchedPage = { ok: false, failure: 'busy', redirects: [] };
    // The wait for a slot counts against the budget too: still queued at the deadline, the caller
    // gets `busy`, and the task, when its turn comes, sees the deadline passed and returns at once.
    // A fetch that has started ends by the deadline on its own (its timeout is the rest).
    let started = false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<UnfetchedPage>((resolve) => {
      timer = setTimeout(
        () => {
          if (!started) resolve(busy);
        },
        Math.max(0, deadline - ANALYSIS_RESERVE_MS - performance.now()),
      );
    });
    const queued = this.limit(async () => {
      if (performance.now() >= deadline - ANALYSIS_RESERVE_MS) return busy;
      started = true;
      return this.fetchNow(url, deadline);
    });
    try {
      return await Promise.race([queued, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async fetchNow(url: ParsedUrl, deadline: number): Promise<FetchedPage | UnfetchedPage> {
    const { http, maxBytes } = this.options;
    const redirects: string[] = [];
    let target = url;
    for (;;) {
      const remaining = deadline - ANALYSIS_RESERVE_MS - performance.now();
      if (remaining <= 0) return { ok: false, failure: 'timeout', redirects };
      let result;
      try {
        result = await http.fetch(target.href, {
          headers: { ...NAVIGATION_HEADERS },
          timeoutMs: Math.ceil(remaining),
          maxBytes,
          maxRedirects: this.options.maxRedirects - redirects.length,
        });
      } catch (error) {
        const failure = pageFailureOf(error);
        if (failure === null) throw error;
        return { ok: false, failure, redirects };
      }
      redirects.push(...result.redirects);
      const decoded = decodeHtml(result);
      if ('failure' in decoded) return { ok: false, failure: decoded.failure, redirects };
      // Not redirected: the URL we asked for is the final one, already parsed (and, for the
      // submitted URL, already analysed by the service, which recognises it by identity).
      const final =
        result.url === target.href ? { ok: true as const, url: target } : normalizeUrl(result.url);
      if (!final.ok) return { ok: false, failure: 'blocked_address', redirects };
      const doc = parsePage(decoded.html);

      const refresh = metaRefreshTarget(doc, final.url.href);
      if (refresh !== null && refresh.href !== final.url.href) {
        if (redirects.length >= this.options.maxRedirects) {
          return { ok: false, failure: 'too_many_redirects', redirects };
        }
        redirects.push(final.url.href);
        target = refresh;
        continue;
      }
      const scriptsFetched = await this.fetchScripts(
        doc,
        final.url,
        maxBytes - result.body.length,
        deadline,
      );
      return {
        ok: true,
        finalUrl: final.url,
        redirects,
        status: result.status,
        doc,
        scriptsFetched,
      };
    }
  }

  /**
   * Fill in the code of same-site external scripts, in parallel, within the byte allowance and
   * the deadline. A script that fails or is late stays empty: the analysis goes on without it.
   */
  private async fetchScripts(
    doc: PageDocument,
    page: ParsedUrl,
    allowance: number,
    deadline: number,
  ): Promise<number> {
    const wanted = doc.scripts
      .map((script) => ({
        script,
        ref: script.src === null ? null : resolveReference(script.src, page.href),
      }))
      .filter(
        (s): s is { script: (typeof doc.scripts)[number]; ref: NonNullable<typeof s.ref> } =>
          s.ref !== null &&
          (s.ref.scheme === 'http' || s.ref.scheme === 'https') &&
          sameSite(s.ref.hostname, s.ref.registrableDomain, page),
      )
      .slice(0, MAX_SCRIPTS);
    let budget = allowance;
    let fetched = 0;
    await Promise.all(
      wanted.map(async ({ script, ref }) => {
        const remaining = deadline - ANALYSIS_RESERVE_MS - performance.now();
        if (remaining <= 0 || budget <= 0) return;
        try {
          const result = await this.options.http.fetch(ref.href, {
            headers: { ...SCRIPT_HEADERS },
            timeoutMs: Math.ceil(remaining),
            maxBytes: budget,
            maxRedirects: 2,
          });
          if (result.status >= 400 || budget - result.body.length < 0) return;
          budget -= result.body.length;
          script.code = decodeScript(result);
          fetched += 1;
        } catch (error) {
          // A missing script is not a failed page; anything but a network outcome is a bug.
          if (pageFailureOf(error) === null) throw error;
        }
      }),
    );
    return fetched;
  }
}

/** Same site as the page: same registrable domain (for hosting tenants, the tenant's own name). */
function sameSite(hostname: string, registrable: string | null, page: ParsedUrl): boolean {
  if (page.registrableDomain === null) return hostname === page.hostname;
  return registrable === page.registrableDomain;
}

/** The target of an immediate `<meta http-equiv=refresh>` redirect, or null. */
function metaRefreshTarget(doc: PageDocument, base: string): ParsedUrl | null {
  const content = doc.meta.get('refresh');
  if (content === undefined) return null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*[;,]\s*(?:url\s*=\s*)?['"]?([^'"\s][^'"]*)/i.exec(content);
  if (match === null || Number(match[1]) > META_REFRESH_MAX_DELAY_S) return null;
  const ref = resolveReference(match[2] ?? '', base);
  if (ref === null) return null;
  const parsed = normalizeUrl(ref.href);
  return parsed.ok ? parsed.url : null;
}
