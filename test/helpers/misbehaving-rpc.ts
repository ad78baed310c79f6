/**
 * A loopback JSON-RPC endpoint that fails in one chosen way, standing in for a paid RPC provider
 * (Alchemy, Helius, QuickNode…) whose URL carries an API key in its path and query. Every answer
 * that has a body echoes the request path and query and the request body back, as some providers
 * do in their error texts ("invalid API key …"), so a test can check that neither reaches a log
 * line whatever the client library does with it.
 *
 * Modes: `refused` (nothing listens on the port), `hang` (never answers), `reset` (closes the
 * connection without an answer), `http-500`, `http-401`, `http-403`, `http-429` (status with a
 * text or JSON body), `jsonrpc-error` (200 with a JSON-RPC error object for every call, code
 * -32005), `jsonrpc-invalid-params` (200 with code -32602: the client's request was wrong),
 * `malformed-json` (200 with a body that is not JSON), `html` (200 with an HTML page),
 * `wrong-chain` (an Ethereum mainnet node: `eth_chainId` 0x1, everything else null; JSON-RPC 2.0
 * batches answered per call).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const RPC_FAILURE_MODES = [
  'refused',
  'hang',
  'reset',
  'http-500',
  'http-401',
  'http-403',
  'http-429',
  'jsonrpc-error',
  'jsonrpc-invalid-params',
  'malformed-json',
  'html',
  'wrong-chain',
] as const;

export type RpcFailureMode = (typeof RPC_FAILURE_MODES)[number];

/** The credential parts of the URL: both must stay out of every log line. */
export const RPC_PATH_KEY = 'SECRETKEY7f3a9c';
export const RPC_QUERY_KEY = 'SECRET2b81e4';

export interface MisbehavingRpc {
  /** `http://127.0.0.1:PORT/v2/<path key>?api-key=<query key>`. */
  url: string;
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** Requests received so far (0 in `refused` mode). */
  requests(): number;
  close(): Promise<void>;
}

interface JsonRpcCall {
  id?: unknown;
  method?: unknown;
}

export async function startMisbehavingRpc(mode: RpcFailureMode): Promise<MisbehavingRpc> {
  let count = 0;
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    count++;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      answer(mode, request, response, Buffer.concat(chunks).toString('utf8'));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => {
        resolve();
      });
    });
  if (mode === 'refused') await close();
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/v2/${RPC_PATH_KEY}?api-key=${RPC_QUERY_KEY}`,
    origin,
    requests: () => count,
    close: mode === 'refused' ? () => Promise.resolve() : close,
  };
}

function answer(
  mode: RpcFailureMode,
  request: IncomingMessage,
  response: ServerResponse,
  body: string,
): void {
  const echo = `${request.url ?? ''} ${body}`;
  const json = (status: number, value: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  const perCall = (reply: (call: JsonRpcCall) => unknown) => {
    let parsed: JsonRpcCall | JsonRpcCall[];
    try {
      parsed = JSON.parse(body) as JsonRpcCall | JsonRpcCall[];
    } catch {
      parsed = {};
    }
    json(200, Array.isArray(parsed) ? parsed.map(reply) : reply(parsed));
  };
  switch (mode) {
    case 'refused':
    case 'hang':
      return;
    case 'reset':
      request.socket.destroy();
      return;
    case 'http-500':
      response.writeHead(500, { 'content-type': 'text/plain' }).end(`upstream failed for ${echo}`);
      return;
    case 'http-401':
      json(401, { error: `invalid api key in ${echo}` });
      return;
    case 'http-403':
      json(403, { error: { code: 403, message: `key not allowed: ${echo}` } });
      return;
    case 'http-429':
      response
        .writeHead(429, { 'content-type': 'text/plain', 'retry-after': '1' })
        .end(`rate limited: ${echo}`);
      return;
    case 'jsonrpc-error':
      perCall((call) => ({
        jsonrpc: '2.0',
        id: call.id ?? null,
        error: { code: -32005, message: `limit exceeded for ${echo}`, data: echo },
      }));
      return;
    case 'jsonrpc-invalid-params':
      perCall((call) => ({
        jsonrpc: '2.0',
        id: call.id ?? null,
        error: { code: -32602, message: `invalid params: ${echo}` },
      }));
      return;
    case 'malformed-json':
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(`{"jsonrpc": "2.0", "result": ${echo}`);
      return;
    case 'html':
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<html><body>Gateway says: ${echo}</body></html>`);
      return;
    case 'wrong-chain':
      perCall((call) => ({
        jsonrpc: '2.0',
        id: call.id ?? null,
        result: call.method === 'eth_chainId' ? '0x1' : null,
      }));
      return;
  }
}
