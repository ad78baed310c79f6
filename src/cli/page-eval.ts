/**
 * @module cli/page-eval
 * Wiring of the page-level eval (`linkguard eval --pages`, `npm run eval`): serve the corpus from
 * loopback, build the detection pipeline the server builds (`buildDetection()`) with page
 * analysis on and name resolution pinned to the corpus server, and hand both to
 * `evaluatePages()`. The wiring sits here, above `server/`, so `evaluation/` stays a library that
 * is given a service and never builds one.
 */
import { systemClock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { Engine } from '../engine/create-engine.js';
import { evaluatePages, type PageEvalReport } from '../evaluation/evaluate-pages.js';
import { type PageCorpus, servePageCorpus } from '../evaluation/page-corpus.js';
import { buildDetection } from '../server/build-detection.js';
import { openStore } from '../store/open-store.js';

/**
 * Evaluate a page corpus through the production path: layers 1 and 3 (no threat feeds, no domain
 * age: the eval makes no request beyond the loopback corpus server), no verdict cache, an
 * in-memory store.
 *
 * @param config layer 3's settings (page budget and limits, LLM judge when set); page analysis is
 *   forced on whatever `PAGE_ANALYSIS` says; the store and `NET_RESOLVE` settings are ignored.
 * @throws when the corpus server cannot listen.
 */
export async function runPageEval(
  engine: Engine,
  corpus: PageCorpus,
  config: Config,
): Promise<PageEvalReport> {
  const server = await servePageCorpus(corpus);
  try {
    const store = await openStore({ kind: 'sqlite', path: ':memory:' });
    try {
      const detection = await buildDetection({
        config: {
          ...config,
          page: { ...config.page, enabled: true },
          netResolve: server.overrides,
        },
        store,
        engine,
        clock: systemClock,
        intel: null,
        cacheSize: 0,
      });
      try {
        const { service, page } = detection;
        if (page === null) throw new Error('page layer could not be built');
        return await evaluatePages(engine, corpus, server, { service, page });
      } finally {
        await detection.close();
      }
    } finally {
      await store.close();
    }
  } finally {
    await server.close();
  }
}
