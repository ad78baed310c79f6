/**
 * @module api/detect-request-schema
 * Body of `POST /v1/detect` (README, "API"). Only `url`; unknown fields are rejected.
 */
import Type from 'typebox';

import { MAX_URL_LENGTH } from '../engine/url/normalize-url.js';

export const DetectRequestSchema = Type.Object(
  {
    url: Type.String({
      maxLength: MAX_URL_LENGTH,
      description:
        'http(s) URL, or a bare host read as https://host/. At most 2048 characters; private, ' +
        'loopback, link-local, reserved and special-use hosts are refused.',
      examples: ['https://metamask-restore-wallet.com/'],
    }),
  },
  { additionalProperties: false, $id: 'DetectRequest' },
);
