/**
 * @module mcp/mcp-protocol-version
 * The MCP protocol versions the connector speaks and how they are negotiated (MCP specification,
 * "Lifecycle" → "Version negotiation", and "Transports" → "Protocol Version Header";
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle).
 *
 * `initialize` answers the client's requested version when the connector speaks it, else the
 * latest one it speaks (the client then decides whether to go on). Every later HTTP request may
 * carry `MCP-Protocol-Version`: one the connector does not speak is 400; without the header the
 * specification says to assume 2025-03-26, which the connector speaks. The pinned SDK's own lists
 * are wider (they include 2024-11-05 and 2024-10-07, which the connector was never tested
 * against), so the connector decides these itself instead of relying on the SDK's defaults.
 */

/** The versions the connector speaks, newest first. */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;

/** The newest version the connector speaks: the answer to a version it does not speak. */
export const LATEST_MCP_PROTOCOL_VERSION = MCP_PROTOCOL_VERSIONS[0];

const SUPPORTED: ReadonlySet<string> = new Set(MCP_PROTOCOL_VERSIONS);

/**
 * The version to answer an `initialize` that asks for `requested`.
 *
 * @param requested the client's `params.protocolVersion` (untrusted; any value).
 * @returns `requested` when it is one of {@link MCP_PROTOCOL_VERSIONS}, else the latest.
 */
export function negotiateProtocolVersion(requested: unknown): string {
  return typeof requested === 'string' && SUPPORTED.has(requested)
    ? requested
    : LATEST_MCP_PROTOCOL_VERSION;
}

/**
 * Whether a later request's `MCP-Protocol-Version` header is acceptable: absent (2025-03-26 is
 * then assumed) or one of {@link MCP_PROTOCOL_VERSIONS}, exactly.
 *
 * @param header the header's value as Node gives it (an array when repeated, which is refused).
 */
export function acceptsProtocolVersionHeader(header: string | string[] | undefined): boolean {
  return header === undefined || (typeof header === 'string' && SUPPORTED.has(header));
}
