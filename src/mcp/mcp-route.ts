/**
 * @module mcp/mcp-route
 * `POST /mcp` (README, "MCP connector"; MCP 2025-11-25, "Transports"):
 * streamable HTTP with JSON responses, stateless (no `Mcp-Session-Id`): each request borrows one
 * of the SDK servers built at start (`mcp-server.ts`) for the time of its exchange, and gets a
 * transport of its own: one JSON-RPC request goes straight to the server
 * (`mcp-exchange-transport.ts`), anything else through the SDK's streamable HTTP transport. The gate reads the JSON-RPC message(s) first: a `tools/call` of a known
 * tool without valid credentials is HTTP 401 with `WWW-Authenticate: Bearer
 * resource_metadata="…"` (RFC 9728) and a JSON-RPC error body; everything else (`initialize`,
 * `tools/list`, `resources/*`, `ping`, notifications) is public. An unknown tool is -32602 with
 * or without credentials. A request other than `initialize` whose `MCP-Protocol-Version` the
 * connector does not speak is 400 (`mcp-protocol-version.ts`). `GET`, `DELETE`, `PUT` and
 * `PATCH` answer 405 with `Allow: POST`, whatever their body: there is no session to delete or
 * stream to open. The protected-resource metadata (RFC 9728) is served at both well-known forms,
 * `resource` being exactly
 * `{PUBLIC_BASE_URL}/mcp`.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { bearerChallenge, readAuthorization } from '../access/authorization-header.js';
import { protectedResourceMetadata } from '../oauth/oauth-metadata.js';
import { AUTH_FAILURES_REASON, authFailuresMessage } from '../ratelimit/rate-limits.js';
import { isSingleRequestExchange } from './mcp-exchange-transport.js';
import { McpAuthError, type McpGrant, verifyMcpBearer } from './mcp-grant.js';
import { acceptsProtocolVersionHeader, MCP_PROTOCOL_VERSIONS } from './mcp-protocol-version.js';
import { createMcpServerPool, requestAuthInfo } from './mcp-server.js';
import { TOOL_NAMES, type ToolDeps } from './mcp-tools.js';

/** JSON-RPC error code of an unauthenticated tool call (the SDK's own convention, -32001). */
const UNAUTHORIZED = -32001;

interface RpcMessage {
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown };
}

/**
 * Whether the `MCP-Protocol-Version` header of a request may go on (the MCP transport
 * specification: a version the server does not support is 400). An `initialize` negotiates the
 * version in its body, so its header is not checked.
 */
function versionHeaderAccepted(
  request: FastifyRequest,
  messages: readonly (RpcMessage | null | undefined)[],
): boolean {
  if (messages.some((m) => typeof m === 'object' && m !== null && m.method === 'initialize')) {
    return true;
  }
  return acceptsProtocolVersionHeader(request.headers['mcp-protocol-version']);
}

/** The token of a verified Bearer header (its grant was found, so the header is one). */
function bearerToken(header: string | undefined): string {
  const presented = readAuthorization(header);
  return presented.kind === 'bearer' ? presented.token : '';
}

/**
 * Register the connector routes.
 *
 * @param publicBaseUrl `PUBLIC_BASE_URL`; the resource is `${publicBaseUrl}/mcp`.
 */
export function registerMcpRoutes(
  app: FastifyInstance,
  deps: ToolDeps & { publicBaseUrl: string },
): void {
  const oauth = { store: deps.store, clock: deps.clock, publicBaseUrl: deps.publicBaseUrl };
  const metadataUrl = `${deps.publicBaseUrl}/.well-known/oauth-protected-resource/mcp`;
  const metadata = protectedResourceMetadata(deps.publicBaseUrl);
  const servers = createMcpServerPool(deps);

  // JSON-RPC, not REST: described by `tools/list`, not by the OpenAPI document.
  const hidden = { schema: { hide: true } };
  app.post('/mcp', hidden, async (request: FastifyRequest, reply: FastifyReply) => {
    // Untrusted JSON: any element may be null or a primitive.
    const messages = (Array.isArray(request.body) ? request.body : [request.body]) as (
      RpcMessage | null | undefined
    )[];
    if (!versionHeaderAccepted(request, messages)) {
      return reply.code(400).send({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32000,
          message: `Bad Request: unsupported MCP-Protocol-Version (supported: ${MCP_PROTOCOL_VERSIONS.join(', ')})`,
        },
      });
    }
    const call = messages.find(
      (m): m is RpcMessage =>
        typeof m === 'object' &&
        m !== null &&
        m.method === 'tools/call' &&
        typeof m.params?.name === 'string' &&
        TOOL_NAMES.has(m.params.name),
    );
    let grant: McpGrant | null = null;
    if (call !== undefined) {
      const { authorization } = request.headers;
      if (authorization !== undefined && authorization.trim() !== '') {
        // A source that has spent its failure budget is refused before its credential is read
        // (docs/decisions.md, decision 131).
        const gate = await deps.limits.peekFailures(request.ip);
        if (!gate.allowed) {
          const message = authFailuresMessage(gate.resetSeconds);
          return reply
            .code(429)
            .header('retry-after', String(gate.resetSeconds))
            .send({
              jsonrpc: '2.0',
              id: call.id ?? null,
              error: {
                code: UNAUTHORIZED,
                message,
                data: {
                  error: 'rate_limited',
                  reason: AUTH_FAILURES_REASON,
                  retry_after: gate.resetSeconds,
                },
              },
            });
        }
      }
      let refusal: McpAuthError | null = null;
      try {
        grant = await verifyMcpBearer(authorization, oauth);
      } catch (error) {
        if (!(error instanceof McpAuthError)) throw error;
        refusal = error;
        await deps.limits.recordFailure(request.ip);
      }
      if (grant === null) {
        // RFC 6750 §3: no `error` without credentials; `invalid_request` for a header outside
        // the grammar, `invalid_token` for a token that is not accepted.
        const challenge = bearerChallenge(refusal?.error ?? null, refusal?.message ?? '', [
          `resource_metadata="${metadataUrl}"`,
        ]);
        return reply
          .code(401)
          .header('www-authenticate', challenge)
          .send({
            jsonrpc: '2.0',
            id: call.id ?? null,
            error: { code: UNAUTHORIZED, message: refusal?.message ?? 'Authentication required' },
          });
      }
    }

    // The caller's grant travels with the message (docs/decisions.md, decision 171).
    const authInfo =
      grant === null
        ? undefined
        : requestAuthInfo(bearerToken(request.headers.authorization), {
            grant,
            onError: (error) => {
              request.log.error({ err: error }, 'mcp tool failed');
            },
          });
    // One JSON-RPC request: straight to a server (docs/decisions.md, decision 173).
    const { body } = request;
    if (isSingleRequestExchange(request.headers.accept, request.headers['content-type'], body)) {
      const response = await servers.exchange(body, {
        authInfo,
        requestInfo: { headers: request.headers },
      });
      if (response === null) throw new Error('the MCP exchange closed without a response');
      return reply.code(200).type('application/json').send(response);
    }

    const server = servers.acquire();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    reply.raw.on('close', () => {
      void transport.close().finally(() => {
        servers.release(server);
      });
    });
    await server.connect(transport);
    // The transport writes the response itself (see `StreamableHTTPServerTransport.handleRequest`),
    // bypassing Fastify's reply: the headers the app's hooks set so far (CORS, request id) are put
    // on the raw response first, where Node merges them with the transport's own.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value);
    }
    reply.hijack();
    try {
      await transport.handleRequest(
        Object.assign(request.raw, authInfo === undefined ? {} : { auth: authInfo }),
        reply.raw,
        request.body,
      );
    } catch (error) {
      request.log.error({ err: error }, 'mcp transport failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
      }
      reply.raw.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32603, message: 'Internal error' },
        }),
      );
    }
  });

  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({ status: 405, error: 'method_not_allowed', message: 'The connector takes POST only' });
  // Answered in onRequest, before the body is read: a DELETE with a JSON content type and an
  // empty or junk body is 405 too, not a body error.
  app.route({
    method: ['GET', 'DELETE', 'PUT', 'PATCH'],
    url: '/mcp',
    ...hidden,
    onRequest: notAllowed,
    handler: notAllowed,
  });

  app.get('/.well-known/oauth-protected-resource/mcp', hidden, (_request, reply) =>
    reply.send(metadata),
  );
  app.get('/.well-known/oauth-protected-resource', hidden, (_request, reply) =>
    reply.send(metadata),
  );
}
