/**
 * @module mcp/mcp-server
 * One low-level SDK `Server` per HTTP request (stateless: docs/architecture.md, "MCP
 * connector"): `initialize` negotiates the protocol version as the MCP lifecycle specifies (the
 * client's version when the connector speaks it, else the latest it speaks: {@link
 * negotiateProtocolVersion}), tools and resources are declared with `listChanged: false`, and
 * `tools/call` runs {@link callTool} with the request's grant.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  InitializeRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  RequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

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
 * One JSON Schema validator for every per-request server. Without it each `new Server()` builds
 * its own Ajv instance, which a CPU profile showed to be 15 % of the connector's time; the
 * server uses it only to check elicitation answers, which this server never asks for.
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

/**
 * Build the server for one request.
 *
 * @param grant the verified caller, or null (then only public methods are reached: the HTTP
 *   gate answers 401 to a `tools/call` of a known tool first).
 * @param onError told about an unexpected failure inside a tool (its text is not sent).
 */
// The low-level `Server` is deliberate (docs/decisions.md, "MCP connector"): `McpServer` hard-codes
// `listChanged: true` and turns an unknown tool into an isError result, against the spec.
/* eslint-disable @typescript-eslint/no-deprecated */
export function buildMcpServer(
  deps: ToolDeps,
  grant: McpGrant | null,
  onError: (error: unknown) => void,
): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: CAPABILITIES,
    jsonSchemaValidator: SCHEMA_VALIDATOR,
  });
  server.setRequestHandler(
    InitializeRequestSchema.extend({ params: LENIENT_PARAMS }),
    (request) => ({
      protocolVersion: negotiateProtocolVersion(
        validParams(InitializeRequestSchema, request).params.protocolVersion,
      ),
      capabilities: CAPABILITIES,
      serverInfo: SERVER_INFO,
    }),
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...TOOLS] }));
  server.setRequestHandler(
    CallToolRequestSchema.extend({ params: LENIENT_PARAMS }),
    async (request): Promise<CallToolResult> => {
      const { params } = validParams(CallToolRequestSchema, request);
      if (!TOOL_NAMES.has(params.name)) {
        throw new RpcError(INVALID_PARAMS, `Unknown tool: ${params.name}`);
      }
      if (grant === null) throw new RpcError(-32001, 'Authentication required');
      try {
        return await callTool(deps, grant, params.name, params.arguments);
      } catch (error) {
        if (error instanceof RpcError) throw error;
        onError(error);
        const message = 'The check could not be completed right now';
        return failure(message, { code: 'internal_error', message: `${message}. Retry later.` });
      }
    },
  );
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
  server.setRequestHandler(
    ReadResourceRequestSchema.extend({ params: LENIENT_PARAMS }),
    (request) => {
      const { params } = validParams(ReadResourceRequestSchema, request);
      if (params.uri !== GUIDE_URI)
        throw new RpcError(INVALID_PARAMS, `Unknown resource: ${params.uri}`);
      return { contents: [{ uri: GUIDE_URI, mimeType: 'text/plain', text: GUIDE_TEXT }] };
    },
  );
  return server;
}
/* eslint-enable @typescript-eslint/no-deprecated */
