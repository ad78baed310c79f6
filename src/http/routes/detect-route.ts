/**
 * @module http/routes/detect-route
 * `POST /v1/detect` (README "API", docs/architecture.md): validate → access (enterprise key or x402) → rate
 * limit → detect. Thin: the decisions live in access/, payments/, ratelimit/ and the detection
 * service.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';

import { DetectRequestSchema } from '../../api/detect-request-schema.js';
import { detectResponses } from '../../api/response-docs.js';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config/config.js';
import type { Verdict } from '../../engine/verdict.js';
import { readExactPayment } from '../../payments/exact/exact-payment.js';
import { offeredChains, type PaymentChallengeBody } from '../../payments/payment-challenge.js';
import type { PaymentGate, PaymentRefusal } from '../../payments/payment-gate.js';
import { encodeSettlementResponse, readPaymentProof } from '../../payments/payment-proof.js';
import type { RateLimits } from '../../ratelimit/rate-limits.js';
import { admitKeyRequest } from '../../service/admit-key-request.js';
import type { DetectionService } from '../../service/detection-service.js';
import type { Store } from '../../store/ports/store.js';
import { requestKey } from '../key-access.js';
import {
  enforceRateLimit,
  rateLimitHeadersOnSend,
  setRateLimitHeaders,
} from '../rate-limit-headers.js';
import type { TypedApp } from '../typed-app.js';

interface DetectDeps {
  config: Config;
  store: Store;
  clock: Clock;
  limits: RateLimits;
  service: DetectionService;
  payments: PaymentGate;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Serialized verdicts. Cached verdicts are frozen and shared, so their JSON never changes: keep it
 * next to the verdict and send the string (Fastify then skips serialization). Verdicts match
 * `VerdictSchema` exactly (checked at compile time), so JSON.stringify gives the same body.
 * Uncached verdicts are serialized directly: a weak map entry per one-off verdict costs the
 * garbage collector more than it saves.
 */
const serialized = new WeakMap<Verdict, string>();

function verdictJson(verdict: Verdict): string {
  if (!Object.isFrozen(verdict)) return JSON.stringify(verdict);
  let json = serialized.get(verdict);
  if (json === undefined) {
    json = JSON.stringify(verdict);
    serialized.set(verdict, json);
  }
  return json;
}

/**
 * The proof headers, for the API description only: every value is a plain string here, and
 * `readPaymentProof` checks their form (a malformed proof is 402 `malformed_proof`, not 400).
 */
const ProofHeadersSchema = Type.Object({
  'x-payment': Type.Optional(
    Type.String({
      description:
        'Preferred proof: base64 JSON (see the x402 security scheme), or a standard x402 v1 `exact` payment payload',
    }),
  ),
  'payment-signature': Type.Optional(
    Type.String({ description: 'Standard x402 v2 `exact` payment payload (@x402/core encoding)' }),
  ),
  'x-402-chain': Type.Optional(
    Type.String({ description: 'Legacy proof: "solana" (default) or "base"' }),
  ),
  'x-402-signature': Type.Optional(
    Type.String({ description: 'Legacy proof: Solana transaction signature or Base tx hash' }),
  ),
  'x-402-nonce': Type.Optional(
    Type.String({ description: 'Legacy proof: the nonce of the 402 that was paid' }),
  ),
  'x-402-wallet-sig': Type.Optional(
    Type.String({ description: 'Legacy proof, Base: EIP-191 signature of "<prefix>:<nonce>"' }),
  ),
});

export function registerDetectRoute(app: TypedApp, deps: DetectDeps): void {
  app.post(
    '/v1/detect',
    {
      schema: {
        summary: 'Verdict for one URL',
        description:
          'Returns safe / caution / danger with trust score, impersonated brand, threat types, ' +
          'all 23 signals and details. Pay 0.01 USDC per request (x402, Solana or Base) or send an ' +
          'enterprise key. Without either, the answer is 402 with payment instructions and a nonce; ' +
          'pay, then re-send the identical request with the proof (X-PAYMENT, or the X-402-* ' +
          'headers). A paid 200 carries X-PAYMENT-RESPONSE: base64 of {success, transaction, ' +
          'network, payer}. Standard x402 clients pay with the `exact` scheme when the instance ' +
          'settles it: v1 (X-PAYMENT, answered with X-PAYMENT-RESPONSE) from the body, v2 ' +
          '(PAYMENT-SIGNATURE, answered with PAYMENT-RESPONSE) from the PAYMENT-REQUIRED header.',
        tags: ['detect'],
        headers: ProofHeadersSchema,
        body: DetectRequestSchema,
        security: [{ enterpriseKey: [] }, { x402: [] }],
        response: detectResponses(),
      },
      // Every detect response carries the rate-limit headers (README, "API"), also when it was
      // refused before any budget was spent (400): then the caller's public budget is reported
      // without counting.
      onSend: rateLimitHeadersOnSend(deps.limits),
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const url = deps.service.parse(request.body.url);

      const key = await requestKey(deps, request, reply);
      if (key !== null) {
        // The URL counts against the key like every URL a key has judged (decision 184).
        const admitted = await admitKeyRequest(deps, key);
        setRateLimitHeaders(reply, admitted.limit);
        if (!admitted.ok) throw admitted.error;
        const verdict = await deps.service.judgeAdmitted(admitted.admission, url);
        // The pre-serialized body goes through the untyped reply (the schema describes the object).
        return (reply as FastifyReply).type(JSON_TYPE).send(verdictJson(verdict));
      }

      enforceRateLimit(reply, await deps.limits.consumePublic(request.ip));
      const urlHash = deps.service.urlSha256(url);
      const exact = readExactPayment(request.headers);
      if (exact.kind === 'malformed') {
        return refuse(request, reply, deps, await deps.payments.malformed(urlHash, exact.message));
      }
      if (exact.kind === 'exact') {
        const { payment } = exact;
        const verified = await deps.payments.verifyExact(payment, urlHash);
        if (!verified.ok) return refuse(request, reply, deps, verified.refusal);
        // Judge before settling: a failure here is a 5xx that charged and consumed nothing.
        const verdict = await deps.service.judge(url);
        const settled = await deps.payments.settleExact(verified.value, urlHash);
        if (!settled.ok) return refuse(request, reply, deps, settled.refusal);
        request.log.info(
          { payment: { chain: payment.chain, form: `exact-v${payment.version}` } },
          'paid request',
        );
        return (reply as FastifyReply)
          .header(settled.value.header, settled.value.value)
          .type(JSON_TYPE)
          .send(verdictJson(verdict));
      }
      const read = readPaymentProof(request.headers);
      if (read.kind === 'none') {
        const body = await deps.payments.challenge(urlHash, paymentRequiredMessage(deps.config));
        await setPaymentRequired(reply, deps, body);
        return reply.code(402).send(body);
      }
      if (read.kind === 'malformed') {
        return refuse(request, reply, deps, await deps.payments.malformed(urlHash, read.message));
      }
      const verified = await deps.payments.verify(read.proof, urlHash);
      if (!verified.ok) return refuse(request, reply, deps, verified.refusal);
      // Judge before claiming: a failure here is a 5xx that consumed nothing, and the same proof
      // works on retry (README "Paying per request"). The verdict is sent only once the claim is stored.
      const verdict = await deps.service.judge(url);
      const settled = await deps.payments.claim(verified.value, urlHash);
      if (!settled.ok) return refuse(request, reply, deps, settled.refusal);
      request.log.info({ payment: { chain: read.proof.chain, form: read.form } }, 'paid request');
      return (reply as FastifyReply)
        .header('x-payment-response', encodeSettlementResponse(settled.value))
        .type(JSON_TYPE)
        .send(verdictJson(verdict));
    },
  );

  const methodNotAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({ status: 405, error: 'method_not_allowed', message: 'Use POST /v1/detect' });
  app.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: '/v1/detect',
    handler: methodNotAllowed,
    schema: { hide: true },
  });
}

function paymentRequiredMessage(config: Config): string {
  const names = offeredChains(config.payments).map((c) => (c === 'solana' ? 'Solana' : 'Base'));
  const where = names.length === 0 ? '' : ` on ${names.join(' or ')}`;
  return `Payment required: ${config.payments.priceUsdc} USDC per request${where}, or an enterprise key.`;
}

/** Send a refused proof: 402 with the reason and payment instructions. */
async function refuse(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: DetectDeps,
  refusal: PaymentRefusal,
) {
  // The reason only: proofs, transaction ids and nonces stay out of logs (README, "Limitations and security considerations").
  request.log.info({ payment: { refused: refusal.reason } }, 'payment refused');
  if (refusal.retryAfter !== undefined) reply.header('retry-after', String(refusal.retryAfter));
  await setPaymentRequired(reply, deps, refusal.challenge);
  return reply.code(402).send(refusal.challenge);
}

/**
 * Every 402 that offers standard x402 v2 payments carries them in `PAYMENT-REQUIRED` (x402 v2
 * HTTP transport), with the same nonce as the body.
 */
async function setPaymentRequired(
  reply: FastifyReply,
  deps: DetectDeps,
  body: PaymentChallengeBody,
): Promise<void> {
  const header = await deps.payments.paymentRequiredHeader(body);
  if (header !== null) reply.header('payment-required', header);
}
