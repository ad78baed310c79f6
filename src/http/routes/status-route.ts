/**
 * @module http/routes/status-route
 * `GET /v1/status` (spec §4.2, DESIGN §4.14): liveness with the service version and the chains
 * this instance accepts; `GET /v1/ready`: readiness, which checks the store.
 */
import Type from 'typebox';

import type { Config } from '../../config/config.js';
import { offeredChains } from '../../payments/payment-challenge.js';
import type { Store } from '../../store/ports.js';
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

const ReadySchema = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('unavailable')]),
  store: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
});

export function registerStatusRoutes(app: TypedApp, deps: { config: Config; store: Store }): void {
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
        description: 'Checks the store; 503 while it is unavailable.',
        tags: ['status'],
        response: { 200: ReadySchema, 503: ReadySchema },
      },
    },
    async (request, reply) => {
      try {
        await deps.store.ping();
        return { status: 'ready' as const, store: 'ok' as const };
      } catch (error) {
        request.log.error({ err: error }, 'store ping failed');
        return reply
          .code(503)
          .send({ status: 'unavailable' as const, store: 'unavailable' as const });
      }
    },
  );
}
