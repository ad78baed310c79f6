/**
 * Fuzz and property tests of POST /v1/detect: bodies, headers, URLs, other paths (issue 14): no 5xx, a documented code for every 4xx, an
 * answer within the bound, and a healthy server afterwards. Fixed seed, bounded count; the long
 * randomized pass is `npm run fuzz`. The properties are in door-properties.ts.
 */
import { PROPERTIES } from './door-properties.js';
import { describeDoors } from './door-suite.js';

describeDoors('fuzz: POST /v1/detect: bodies, headers, URLs, other paths', PROPERTIES.detect, 100);
