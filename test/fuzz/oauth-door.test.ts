/**
 * Fuzz and property tests of /oauth/*: registration, authorization, token, revocation, metadata (issue 14): no 5xx, a documented code for every 4xx, an
 * answer within the bound, and a healthy server afterwards. Fixed seed, bounded count; the long
 * randomized pass is `npm run fuzz`. The properties are in door-properties.ts.
 */
import { PROPERTIES } from './door-properties.js';
import { describeDoors } from './door-suite.js';

describeDoors(
  'fuzz: /oauth/*: registration, authorization, token, revocation, metadata',
  PROPERTIES.oauth,
  80,
);
