/**
 * @module api/example-urls
 * The URLs of the API reference's examples (`/docs`): a brand's official site (`safe`) and an
 * invented look-alike of a wallet's name with lure words (`danger`), judged for real by
 * `scripts/update-api-examples.ts` into `verdict-examples.ts`. Neither comes from a threat feed.
 */
export const EXAMPLE_URLS = {
  safe: 'https://docs.github.com/',
  danger: 'https://metamask-restore-wallet.com/',
  /** A private address: `/v1/detect` refuses it (400 `invalid_url`, reason `private_address`). */
  refused: 'http://10.0.0.1/',
} as const;
