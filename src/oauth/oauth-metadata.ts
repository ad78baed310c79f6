/**
 * @module oauth/oauth-metadata
 * The two discovery documents of the connector (guides/mcp.md §2.4): RFC 9728 protected-resource
 * metadata for `/mcp` and RFC 8414 authorization-server metadata. Both are built from
 * `PUBLIC_BASE_URL`, never from the request's `Host` (proxies), because clients compare
 * `resource` and `issuer` with the URL they were given, character for character.
 */

/** Scopes the connector knows: one, for all tools. */
export const MCP_SCOPE = 'mcp';

/** Where the authorization server's endpoints live, relative to the issuer. */
export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
} as const;

/** Token-endpoint client authentication methods (RFC 7591 §2). */
export const CLIENT_AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;

/** The connector's resource identifier (RFC 8707): exactly `{PUBLIC_BASE_URL}/mcp`. */
export function mcpResource(publicBaseUrl: string): string {
  return `${publicBaseUrl}/mcp`;
}

/** RFC 9728 protected-resource metadata of `/mcp`. */
export function protectedResourceMetadata(publicBaseUrl: string) {
  return {
    resource: mcpResource(publicBaseUrl),
    authorization_servers: [publicBaseUrl],
    bearer_methods_supported: ['header'],
    scopes_supported: [MCP_SCOPE],
    resource_name: 'linkguard link checker',
  };
}

/** RFC 8414 authorization-server metadata; the issuer is `PUBLIC_BASE_URL`. */
export function authorizationServerMetadata(publicBaseUrl: string) {
  return {
    issuer: publicBaseUrl,
    authorization_endpoint: publicBaseUrl + OAUTH_PATHS.authorize,
    token_endpoint: publicBaseUrl + OAUTH_PATHS.token,
    registration_endpoint: publicBaseUrl + OAUTH_PATHS.register,
    revocation_endpoint: publicBaseUrl + OAUTH_PATHS.revoke,
    scopes_supported: [MCP_SCOPE],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    // RFC 9207: the authorization response names the issuer, against mix-up attacks.
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${publicBaseUrl}/docs`,
  };
}
