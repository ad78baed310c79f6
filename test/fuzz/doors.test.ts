/**
 * Fuzz and property tests of every door (issue 14): `/v1/detect` bodies, headers and URLs,
 * payment proofs (X-PAYMENT and X-402-*, Solana and Base), `/mcp` JSON-RPC, the OAuth
 * endpoints, and URL validation. No 5xx, a documented code for every 4xx, an answer within the
 * bound, and a healthy server afterwards. Fixed seed, bounded count, one file so the engine is
 * loaded once; the long randomized pass is `npm run fuzz`. The properties are in
 * door-properties.ts.
 */
import { PROPERTIES } from './door-properties.js';
import { describeDoors } from './door-suite.js';

describeDoors('fuzz: POST /v1/detect: bodies, headers, URLs, other paths', PROPERTIES.detect, 100);
describeDoors(
  'fuzz: payment proofs: X-PAYMENT and X-402-* (Solana and Base)',
  PROPERTIES.payment,
  80,
);
describeDoors('fuzz: /mcp: JSON-RPC messages, batches, headers, methods', PROPERTIES.mcp, 80);
describeDoors(
  'fuzz: /oauth/*: registration, authorization, token, revocation, metadata',
  PROPERTIES.oauth,
  80,
);
describeDoors(
  'fuzz: URL validation: private and reserved spellings vs public hosts',
  PROPERTIES.url,
  100,
);
