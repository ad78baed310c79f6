/**
 * @module oauth/oauth-routes
 * The connector's OAuth 2.1 authorization server in Fastify (docs/architecture.md,
 * "Authorization server"):
 *
 * | route | what |
 * |---|---|
 * | `GET /.well-known/oauth-authorization-server` | RFC 8414 metadata |
 * | `POST /oauth/register` | RFC 7591 registration (JSON) |
 * | `GET /oauth/authorize` | checks the request, shows the sign-in page |
 * | `POST /oauth/authorize` | the page's form → 303 to the client with a code |
 * | `POST /oauth/token` | code or refresh token → tokens (urlencoded) |
 * | `POST /oauth/revoke` | RFC 7009 revocation (urlencoded) |
 *
 * The routes live in their own plugin scope: only here are urlencoded bodies and cookies parsed,
 * and errors take the OAuth shape `{error, error_description}` instead of the API's.
 */

import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { Clock } from '../clock.js';
import { authFailuresMessage, type RateLimits } from '../ratelimit/rate-limits.js';
import type { Store } from '../store/ports/store.js';
import {
  PAGE_HEADERS,
  pageSecurityPolicy,
  renderAuthorizationPage,
  renderErrorPage,
} from './authorization-page.js';
import {
  type AuthorizationOutcome,
  startAuthorization,
  submitAuthorization,
} from './authorization-request.js';
import { registerClient } from './client-registration.js';
import type { OAuthContext, OAuthParams } from './oauth-context.js';
import { OAuthError } from './oauth-error.js';
import { authorizationServerMetadata, OAUTH_PATHS } from './oauth-metadata.js';
import {
  MAX_PENDING_SIGN_INS_PER_SOURCE,
  MAX_REGISTRATIONS_PER_SOURCE,
  sourceCap,
} from './oauth-source.js';
import { exchangeToken } from './token-endpoint.js';
import { revokeToken } from './token-revocation.js';

/** What the routes need. */
export interface OAuthRouteDeps {
  store: Store;
  clock: Clock;
  /** `PUBLIC_BASE_URL`, the issuer. */
  publicBaseUrl: string;
  limits: RateLimits;
}

/** RFC 6749 §5.1: token responses and errors must not be cached. */
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

const FORM = 'application/x-www-form-urlencoded';

/** Not part of the REST API: described by the metadata document, not by OpenAPI. */
const hidden = { schema: { hide: true } };

/** Register the authorization server's routes. */
export async function registerOAuthRoutes(
  app: FastifyInstance,
  deps: OAuthRouteDeps,
): Promise<void> {
  const ctx: OAuthContext = {
    store: deps.store,
    clock: deps.clock,
    publicBaseUrl: deps.publicBaseUrl,
  };
  const metadata = authorizationServerMetadata(deps.publicBaseUrl);
  const base = URL.parse(deps.publicBaseUrl);
  const basePath = base === null || base.pathname === '/' ? '' : base.pathname;
  const secureCookie = base?.protocol === 'https:';

  await app.register(async (scope) => {
    await scope.register(formbody);
    await scope.register(cookie);
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const refusal = toOAuthError(error);
      if (refusal === null) {
        request.log.error({ err: error }, 'oauth request failed');
        return reply
          .code(500)
          .headers(NO_STORE)
          .send({ error: 'server_error', error_description: 'Internal error' });
      }
      // RFC 6749 §5.2: a client that tried the Authorization header gets a Basic challenge.
      if (
        refusal.code === 'invalid_client' &&
        (request.headers.authorization ?? '').trim() !== ''
      ) {
        void reply.header('www-authenticate', 'Basic realm="linkguard"');
      }
      if (refusal.retryAfter !== undefined) {
        void reply.header('retry-after', String(refusal.retryAfter));
      }
      return reply.code(refusal.status).headers(NO_STORE).send(refusal.body());
    });

    // RFC 8414 §3: at the root, plus the issuer path when PUBLIC_BASE_URL has one.
    for (const path of new Set(['', basePath])) {
      scope.get(`/.well-known/oauth-authorization-server${path}`, hidden, (_request, reply) =>
        reply.header('cache-control', 'public, max-age=3600').send(metadata),
      );
    }

    scope.post(OAUTH_PATHS.register, hidden, async (request, reply) => {
      await spendOAuthBudget(deps.limits, request, reply);
      const registered = await registerClient(
        deps.store.oauth,
        deps.clock,
        request.body,
        sourceCap(request.ip, MAX_REGISTRATIONS_PER_SOURCE),
      );
      return reply.code(201).headers(NO_STORE).send(registered);
    });

    // Both steps of the page spend the per-IP budget: the GET stores a pending request, the
    // POST checks a credential.
    scope.get(OAUTH_PATHS.authorize, hidden, async (request, reply) => {
      if (await refusedPage(request, reply)) return reply;
      const source = sourceCap(request.ip, MAX_PENDING_SIGN_INS_PER_SOURCE);
      const outcome = await startAuthorization(ctx, request.query as OAuthParams, source);
      return sendOutcome(reply, outcome, 302);
    });

    scope.post(OAUTH_PATHS.authorize, hidden, async (request, reply) => {
      if (await refusedPage(request, reply)) return reply;
      const form = formOf(request);
      // Only a typed credential is an authentication attempt (not a denial or an empty form).
      const attempt =
        typeof form.credential === 'string' && form.credential !== '' && form.action !== 'deny';
      if (attempt && (await refusedFailuresPage(request, reply))) return reply;
      const outcome = await submitAuthorization(ctx, form, request.cookies);
      if (attempt && outcome.credentialRefused === true) {
        await deps.limits.recordFailure(request.ip);
      }
      return sendOutcome(reply, outcome, 303);
    });

    scope.post(OAUTH_PATHS.token, hidden, async (request, reply) => {
      await refuseExhaustedSource(request, reply);
      const tokens = await countFailures(request, () =>
        exchangeToken(ctx, formOf(request), request.headers.authorization),
      );
      return reply.headers(NO_STORE).send(tokens);
    });

    scope.post(OAUTH_PATHS.revoke, hidden, async (request, reply) => {
      await refuseExhaustedSource(request, reply);
      await countFailures(request, () =>
        revokeToken(ctx, formOf(request), request.headers.authorization),
      );
      return reply.headers(NO_STORE).send({});
    });
  });

  /** Spend the IP's budget; when it is spent, answer a 429 page and return true. */
  async function refusedPage(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const state = await deps.limits.consumeOAuth(request.ip);
    if (state.allowed) return false;
    void reply.header('retry-after', String(state.resetSeconds));
    void sendOutcome(
      reply,
      {
        kind: 'error',
        status: 429,
        message: 'Too many attempts from this network. Wait a minute.',
      },
      303,
    );
    return true;
  }

  /**
   * Refuse a token or revocation request from a source whose failure budget is spent, before any
   * credential is checked (docs/decisions.md, decision 131).
   *
   * @throws {OAuthError} `rate_limited` (429, with `Retry-After`).
   */
  async function refuseExhaustedSource(request: FastifyRequest, reply: FastifyReply) {
    const gate = await deps.limits.peekFailures(request.ip);
    if (gate.allowed) return;
    void reply.header('retry-after', String(gate.resetSeconds));
    throw new OAuthError('rate_limited', authFailuresMessage(gate.resetSeconds));
  }

  /**
   * Run a token or revocation step, counting a failed client authentication or a refused code
   * or refresh token (`invalid_client`, `invalid_grant`) against the source's failure budget.
   */
  async function countFailures<T>(request: FastifyRequest, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (
        error instanceof OAuthError &&
        (error.code === 'invalid_client' || error.code === 'invalid_grant')
      ) {
        await deps.limits.recordFailure(request.ip);
      }
      throw error;
    }
  }

  /** The sign-in form's credential from a source whose failure budget is spent: a 429 page. */
  async function refusedFailuresPage(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<boolean> {
    const gate = await deps.limits.peekFailures(request.ip);
    if (gate.allowed) return false;
    void reply.header('retry-after', String(gate.resetSeconds));
    void sendOutcome(
      reply,
      { kind: 'error', status: 429, message: authFailuresMessage(gate.resetSeconds) },
      303,
    );
    return true;
  }

  function sendOutcome(reply: FastifyReply, outcome: AuthorizationOutcome, redirectCode: number) {
    void reply.headers(PAGE_HEADERS);
    switch (outcome.kind) {
      case 'redirect':
        return reply.code(redirectCode).header('location', outcome.location).send();
      case 'error':
        if (outcome.retryAfter !== undefined) {
          void reply.header('retry-after', String(outcome.retryAfter));
        }
        return reply
          .code(outcome.status)
          .header('content-security-policy', pageSecurityPolicy(null))
          .type('text/html; charset=utf-8')
          .send(renderErrorPage(outcome.message));
      case 'page':
        if (outcome.cookie !== null) {
          void reply.setCookie(outcome.cookie.name, outcome.cookie.value, {
            path: basePath + OAUTH_PATHS.authorize,
            httpOnly: true,
            sameSite: 'strict',
            secure: secureCookie,
            maxAge: outcome.cookie.maxAgeSeconds,
          });
        }
        return reply
          .code(outcome.status)
          .header('content-security-policy', pageSecurityPolicy(outcome.view.redirectUri))
          .type('text/html; charset=utf-8')
          .send(renderAuthorizationPage(outcome.view));
    }
  }
}

/**
 * The urlencoded body of a request.
 * @throws {OAuthError} `invalid_request` for another content type (RFC 6749 §3.2: the token
 *   endpoint takes `application/x-www-form-urlencoded`).
 */
function formOf(request: FastifyRequest): OAuthParams {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== FORM || typeof request.body !== 'object' || request.body === null) {
    throw new OAuthError('invalid_request', `The body must be ${FORM}`);
  }
  return request.body as OAuthParams;
}

async function spendOAuthBudget(
  limits: RateLimits,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const state = await limits.consumeOAuth(request.ip);
  if (!state.allowed) {
    void reply.header('retry-after', String(state.resetSeconds));
    throw new OAuthError('rate_limited', 'Too many requests from this address; retry later.');
  }
}

/** An OAuth refusal for a known error; null for an unexpected one (a 500). */
function toOAuthError(error: FastifyError): OAuthError | null {
  if (error instanceof OAuthError) return error;
  const status = error.statusCode ?? 500;
  if (status >= 500) return null;
  // Malformed JSON, a wrong content type, a body too large: the client's request is at fault.
  return new OAuthError('invalid_request', error.message);
}
