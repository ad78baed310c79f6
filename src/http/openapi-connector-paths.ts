/**
 * @module http/openapi-connector-paths
 * The MCP connector (`/mcp`) and its OAuth authorization server as the API reference describes
 * them (README, "MCP connector (`/mcp`)"). Their routes live in `mcp/` and `oauth/` and speak
 * JSON-RPC and OAuth rather than this API's JSON, so they are described here, by hand, as OpenAPI
 * 3.1 path items added to the generated document: what each endpoint is for, which standard it
 * follows and what it answers. The protocols' own documents (the MCP specification, RFCs 6749,
 * 7009, 7591, 8414, 9728) remain the reference for message contents.
 */
/** Tag names of the described endpoints. */
export const CONNECTOR_TAG = 'connector';
export const OAUTH_TAG = 'oauth';

/** The tags, with what the README says about them. */
export const CONNECTOR_TAGS = [
  {
    name: CONNECTOR_TAG,
    description:
      'MCP connector for AI agents (README, "MCP connector (/mcp)"): streamable HTTP, stateless, ' +
      'JSON responses, protocol 2025-11-25, 2025-06-18 or 2025-03-26. Tools: `check_url`, ' +
      '`check_urls_batch` (1–10 URLs), `official_domain`, `domain_history`. `tools/list` is ' +
      'public; `tools/call` needs `Authorization: Bearer` with an enterprise key or an `mcp_at_` ' +
      'token from the OAuth sign-in below, and each checked URL counts like a /v1/detect request.',
  },
  {
    name: OAUTH_TAG,
    description:
      'The connector\'s OAuth 2.1 authorization server (README, "MCP connector (/mcp)"): MCP ' +
      'clients discover it from the 401 of /mcp (RFC 9728), register themselves (RFC 7591), sign ' +
      'the user in with a Premium license or an enterprise key on the sign-in page (PKCE S256), ' +
      'and receive an `mcp_at_` access token (30 days) and a rotating `mcp_rt_` refresh token.',
  },
];

const json = (description: string, extra: Record<string, unknown> = {}) => ({
  description,
  content: { 'application/json': { schema: { type: 'object', ...extra } } },
});

const OAUTH_ERROR = json(
  'Bad Request — an OAuth error `{error, error_description}` (RFC 6749 §5.2): `invalid_request`, ' +
    '`invalid_grant`, `unsupported_grant_type`, `invalid_target` (RFC 8707) …',
  {
    required: ['error'],
    properties: { error: { type: 'string' }, error_description: { type: 'string' } },
  },
);

const RATE_LIMITED = json(
  'Too Many Requests — `{"error": "rate_limited"}` with Retry-After: the per-source budget ' +
    '(README, "Failed authentications" and the OAuth endpoint table)',
);

const query = (name: string, description: string, required = true) => ({
  in: 'query',
  name,
  required,
  description,
  schema: { type: 'string' },
});

const formBody = (
  properties: Record<string, { description: string; enum?: string[] }>,
  required: string[],
) => ({
  required: true,
  content: {
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object',
        required,
        properties: Object.fromEntries(
          Object.entries(properties).map(([name, p]) => [name, { type: 'string', ...p }]),
        ),
      },
    },
  },
});

/** The path items, keyed by path. */
export const CONNECTOR_PATHS: Record<string, Record<string, unknown>> = {
  '/mcp': {
    post: {
      tags: [CONNECTOR_TAG],
      summary: 'MCP messages (JSON-RPC 2.0)',
      description:
        'One JSON-RPC 2.0 message or a batch: `initialize`, `tools/list`, `tools/call`, ' +
        '`resources/list`, `ping`, … (MCP specification, streamable HTTP transport). Send ' +
        '`Accept: application/json, text/event-stream`; answers are JSON. A `tools/call` ' +
        'without a valid token is HTTP 401 with `WWW-Authenticate: Bearer ' +
        'resource_metadata=".../.well-known/oauth-protected-resource/mcp"`. A tool result that ' +
        'is an error (`isError: true`) carries `agent_action: "ask_human"` and an error code of ' +
        'the /v1/detect error table.',
      security: [{}, { connectorToken: [] }],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              description: 'A JSON-RPC 2.0 request or notification, or an array of them',
              oneOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }],
            },
            examples: {
              check_url: {
                summary: 'tools/call check_url',
                value: {
                  jsonrpc: '2.0',
                  id: 1,
                  method: 'tools/call',
                  params: {
                    name: 'check_url',
                    arguments: { url: 'https://metamask-restore-wallet.com/' },
                  },
                },
              },
            },
          },
        },
      },
      responses: {
        200: json('OK — the JSON-RPC response(s)'),
        202: { description: 'Accepted — notifications only, no response body' },
        400: json(
          'Bad Request — a JSON-RPC error: -32700 (parse error), -32600 (invalid request), ' +
            '-32000 (unsupported MCP-Protocol-Version)',
        ),
        401: json(
          'Unauthorized — JSON-RPC error -32001: no token, or one that is unknown, expired or ' +
            'revoked; WWW-Authenticate names the protected-resource metadata',
        ),
        405: json('Method Not Allowed — GET and DELETE: the connector is stateless'),
        406: json(
          'Not Acceptable — JSON-RPC error -32000: Accept must list application/json and ' +
            'text/event-stream',
        ),
        415: json('Unsupported Media Type — JSON-RPC error -32000: the body must be JSON'),
        429: json(
          'Too Many Requests — JSON-RPC error -32001 with `data: {error: "rate_limited", reason, ' +
            'retry_after}` and Retry-After (failed authentications from this source)',
        ),
      },
    },
  },
  '/.well-known/oauth-protected-resource/mcp': {
    get: {
      tags: [OAUTH_TAG],
      summary: 'Protected-resource metadata of /mcp (RFC 9728)',
      description:
        '`resource` = `{PUBLIC_BASE_URL}/mcp` and the authorization server; also served at ' +
        '/.well-known/oauth-protected-resource.',
      responses: { 200: json('OK — RFC 9728 §2 metadata') },
    },
  },
  '/.well-known/oauth-authorization-server': {
    get: {
      tags: [OAUTH_TAG],
      summary: 'Authorization server metadata (RFC 8414)',
      description:
        'The issuer is `PUBLIC_BASE_URL`; endpoints, PKCE S256, grant types and client ' +
        'authentication methods.',
      responses: { 200: json('OK — RFC 8414 §2 metadata') },
    },
  },
  '/oauth/register': {
    post: {
      tags: [OAUTH_TAG],
      summary: 'Dynamic client registration (RFC 7591)',
      description:
        'Public (`none`) and confidential clients. Redirect URIs: https, loopback http or a ' +
        "native app's reverse-DNS scheme. Kept once used for a sign-in, else pruned after a day; " +
        '20 registrations an hour per source.',
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['redirect_uris'],
              properties: {
                redirect_uris: { type: 'array', items: { type: 'string' } },
                client_name: { type: 'string' },
                token_endpoint_auth_method: {
                  type: 'string',
                  enum: ['none', 'client_secret_basic', 'client_secret_post'],
                },
              },
            },
          },
        },
      },
      responses: {
        201: json('Created — the client information (RFC 7591 §3.2.1)'),
        400: json(
          'Bad Request — `invalid_redirect_uri` or `invalid_client_metadata` (RFC 7591 §3.2.2)',
        ),
        429: RATE_LIMITED,
      },
    },
  },
  '/oauth/authorize': {
    get: {
      tags: [OAUTH_TAG],
      summary: 'The sign-in page (authorization endpoint, RFC 6749 §4.1.1)',
      description:
        'An HTML page that works without JavaScript: the user types a Premium license (`lic_…`) ' +
        'or an enterprise key; the form posts back here. PKCE S256 only; `resource` must be the ' +
        '/mcp URL (RFC 8707); the redirect carries `iss` (RFC 9207).',
      parameters: [
        query('response_type', '`code`'),
        query('client_id', 'From the registration'),
        query('redirect_uri', 'One of the registered redirect URIs'),
        query('code_challenge', 'PKCE S256 challenge (RFC 7636)'),
        query('code_challenge_method', '`S256`'),
        query('resource', 'The /mcp URL (RFC 8707)', false),
        query('state', "The client's state, returned unchanged", false),
        query('scope', 'Ignored: one scope covers the connector', false),
      ],
      responses: {
        200: { description: 'OK — the sign-in page (text/html)' },
        302: {
          description:
            'Found — back to the client with an RFC 6749 §4.1.2.1 error (a request it cannot ' +
            'serve but may tell the client about)',
        },
        400: { description: 'Bad Request — an error page (unknown client or redirect URI)' },
        429: { description: 'Too Many Requests — an error page (sign-in budget of the source)' },
      },
    },
    post: {
      tags: [OAUTH_TAG],
      summary: 'Submit the sign-in form',
      description:
        "The page's own form (CSRF-checked): a right credential redirects to the client with " +
        '`code`, `state` and `iss`; a wrong one shows the page again with an error; 5 wrong ' +
        'ones end the sign-in.',
      responses: {
        302: { description: 'Found — to the redirect URI with `code` (or an error)' },
        400: { description: 'Bad Request — the page again, with the error' },
        403: { description: 'Forbidden — a form without a valid CSRF token' },
        429: { description: 'Too Many Requests — an error page' },
      },
    },
  },
  '/oauth/token': {
    post: {
      tags: [OAUTH_TAG],
      summary: 'Token endpoint (RFC 6749 §3.2)',
      description:
        '`authorization_code` (with the PKCE `code_verifier`) and `refresh_token`. Refresh ' +
        'tokens rotate; reusing an old one revokes the sign-in.',
      requestBody: formBody(
        {
          grant_type: {
            description: 'The grant',
            enum: ['authorization_code', 'refresh_token'],
          },
          code: { description: 'authorization_code: the code from the redirect' },
          redirect_uri: { description: 'authorization_code: the same redirect URI' },
          code_verifier: { description: 'authorization_code: the PKCE verifier' },
          refresh_token: { description: 'refresh_token: the current refresh token' },
          client_id: { description: 'Public clients' },
          resource: { description: 'The /mcp URL (RFC 8707)' },
        },
        ['grant_type'],
      ),
      responses: {
        200: json('OK — `{access_token, token_type: "Bearer", expires_in, refresh_token}`'),
        400: OAUTH_ERROR,
        401: json('Unauthorized — `invalid_client`: client authentication failed'),
        429: RATE_LIMITED,
      },
    },
  },
  '/oauth/revoke': {
    post: {
      tags: [OAUTH_TAG],
      summary: 'Token revocation (RFC 7009)',
      description: 'Revoking either token of a sign-in ends that sign-in.',
      requestBody: formBody(
        {
          token: { description: 'An access or refresh token' },
          token_type_hint: { description: 'Optional', enum: ['access_token', 'refresh_token'] },
          client_id: { description: 'Public clients' },
        },
        ['token'],
      ),
      responses: {
        200: { description: 'OK — revoked (or unknown: RFC 7009 §2.2)' },
        400: OAUTH_ERROR,
        401: json('Unauthorized — `invalid_client`'),
        429: RATE_LIMITED,
      },
    },
  },
};
