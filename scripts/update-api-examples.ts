/**
 * `npx tsx scripts/update-api-examples.ts`: writes `src/api/verdict-examples.ts`, the verdicts
 * the API reference (`/docs`, `/v1/openapi.json`) shows as examples, from real answers of
 * `POST /v1/detect` with an enterprise key. The service runs in-process (temp SQLite store, no
 * feeds, RDAP and page analysis off, chain RPCs at a closed loopback port), which is how the test
 * `test/http/api-examples.test.ts` runs it to check that the examples have not drifted from the
 * engine. Run it after a change of the engine or its data that the test reports.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { generateApiKey } from '../src/access/api-key.js';
import { EXAMPLE_URLS } from '../src/api/example-urls.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config/config.js';
import { defaultEngine } from '../src/engine-data/load-engine-data.js';
import { createLogger } from '../src/observability/logger.js';
import { buildApp } from '../src/server/build-app.js';
import { openStore } from '../src/store/open-store.js';

const TARGET = fileURLToPath(new URL('../src/api/verdict-examples.ts', import.meta.url));

/**
 * The verdicts of {@link EXAMPLE_URLS} as `POST /v1/detect` answers them with a key, in an app
 * built like the test's (`PAGE_ANALYSIS=off`; `buildApp()`'s local intel layer: the store's
 * feeds, none here, no RDAP or Web Risk).
 */
export async function judgeExampleUrls(): Promise<{ safe: unknown; danger: unknown }> {
  const dir = mkdtempSync(join(tmpdir(), 'linkguard-examples-'));
  const config = loadConfig({
    SOLANA_RPC_URL: 'http://127.0.0.1:9',
    BASE_RPC_URL: 'http://127.0.0.1:9',
    PAGE_ANALYSIS: 'off',
    DATABASE_URL: `sqlite:${join(dir, 'lg.db')}`,
  });
  const store = await openStore(config.store);
  const app = await buildApp({
    config,
    store,
    engine: defaultEngine(),
    clock: systemClock,
    logger: createLogger('warn'),
  });
  try {
    const key = generateApiKey();
    await store.keys.createKey({
      id: key.id,
      name: 'api examples',
      prefix: key.prefix,
      hash: key.hash,
      createdAt: systemClock.now(),
      expiresAt: null,
      rateLimitPerMinute: null,
      monthlyAllowance: null,
      hardCap: false,
    });
    const judge = async (url: string): Promise<unknown> => {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/detect',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key.raw}` },
        payload: JSON.stringify({ url }),
      });
      if (response.statusCode !== 200) {
        throw new Error(`${url}: HTTP ${String(response.statusCode)} ${response.body}`);
      }
      return response.json();
    };
    return { safe: await judge(EXAMPLE_URLS.safe), danger: await judge(EXAMPLE_URLS.danger) };
  } finally {
    await app.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { safe, danger } = await judgeExampleUrls();
  const text = `/**
 * @module api/verdict-examples
 * Real verdicts shown as examples in the API reference: what \`POST /v1/detect\` answered for the
 * URLs of \`example-urls.ts\`, judged by the URL layer with no feeds loaded and RDAP and page
 * analysis off. Written by \`npx tsx scripts/update-api-examples.ts\`; do not edit by hand.
 * \`test/http/api-examples.test.ts\` judges the URLs again and fails when these drift.
 */
import type { Verdict } from '../engine/verdict.js';

/** The verdict of \`EXAMPLE_URLS.safe\`. */
export const SAFE_VERDICT_EXAMPLE: Verdict = ${JSON.stringify(safe, null, 2)};

/** The verdict of \`EXAMPLE_URLS.danger\`. */
export const DANGER_VERDICT_EXAMPLE: Verdict = ${JSON.stringify(danger, null, 2)};
`;
  writeFileSync(TARGET, text);
  console.log(`wrote ${TARGET}; run prettier --write on it`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
