/**
 * @module http/typed-app
 * The Fastify instance type with the TypeBox type provider, for route registration helpers.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

export type TypedApp = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;
