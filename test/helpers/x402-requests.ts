/**
 * Helpers for the x402 flow of `POST /v1/detect` through `app.inject()`: get a challenge, present
 * a proof, and read a refusal, validating each 402 body against the OpenAPI schema.
 */
import type { LightMyRequestResponse } from 'fastify';
import { Compile } from 'typebox/compile';
import { expect } from 'vitest';

import { PaymentChallengeSchema } from '../../src/api/error-schemas.js';
import {
  paymentHeaders,
  type PaymentProof,
  type ProofForm,
} from '../../src/payments/payment-proof.js';
import { detect } from './detect-request.js';
import type { TestApp } from './test-app.js';

const challengeValidator = Compile(PaymentChallengeSchema);

/** The parts of a 402 body the tests read. */
export interface Challenge {
  error: string;
  reason?: string;
  retry_after?: number;
  message: string;
  payment: { nonce: string; memo_format?: string; sign_message?: string } | null;
  accepts: { network: string; payTo: string; asset: string; extra: Record<string, string> }[];
}

/** Ask for the verdict without proof; returns the 402 body (its nonce is `payment.nonce`). */
export async function challengeFor(app: TestApp, url: string): Promise<Challenge> {
  const response = await detect(app, { url });
  expect(response.statusCode).toBe(402);
  return validChallenge(response);
}

/** Present `proof` for `url` in the given header form. */
export function presentProof(
  app: TestApp,
  url: string,
  proof: PaymentProof,
  form: ProofForm = 'x-payment',
): Promise<LightMyRequestResponse> {
  return detect(app, { url }, { headers: paymentHeaders(proof, form) });
}

/** Expect a 402 `payment_invalid` with `reason`; returns its (schema-valid) body. */
export function expectRefusal(response: LightMyRequestResponse, reason: string): Challenge {
  expect(response.statusCode, response.body).toBe(402);
  const body = validChallenge(response);
  expect(body).toMatchObject({ status: 402, error: 'payment_invalid', reason, x402Version: 1 });
  return body;
}

function validChallenge(response: LightMyRequestResponse): Challenge {
  const body: unknown = response.json();
  expect([...challengeValidator.Errors(body)]).toEqual([]);
  return body as Challenge;
}
