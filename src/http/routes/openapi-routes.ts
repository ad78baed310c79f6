/**
 * @module http/routes/openapi-routes
 * `GET /v1/openapi.json`: the OpenAPI 3.1.0 document generated from the route schemas (one schema
 * per resource, so the document cannot drift from validation), plus the connector's and its
 * authorization server's endpoints, described by hand (`openapi-connector-paths.ts`); and
 * `GET /docs`: the interactive API reference (Swagger UI, every file served locally, linkguard's
 * own logo, title and favicon from `docs-branding.ts`).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

import type { Config } from '../../config/config.js';
import { API_VERSION } from '../../version.js';
import { DOCS_CSP, DOCS_TITLE, FAVICON_SVG, LOGO_SVG, THEME_CSS } from '../docs-branding.js';
import { CONNECTOR_PATHS, CONNECTOR_TAGS } from '../openapi-connector-paths.js';
import type { TypedApp } from '../typed-app.js';

const DESCRIPTION = [
  'Link threat detection for people and AI agents about to click a link, connect a wallet or ' +
    'sign a transaction: send a URL, get `safe`, `caution` or `danger`, with the brand it ' +
    'impersonates, the threat types, all 23 signals and the evidence behind them.',
  '**Access.** Pay 0.01 USDC per request over x402 (Solana or Base): a request without a key is ' +
    'answered 402 with payment instructions; pay, then re-send it with the proof. Or send an ' +
    'enterprise key as `Authorization: Bearer sk_live_…` (`linkguard keys create`); batches ' +
    '(`POST /v1/detect/batch`) take a key only.',
  '**Wrong verdict?** Report it with `POST /v1/reports` (tag `reports`): free, with a key, a ' +
    'connector access token or anonymously; the operator reviews every report.',
  '**Errors** are `{status, error, message}` plus `reason` where a finer cause exists and ' +
    '`retry_after` on 429 and 503; each status below lists its codes. Every detect response ' +
    'carries `X-Request-Id` and the rate-limit header fields `RateLimit-Policy` and `RateLimit` ' +
    '(draft-ietf-httpapi-ratelimit-headers-11).',
  '**AI agents** reach the same engine through the MCP connector at `/mcp` (tag `connector`), ' +
    'signing in through the OAuth endpoints (tag `oauth`). The README of the project describes ' +
    'each part in its sections "API", "Paying per request (x402)", "MCP connector (/mcp)" and ' +
    '"Enterprise keys".',
].join('\n\n');

export async function registerOpenApi(app: TypedApp, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'linkguard', version: API_VERSION, description: DESCRIPTION },
      servers: [{ url: config.publicBaseUrl }],
      tags: [
        { name: 'detect', description: 'URL verdicts' },
        { name: 'reports', description: 'Disputes of verdicts, for the operator to review' },
        { name: 'status', description: 'Health and readiness' },
        ...CONNECTOR_TAGS,
      ],
      components: {
        securitySchemes: {
          enterpriseKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'sk_live_…',
            description:
              'Enterprise key (README, "Enterprise keys"). Skips payment. Invalid, expired or ' +
              'revoked → 401 invalid_api_key.',
          },
          x402: {
            type: 'apiKey',
            in: 'header',
            name: 'X-PAYMENT',
            description:
              'x402 payment proof: base64 of {x402Version: 1, scheme: "exact", network: "solana"|"base", ' +
              'payload: {txSignature, nonce} | {txHash, walletSig, nonce}}. Legacy form: X-402-Chain, ' +
              'X-402-Signature, X-402-Nonce, X-402-Wallet-Sig. Get the nonce from a 402 response.',
          },
          connectorToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'mcp_at_… or sk_live_…',
            description:
              'For tools/call on /mcp and for POST /v1/reports: an access token from the OAuth ' +
              'sign-in (tag oauth) or an enterprise key.',
          },
        },
      },
    },
    // The connector's and the authorization server's endpoints speak JSON-RPC and OAuth, not
    // this API's JSON: their routes are hidden and described by hand instead.
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      const document = documentObject.openapiObject;
      // The hand-written path items follow OpenAPI 3.1 (the document validates in the tests).
      return { ...document, paths: { ...document.paths, ...CONNECTOR_PATHS } } as typeof document;
    },
  });

  app.get('/v1/openapi.json', { schema: { hide: true } }, () => Promise.resolve(app.swagger()));

  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    logo: { type: 'image/svg+xml', content: LOGO_SVG, href: '/docs', target: '_self' },
    theme: {
      title: DOCS_TITLE,
      css: [{ filename: 'linkguard.css', content: THEME_CSS }],
      favicon: [
        {
          filename: 'linkguard.svg',
          rel: 'icon',
          type: 'image/svg+xml',
          sizes: 'any',
          content: FAVICON_SVG,
        },
      ],
    },
    staticCSP: DOCS_CSP,
  });
}
