/**
 * @module http/routes/openapi-routes
 * `GET /v1/openapi.json`: the OpenAPI 3.1.0 document generated from the route schemas (one schema
 * per resource, so the document cannot drift from validation), and `GET /docs`: an interactive
 * API reference (Swagger UI, assets served locally, no CDN).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

import type { Config } from '../../config/config.js';
import { API_VERSION } from '../../version.js';
import type { TypedApp } from '../typed-app.js';

export async function registerOpenApi(app: TypedApp, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'linkguard',
        version: API_VERSION,
        description:
          'Link threat detection: safe / caution / danger verdicts for URLs, with the impersonated ' +
          'brand, threat types, signals and evidence. Pay 0.01 USDC per request over x402 (Solana ' +
          'or Base) or use an enterprise key.',
      },
      servers: [{ url: config.publicBaseUrl }],
      tags: [
        { name: 'detect', description: 'URL verdicts' },
        { name: 'status', description: 'Health and readiness' },
      ],
      components: {
        securitySchemes: {
          enterpriseKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'sk_live_…',
            description:
              'Enterprise key (spec §5). Skips payment. Invalid, expired or revoked → 401 invalid_api_key.',
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
        },
      },
    },
  });

  app.get('/v1/openapi.json', { schema: { hide: true } }, () => Promise.resolve(app.swagger()));

  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    staticCSP: true,
  });
}
