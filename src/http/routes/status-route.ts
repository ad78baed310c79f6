/**
 * @module http/routes/status-route
 * `GET /v1/status` (README, "API"): liveness with the service version and the chains
 * this instance actually offers (`chain` is null and `chains` empty when no recipient is
 * configured: the 402 then points to enterprise keys). `GET /v1/ready`: readiness. The store
 * decides the status code by default: a chain RPC is shared by every instance, so pulling
 * instances out of a load balancer for its outage would also stop enterprise traffic that needs
 * no chain (paid requests answer 503 `chain_unavailable` meanwhile). The body says `payments`
 * (`ok`, `degraded`: some offered chain's RPC fails, `unavailable`: every one fails, `off`: none
 * offered) and each chain's probe, so a balancer can match on it; a pool that serves paid
 * traffic only asks `?require=payments`, which is 503 while no offered chain answers
 * (docs/decisions.md, "Hardening (issue 14)"). Chain probes are bounded in time and shared for a
 * few seconds (`PaymentGate.probeChains`).
 */
import Type from 'typebox';

import { ErrorBodySchema } from '../../api/error-schemas.js';
import { documented } from '../../api/response-docs.js';
import type { Config } from '../../config/config.js';
import { offeredChains } from '../../payments/payment-challenge.js';
import type { PaymentGate } from '../../payments/payment-gate.js';
import type { Store } from '../../store/ports/store.js';
import { SERVICE_VERSION } from '../../version.js';
import type { TypedApp } from '../typed-app.js';

const ChainSchema = Type.Union([Type.Literal('solana'), Type.Literal('base')]);

export const StatusSchema = Type.Object(
  {
    status: Type.Literal('ok'),
    version: Type.String(),
    chain: Type.Union([ChainSchema, Type.Null()], {
      description:
        'The preferred payment chain (the first of `chains`); null when no chain is offered',
    }),
    chains: Type.Array(ChainSchema, {
      description:
        'Chains on which this instance accepts payment (those with a configured recipient); empty: enterprise keys only',
    }),
  },
  { $id: 'Status' },
);

const ChainProbeSchema = Type.Union([
  Type.Literal('ok'),
  Type.Literal('unavailable'),
  Type.Literal('wrong_chain'),
]);

const PaymentsReadinessSchema = Type.Union(
  [Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('unavailable'), Type.Literal('off')],
  {
    description:
      'ok: every offered chain RPC answers; degraded: some fail; unavailable: all fail; off: no chain offered',
  },
);

const ReadySchema = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('unavailable')]),
  store: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  payments: PaymentsReadinessSchema,
  chains: Type.Object(
    { solana: Type.Optional(ChainProbeSchema), base: Type.Optional(ChainProbeSchema) },
    {
      description:
        'RPC of each offered chain (probed at most every few seconds); decides the status code only with ?require=payments',
    },
  ),
});

const ReadyQuerySchema = Type.Object(
  {
    require: Type.Optional(
      Type.Literal('payments', {
        description:
          'Also answer 503 while payments are unavailable (no offered chain RPC answers, or none offered)',
      }),
    ),
  },
  { additionalProperties: false },
);

type PaymentsReadiness = 'ok' | 'degraded' | 'unavailable' | 'off';

/** Payments readiness from the probes of the offered chains. */
function paymentsReadiness(probes: Partial<Record<string, string>>): PaymentsReadiness {
  const states = Object.values(probes);
  if (states.length === 0) return 'off';
  const ok = states.filter((state) => state === 'ok').length;
  if (ok === states.length) return 'ok';
  return ok === 0 ? 'unavailable' : 'degraded';
}

export function registerStatusRoutes(
  app: TypedApp,
  deps: { config: Config; store: Store; payments: PaymentGate },
): void {
  const chains = offeredChains(deps.config.payments);
  const body = {
    status: 'ok' as const,
    version: SERVICE_VERSION,
    chain: chains[0] ?? null,
    chains,
  };

  app.get(
    '/v1/status',
    {
      schema: {
        summary: 'Health check',
        description: 'No payment and no credentials needed.',
        tags: ['status'],
        response: {
          200: documented(StatusSchema, 'OK — the service answers.', {
            both_chains: {
              summary: 'Both chains offered',
              value: {
                status: 'ok',
                version: SERVICE_VERSION,
                chain: 'solana',
                chains: ['solana', 'base'],
              },
            },
            keys_only: {
              summary: 'No chain offered: enterprise keys only',
              value: { status: 'ok', version: SERVICE_VERSION, chain: null, chains: [] },
            },
          }),
        },
      },
    },
    () => Promise.resolve(body),
  );

  app.get(
    '/v1/ready',
    {
      schema: {
        summary: 'Readiness check',
        description:
          'Checks the store (503 while it is unavailable) and reports payments and each chain RPC. ' +
          'With ?require=payments, also 503 while payments are unavailable or off.',
        tags: ['status'],
        querystring: ReadyQuerySchema,
        response: {
          200: documented(ReadySchema, 'OK — ready: the store answers.', {
            ready: {
              summary: 'Store and both chain RPCs answer',
              value: {
                status: 'ready',
                store: 'ok',
                payments: 'ok',
                chains: { solana: 'ok', base: 'ok' },
              },
            },
          }),
          400: documented(
            ErrorBodySchema,
            'Bad Request — `invalid_request`: `require` is not `payments`.',
            {
              invalid_request: {
                summary: '?require=everything',
                value: {
                  status: 400,
                  error: 'invalid_request',
                  message: 'Invalid request querystring',
                },
              },
            },
          ),
          503: documented(
            ReadySchema,
            'Service Unavailable — not ready: the store does not answer, or (with ' +
              '?require=payments) payments are unavailable or off.',
            {
              store_down: {
                summary: 'The store does not answer',
                value: {
                  status: 'unavailable',
                  store: 'unavailable',
                  payments: 'ok',
                  chains: { solana: 'ok', base: 'ok' },
                },
              },
            },
          ),
        },
      },
    },
    async (request, reply) => {
      const [store, chains] = await Promise.all([
        deps.store.ping().then(
          () => 'ok' as const,
          (error: unknown) => {
            request.log.error({ err: error }, 'store ping failed');
            return 'unavailable' as const;
          },
        ),
        deps.payments.probeChains(),
      ]);
      const payments = paymentsReadiness(chains);
      const ready =
        store === 'ok' &&
        (request.query.require !== 'payments' || payments === 'ok' || payments === 'degraded');
      if (ready) return { status: 'ready' as const, store, payments, chains };
      return reply.code(503).send({ status: 'unavailable' as const, store, payments, chains });
    },
  );
}
