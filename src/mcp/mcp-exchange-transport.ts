/**
 * @module mcp/mcp-exchange-transport
 * A transport (the SDK's `Transport` interface, `@modelcontextprotocol/sdk/shared/transport.js`)
 * for single JSON-RPC requests and their responses, one after the other: what the SDK's streamable HTTP transport does for a
 * single request in stateless JSON-response mode once it has checked the HTTP request, without
 * converting the Node request into a Web `Request` and back and without validating the message a
 * second time (docs/decisions.md, decision 173). The route decides which HTTP requests take this
 * path ({@link isSingleRequestExchange}); every other one goes through the SDK's transport.
 */
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type JSONRPCResultResponse,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** The answer to the one request of an exchange. */
export type ExchangeResponse = JSONRPCResultResponse | JSONRPCErrorResponse;

/**
 * Whether an HTTP POST to the connector is one the SDK's stateless JSON-response transport would
 * simply hand to the server and answer with the server's one response (MCP 2025-11-25,
 * "Transports"; SDK `WebStandardStreamableHTTPServerTransport.handlePostRequest`): `Accept` lists
 * both `application/json` and `text/event-stream` (the SDK's substring test), the media type is
 * JSON (the SDK's own `isJsonContentType`), and the body is one JSON-RPC request (the SDK's
 * `isJSONRPCRequest`) other than `initialize`. Anything else (a batch, a notification, an
 * `initialize`, a header or body the SDK would refuse) is for the SDK's transport, which answers
 * it exactly as before.
 *
 * @param body the parsed body (untrusted JSON).
 */
export function isSingleRequestExchange(
  accept: string | undefined,
  contentType: string | undefined,
  body: unknown,
): body is JSONRPCRequest {
  return (
    accept?.includes('application/json') === true &&
    accept.includes('text/event-stream') &&
    isJsonContentType(contentType) &&
    isJSONRPCRequest(body) &&
    body.method !== 'initialize'
  );
}

/**
 * A transport that carries one exchange at a time and stays connected to its server between
 * exchanges (docs/decisions.md, decision 173): {@link exchange} hands the server a request and
 * settles with the server's answer to it. Anything else the server sends (a notification, a
 * request to the client) is dropped, as the SDK's transport drops it in JSON-response mode, where
 * there is no stream to carry it. The owner must not start an exchange before the previous one
 * settled.
 */
export class ExchangeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  // The interface's signature (`Transport['onmessage']`), generic there.
  onmessage?: Transport['onmessage'];
  /** Stateless: no session. */
  readonly sessionId = undefined;
  #pending: { id: RequestId; settle: (response: ExchangeResponse | null) => void } | null = null;
  #closed = false;

  /** Nothing to open. */
  start(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Hand the connected server one request, with its authentication and HTTP details.
   *
   * @returns the server's answer, or null when the transport closed before it.
   * @throws Error when an exchange is still pending or the transport is closed (a bug of the
   *   owner).
   */
  exchange(request: JSONRPCRequest, extra: MessageExtraInfo): Promise<ExchangeResponse | null> {
    if (this.#pending !== null || this.#closed || this.onmessage === undefined) {
      return Promise.reject(new Error('the exchange transport is busy, closed or not connected'));
    }
    const answered = new Promise<ExchangeResponse | null>((resolve) => {
      this.#pending = { id: request.id, settle: resolve };
    });
    // The SDK's Protocol first tries the message as a result and as an error response (two zod
    // parses that fail for every request, each building an error it throws away) before it
    // takes it as a request and defers the handler to a microtask. Those discarded errors need no
    // stack trace, which V8 would otherwise capture for each: a third of their cost
    // (docs/decisions.md, decision 174). Nothing else runs in this synchronous window.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      this.onmessage(request, extra);
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    return answered;
  }

  /** Keep the server's answer to the pending request; drop anything else (class comment). */
  send(message: JSONRPCMessage): Promise<void> {
    const pending = this.#pending;
    // The messages come from the SDK's own Protocol: a response has an id and no method.
    if (
      pending !== null &&
      'id' in message &&
      message.id === pending.id &&
      !('method' in message)
    ) {
      this.#pending = null;
      pending.settle(message);
    }
    return Promise.resolve();
  }

  /** Close once: settle a pending exchange with null and tell the server. */
  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      const pending = this.#pending;
      this.#pending = null;
      pending?.settle(null);
      this.onclose?.();
    }
    return Promise.resolve();
  }
}
