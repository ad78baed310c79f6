/**
 * @module http/routes/status-route
 * `GET /v1/status` (spec §4.2, DESIGN §4.14): liveness with the service version and the chains
 * this instance accepts; `GET /v1/ready`: readiness, which checks the store and reports the RPC of
 * each offered chain. Only the store decides readiness: a chain RPC is shared by every instance,
 * so pulling instances out of a load balancer for its outage would also stop enterprise traffic
 * that needs no chain; paid requests answer 503 `chain_unavailable` meanwhile.
 */
import Type from 'typebox';

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
    chain: ChainSchema,
    chains: Type.Array(ChainSchema, {
      description: 'Chains on which this instance accepts payment',
    }),
  },
  { $id: 'Status' },
);

const ChainProbeSchema = Type.Union([
  Type.Literal('ok'),
  Type.Literal('unavailable'),
  Type.Literal('wrong_chain'),
]);

const ReadySchema = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('unavailable')]),
  store: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  chains: Type.Object(
    { solana: Type.Optional(ChainProbeSchema), base: Type.Optional(ChainProbeSchema) },
    { description: 'RPC of each offered chain; informational, does not decide readiness' },
  ),
});

export function registerStatusRoutes(
  app: TypedApp,
  deps: { config: Config; store: Store; payments: PaymentGate },
): void {
  const chains = offeredChains(deps.config.payments);
  const body = {
    status: 'ok' as const,
    version: SERVICE_VERSION,
    chain: chains[0] ?? ('solana' as const),
    chains,
  };

  app.get(
    '/v1/status',
    {
      schema: {
        summary: 'Health check',
        description: 'No payment and no credentials needed.',
        tags: ['status'],
        response: { 200: StatusSchema },
      },
    },
    () => Promise.resolve(body),
  );

  app.get(
    '/v1/ready',
    {
      schema: {
        summary: 'Readiness check',
        description: 'Checks the store (503 while it is unavailable) and reports the chain RPCs.',
        tags: ['status'],
        response: { 200: ReadySchema, 503: ReadySchema },
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
      if (store === 'ok') return { status: 'ready' as const, store, chains };
      return reply.code(503).send({ status: 'unavailable' as const, store, chains });
    },
  );
}
