/**
 * Debian's headless Chromium (`apt-get install chromium`), launched through playwright-core with
 * flags for a quiet, offline browser in a container. Shared by the authorization page test and
 * `npm run screenshot:oauth`, so this module must not import vitest.
 */
import { type Browser, chromium } from 'playwright-core';

/** Where Debian's `chromium` package installs the browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** Flags for a quiet, offline headless Chromium in a container. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launch {@link CHROMIUM} with {@link CHROMIUM_ARGS}; the launch may take `timeoutMs`. */
export function launchChromium(timeoutMs: number): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS],
    timeout: timeoutMs,
  });
}
