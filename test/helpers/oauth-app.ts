/**
 * An app that listens on loopback with `PUBLIC_BASE_URL` equal to its own address, as the OAuth
 * flow needs: clients discover the endpoints from metadata built from `PUBLIC_BASE_URL` and
 * compare `issuer` and `resource` with the URL they were given. The port is reserved by binding
 * a throwaway listener to port 0 and releasing it just before the app takes it.
 */
import { createServer } from 'node:net';

import { generateLicense } from '../../src/access/license.js';
import type { Store } from '../../src/store/ports/store.js';
import type { TestAppOptions, TestContext } from './test-app.js';

/** A free loopback TCP port (released, then taken again by the caller). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const address = probe.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => {
    probe.close(() => {
      resolve();
    });
  });
  return port;
}

/** A started, listening test app and its public addresses. */
export interface ListeningApp {
  ctx: TestContext;
  /** `http://127.0.0.1:<port>`, also its PUBLIC_BASE_URL (the issuer). */
  base: string;
  /** `${base}/mcp`, the protected resource. */
  mcpUrl: string;
}

/**
 * Start `start()` (from `useTestApp`) with PUBLIC_BASE_URL on a free port and listen there.
 *
 * @param options laid under the PUBLIC_BASE_URL this sets.
 */
export async function startListeningApp(
  start: (options?: TestAppOptions) => Promise<TestContext>,
  options: TestAppOptions = {},
): Promise<ListeningApp> {
  const port = await freePort();
  const base = `http://127.0.0.1:${String(port)}`;
  const ctx = await start({
    ...options,
    env: { ...options.env, PUBLIC_BASE_URL: base },
  });
  await ctx.app.listen({ port, host: '127.0.0.1' });
  return { ctx, base, mcpUrl: `${base}/mcp` };
}

/**
 * Create a Premium license the way `linkguard licenses create` does.
 *
 * @returns the raw license (what a user types on the authorization page) and its id.
 */
export async function createPremiumLicense(
  store: Store,
  createdAt: number,
): Promise<{ raw: string; id: string }> {
  const license = generateLicense();
  await store.licenses.createLicense({
    id: license.id,
    name: 'premium test',
    prefix: license.prefix,
    hash: license.hash,
    createdAt,
  });
  return { raw: license.raw, id: license.id };
}
