/**
 * A loopback HTTP endpoint standing in for a chain RPC in tests that must prove a request made
 * NO chain call (malformed proofs, nonce checks) or that an RPC failure maps to 503. It counts
 * requests and answers each with HTTP 500 (`fail`), never (`hang`), or as an Ethereum mainnet
 * node (`ethereum`: JSON-RPC 2.0, batches included; `eth_chainId` is 1, every other method
 * `null`), to show that a misconfigured BASE_RPC_URL is refused and what was asked before that.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingRpc {
  url: string;
  /** Requests received so far. */
  requests(): number;
  /** JSON-RPC methods called so far, in order, batches flattened (`ethereum` mode only). */
  methods(): string[];
  close(): Promise<void>;
}

interface JsonRpcRequest {
  id?: unknown;
  method?: unknown;
}

function ethereumAnswer(call: JsonRpcRequest) {
  return {
    jsonrpc: '2.0',
    id: call.id ?? null,
    result: call.method === 'eth_chainId' ? '0x1' : null,
  };
}

export async function startCountingRpc(
  mode: 'fail' | 'hang' | 'ethereum' = 'fail',
): Promise<CountingRpc> {
  let count = 0;
  const methods: string[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((request, response) => {
    count++;
    if (mode === 'ethereum') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as
          JsonRpcRequest | JsonRpcRequest[];
        for (const call of Array.isArray(body) ? body : [body]) methods.push(String(call.method));
        const answer = Array.isArray(body) ? body.map(ethereumAnswer) : ethereumAnswer(body);
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
      return;
    }
    request.resume();
    if (mode === 'hang') {
      hanging.push(response);
      return;
    }
    response.writeHead(500, { 'content-type': 'text/plain' }).end('down for the test');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    methods: () => [...methods],
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
