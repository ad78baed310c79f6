/**
 * @module mcp/mcp-server
 * The connector's low-level SDK `Server`s (docs/architecture.md, "MCP connector"), built once and
 * reused: a {@link McpServerPool} lends each HTTP request a server of its own for as long as its
 * transport is connected (the SDK connects a server to one transport at a time), and takes it back
 * once the transport is closed. Nothing about a caller is kept on a server: the request's grant
 * travels with the message as its `authInfo` (docs/decisions.md, decision 171). `initialize`
 * negotiates the protocol version as the MCP lifecycle specifies (the client's version when the
 * connector speaks it, else the latest it speaks: {@link negotiateProtocolVersion}) and stores
 * nothing, tools and resources are declared with `listChanged: false`, and `tools/call` runs
 * {@link callTool} with the grant of its own request.
 */
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  InitializeRequestSchema,
  type JSONRPCRequest,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  type MessageExtraInfo,
  ReadResourceRequestSchema,
  RequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

import { type ExchangeResponse, ExchangeTransport } from './mcp-exchange-transport.js';
import type { McpGrant } from './mcp-grant.js';
import { negotiateProtocolVersion } from './mcp-protocol-version.js';
import {
  callTool,
  failure,
  INVALID_PARAMS,
  RpcError,
  TOOL_NAMES,
  type ToolDeps,
  TOOLS,
} from './mcp-tools.js';

/** Server version announced in `initialize` (README, "MCP connector"). */
const MCP_SERVER_VERSION = '1.0.0';
const SERVER_INFO = {
  name: 'linkguard',
  title: 'linkguard link checker',
  version: MCP_SERVER_VERSION,
};
const CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false } };

/**
 * One JSON Schema validator for every server. Without it each `new Server()` builds its own Ajv
 * instance (docs/decisions.md, decision 87); the server uses it only to check elicitation
 * answers, which this server never asks for.
 */
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/** The one resource: how agents must use the verdicts (static text). */
const GUIDE_URI = 'linkguard://guide/agent-actions';
const GUIDE_TEXT = [
  'linkguard verdicts for agents',
  '',
  'Call check_url (or check_urls_batch) before opening a link, connecting a wallet, signing,',
  'or entering credentials, and follow agent_action:',
  '- proceed: safe to continue.',
  '- ask_human: show the reason to the user and let them decide.',
  '- block: do not open, connect or sign; tell the user why.',
  'An isError result (quota, invalid URL, service unavailable) also means ask_human.',
  'official_domain gives a brand’s real domains; domain_history lists past threat records',
  '(no record does not mean safe).',
  'When your human disputes a verdict (a legitimate site flagged, or a scam judged safe), file',
  'it with report_url and tell them the report id: the operator reviews it; the verdict does',
  'not change until they do.',
].join('\n');

/**
 * The SDK parses a request with its method's schema inside `setRequestHandler` and answers a
 * mismatch as -32603 (internal error, the parser's issues as message), where JSON-RPC 2.0 §5.1
 * says -32602 (invalid params). So each handler is registered with its method literal and the
 * lenient params of the base `RequestSchema`, and checks the params itself with the SDK's own
 * schema.
 */
interface ParamsSchema<T> {
  safeParse: (
    value: unknown,
  ) => { success: true; data: T } | { success: false; error: { issues: readonly Issue[] } };
}
const LENIENT_PARAMS = RequestSchema.shape.params;
// Built once: zod's `extend()` copies the whole schema, which cost 6 % of the connector's CPU
// when it ran for every request (docs/decisions.md, decision 172).
const LENIENT_INITIALIZE = InitializeRequestSchema.extend({ params: LENIENT_PARAMS });
const LENIENT_CALL_TOOL = CallToolRequestSchema.extend({ params: LENIENT_PARAMS });
const LENIENT_READ_RESOURCE = ReadResourceRequestSchema.extend({ params: LENIENT_PARAMS });

interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

/**
 * `request` checked against `schema`.
 *
 * @throws RpcError -32602 naming the first mismatching field.
 */
function validParams<T>(schema: ParamsSchema<T>, request: unknown): T {
  const parsed = schema.safeParse(request);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where =
    issue === undefined ? 'params' : ['params', ...issue.path.slice(1)].map(String).join('.');
  throw new RpcError(INVALID_PARAMS, `Invalid params: ${where}: ${issue?.message ?? 'invalid'}`);
}

/** What one request hands the server beside its message: its caller and its error sink. */
export interface McpRequestContext {
  /** The verified caller. */
  grant: McpGrant;
  /** Told about an unexpected failure inside a tool (its text is not sent). */
  onError: (error: unknown) => void;
}

/**
 * The `authInfo` (the SDK's per-message authentication, `MessageExtraInfo.authInfo`) that carries
 * a verified request's context to the tool handlers: the transport hands it to the server with
 * the message, so a handler reads the grant of its own request and never one kept on the server.
 *
 * @param token the bearer token the request presented (AuthInfo's `token`; kept in memory only).
 */
export function requestAuthInfo(token: string, context: McpRequestContext): AuthInfo {
  const { grant } = context;
  return {
    token,
    // The subject the credentials speak for: this path has no OAuth client identity of its own.
    clientId: grant.kind === 'enterprise' ? grant.key.id : grant.licenseId,
    // The connector's one scope (docs/decisions.md, decision 82).
    scopes: ['mcp'],
    extra: { context },
  };
}

/** The context {@link requestAuthInfo} put on a message, or null for an unauthenticated one. */
function contextOf(authInfo: AuthInfo | undefined): McpRequestContext | null {
  const context = authInfo?.extra?.context;
  return typeof context === 'object' && context !== null ? (context as McpRequestContext) : null;
}

/**
 * Build one server. It holds no caller state: the SDK's own `initialize` handler (which stores the
 * client's capabilities and version on the server) is replaced by one that stores nothing, no
 * capability that keeps per-session state (logging levels, subscriptions, tasks) is declared, and
 * each `tools/call` reads its grant from its own message.
 */
// The low-level `Server` is deliberate (docs/decisions.md, "MCP connector"): `McpServer` hard-codes
// `listChanged: true` and turns an unknown tool into an isError result, against the spec.
/* eslint-disable @typescript-eslint/no-deprecated */
function buildMcpServer(deps: ToolDeps): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: CAPABILITIES,
    jsonSchemaValidator: SCHEMA_VALIDATOR,
  });
  server.setRequestHandler(LENIENT_INITIALIZE, (request) => ({
    protocolVersion: negotiateProtocolVersion(
      validParams(InitializeRequestSchema, request).params.protocolVersion,
    ),
    capabilities: CAPABILITIES,
    serverInfo: SERVER_INFO,
  }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...TOOLS] }));
  server.setRequestHandler(LENIENT_CALL_TOOL, async (request, extra): Promise<CallToolResult> => {
    // The SDK's `Server` checks a tools/call against `CallToolRequestSchema` before this handler
    // runs and answers a mismatch with -32602 itself, so the params have that shape here.
    const params = request.params as CallToolRequest['params'];
    if (!TOOL_NAMES.has(params.name)) {
      throw new RpcError(INVALID_PARAMS, `Unknown tool: ${params.name}`);
    }
    const context = contextOf(extra.authInfo);
    if (context === null) throw new RpcError(-32001, 'Authentication required');
    try {
      return await callTool(deps, context.grant, params.name, params.arguments);
    } catch (error) {
      if (error instanceof RpcError) throw error;
      context.onError(error);
      const message = 'The check could not be completed right now';
      return failure(message, { code: 'internal_error', message: `${message}. Retry later.` });
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [
      {
        uri: GUIDE_URI,
        name: 'agent-actions',
        title: 'How to act on linkguard verdicts',
        mimeType: 'text/plain',
      },
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
  server.setRequestHandler(LENIENT_READ_RESOURCE, (request) => {
    const { params } = validParams(ReadResourceRequestSchema, request);
    if (params.uri !== GUIDE_URI) {
      throw new RpcError(INVALID_PARAMS, `Unknown resource: ${params.uri}`);
    }
    return { contents: [{ uri: GUIDE_URI, mimeType: 'text/plain', text: GUIDE_TEXT }] };
  });
  return server;
}

/** Lends servers to requests (see the module comment). */
export interface McpServerPool {
  /**
   * Answer one JSON-RPC request (not `initialize`; see `isSingleRequestExchange`) on a server
   * lent to it alone, which stays connected to its exchange transport between requests.
   *
   * @returns the server's response, or null when its transport closed first.
   */
  exchange(request: JSONRPCRequest, extra: MessageExtraInfo): Promise<ExchangeResponse | null>;
  /**
   * A server connected to no transport, for a request that goes through the SDK's transport;
   * give it back with {@link McpServerPool.release} once that transport is closed.
   */
  acquire(): Server;
  /** Take back a server from {@link McpServerPool.acquire}; one still connected is dropped. */
  release(server: Server): void;
}

/** Idle servers kept for reuse, of each kind; more are built when more requests run at once. */
const MAX_IDLE_SERVERS = 128;

interface ExchangeServer {
  server: Server;
  transport: ExchangeTransport;
}

/**
 * The pool of the connector's servers over `deps`: built on demand, one per request running at
 * the time, at most {@link MAX_IDLE_SERVERS} of each kind kept idle.
 */
export function createMcpServerPool(deps: ToolDeps): McpServerPool {
  const idle: Server[] = [];
  const idleExchanges: ExchangeServer[] = [];
  const newExchangeServer = async (): Promise<ExchangeServer> => {
    const server = buildMcpServer(deps);
    const transport = new ExchangeTransport();
    await server.connect(transport);
    return { server, transport };
  };
  return {
    exchange: async (request, extra) => {
      const lent = idleExchanges.pop() ?? (await newExchangeServer());
      const response = await lent.transport.exchange(request, extra);
      // Answered: the server holds nothing of this request any more (its handler returned).
      if (response !== null && idleExchanges.length < MAX_IDLE_SERVERS) idleExchanges.push(lent);
      return response;
    },
    acquire: () => idle.pop() ?? buildMcpServer(deps),
    release: (server) => {
      if (server.transport === undefined && idle.length < MAX_IDLE_SERVERS) idle.push(server);
    },
  };
}
/* eslint-enable @typescript-eslint/no-deprecated */
