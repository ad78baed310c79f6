/**
 * @module oauth/client-registration
 * RFC 7591 dynamic client registration (`POST /oauth/register`). MCP clients (Claude, the
 * Inspector, VS Code…) register themselves before their first authorization (MCP 2025-11-25,
 * "Authorization": dynamic client registration), so registration is open; it is rate-limited per
 * IP by the route. Public clients (`token_endpoint_auth_method: "none"`) and confidential ones
 * (a `client_secret` is issued, stored as SHA-256) are both supported. Registrations that
 * completed a sign-in are kept durably (clients cache their `client_id` and break when it is
 * forgotten); one never used for a sign-in is pruned a day later, and a source may register only
 * so many an hour (`oauth-source.ts`).
 */

import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';

import type { Clock } from '../clock.js';
import type { OAuthClientRecord, OAuthStore, SourceCap } from '../store/ports/oauth-store.js';
import { OAuthError } from './oauth-error.js';
import { generateClientId, generateSecret } from './oauth-secrets.js';
import { redirectUriProblem } from './redirect-uri.js';

const Text = (maxLength: number) => Type.String({ maxLength });

/**
 * The client metadata we accept (RFC 7591 §2). Other members are allowed and ignored, as §2
 * permits; only these are stored and echoed back.
 */
const ClientMetadataSchema = Type.Object({
  redirect_uris: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 10 }),
  token_endpoint_auth_method: Type.Optional(
    Type.Union([
      Type.Literal('none'),
      Type.Literal('client_secret_post'),
      Type.Literal('client_secret_basic'),
    ]),
  ),
  grant_types: Type.Optional(Type.Array(Text(64), { minItems: 1, maxItems: 5 })),
  response_types: Type.Optional(Type.Array(Text(64), { minItems: 1, maxItems: 5 })),
  client_name: Type.Optional(Text(200)),
  client_uri: Type.Optional(Text(2048)),
  logo_uri: Type.Optional(Text(2048)),
  tos_uri: Type.Optional(Text(2048)),
  policy_uri: Type.Optional(Text(2048)),
  scope: Type.Optional(Text(1000)),
  contacts: Type.Optional(Type.Array(Text(320), { maxItems: 10 })),
  software_id: Type.Optional(Text(200)),
  software_version: Type.Optional(Text(200)),
});
type ClientMetadata = Static<typeof ClientMetadataSchema>;

const checkMetadata = Compile(ClientMetadataSchema);

/** Grant types a client may register: the code flow and, optionally, refresh. */
const SUPPORTED_GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);

/** Members copied from the request into the stored and echoed metadata. */
const ECHOED = [
  'client_name',
  'client_uri',
  'logo_uri',
  'tos_uri',
  'policy_uri',
  'scope',
  'contacts',
  'software_id',
  'software_version',
] as const;

/** The registration response body (RFC 7591 §3.2.1). */
export type RegistrationResponse = Record<string, unknown> & {
  client_id: string;
  client_id_issued_at: number;
  client_secret?: string;
  client_secret_expires_at?: number;
};

/**
 * Register a client.
 *
 * Defaults follow RFC 7591 §2: `token_endpoint_auth_method` `client_secret_basic`, `grant_types`
 * `["authorization_code"]`, `response_types` `["code"]`. `refresh_token` must be registered for
 * the client to receive refresh tokens.
 *
 * @param body the parsed JSON body (untrusted).
 * @param source the requester's cap (`oauth-source.ts`); without it, no cap applies.
 * @returns the response body: the accepted metadata, `client_id`, `client_id_issued_at`
 *   (seconds) and, for a confidential client, the `client_secret` (shown this once) with
 *   `client_secret_expires_at: 0` (never).
 * @throws {OAuthError} `invalid_redirect_uri` or `invalid_client_metadata` with the reason;
 *   `rate_limited` (429, with `retryAfter`) when the source's hourly registrations are used up.
 */
export async function registerClient(
  store: OAuthStore,
  clock: Clock,
  body: unknown,
  source?: SourceCap,
): Promise<RegistrationResponse> {
  if (!checkMetadata.Check(body)) {
    const [first] = checkMetadata.Errors(body);
    const where = first?.instancePath === '' ? 'the body' : (first?.instancePath ?? 'the body');
    throw new OAuthError(
      'invalid_client_metadata',
      `Client metadata is invalid at ${where}: ${first?.message ?? 'not a JSON object'}`,
    );
  }
  const metadata: ClientMetadata = body;
  for (const uri of metadata.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem !== null) {
      throw new OAuthError(
        'invalid_redirect_uri',
        `Redirect URI ${JSON.stringify(uri)} ${problem}`,
      );
    }
  }
  const grantTypes = metadata.grant_types ?? ['authorization_code'];
  const unsupported = grantTypes.find((type) => !SUPPORTED_GRANT_TYPES.has(type));
  if (unsupported !== undefined) {
    throw new OAuthError('invalid_client_metadata', `Grant type "${unsupported}" is not supported`);
  }
  if (!grantTypes.includes('authorization_code')) {
    throw new OAuthError('invalid_client_metadata', 'grant_types must include authorization_code');
  }
  const responseTypes = metadata.response_types ?? ['code'];
  if (responseTypes.some((type) => type !== 'code')) {
    throw new OAuthError('invalid_client_metadata', 'Only the "code" response type is supported');
  }

  const authMethod = metadata.token_endpoint_auth_method ?? 'client_secret_basic';
  const secret = authMethod === 'none' ? null : generateSecret('clientSecret');
  const accepted: Record<string, unknown> = {
    redirect_uris: [...new Set(metadata.redirect_uris)],
    token_endpoint_auth_method: authMethod,
    grant_types: [...new Set(grantTypes)],
    response_types: ['code'],
  };
  for (const member of ECHOED) {
    if (metadata[member] !== undefined) accepted[member] = metadata[member];
  }
  const createdAt = clock.now();
  const client: OAuthClientRecord = {
    id: generateClientId(),
    secretHash: secret?.hash ?? null,
    authMethod,
    redirectUris: accepted.redirect_uris as string[],
    grantTypes: accepted.grant_types as string[],
    name: nonEmpty(metadata.client_name?.trim()),
    metadata: accepted,
    createdAt,
  };
  if (source === undefined) {
    await store.registerClient(client);
  } else {
    const saved = await store.registerClientFromSource(client, source, createdAt);
    if (!saved.ok) {
      const wait = Math.max(1, Math.ceil((saved.retryAt - createdAt) / 1000));
      throw new OAuthError(
        'rate_limited',
        `Too many client registrations from this network (${String(source.max)} an hour). Retry in ${String(wait)} s.`,
        wait,
      );
    }
  }
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(createdAt / 1000),
    ...(secret === null ? {} : { client_secret: secret.raw, client_secret_expires_at: 0 }),
    ...accepted,
  };
}

function nonEmpty(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}
