/**
 * A loopback JSON-RPC endpoint standing in for both chain RPCs in the fuzz suite: every
 * transaction is unknown. Proofs that pass the form checks then reach a real verifier, which asks
 * this stub and refuses them as `tx_not_found`, without anything leaving 127.0.0.1.
 *
 * Answers follow the documented shapes: Solana JSON-RPC `getTransaction` → `null`,
 * `getSignatureStatuses` → `{context, value: [null]}`, `getSlot` → a slot
 * (https://solana.com/docs/rpc/http); Ethereum JSON-RPC `eth_chainId` → Base mainnet `0x2105`,
 * `eth_blockNumber` → a block, `eth_getTransactionReceipt` and `eth_getTransactionByHash` →
 * `null` (https://ethereum.org/en/developers/docs/apis/json-rpc/). Batches are answered element
 * by element; any other method is JSON-RPC error -32601.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChainStub {
  /** `http://127.0.0.1:<port>`, for SOLANA_RPC_URL and BASE_RPC_URL. */
  url: string;
  /** JSON-RPC calls answered so far (batches flattened). */
  calls(): number;
  close(): Promise<void>;
}

interface RpcCall {
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

function answer(call: RpcCall): Record<string, unknown> {
  const id = call.id ?? null;
  const result = (value: unknown) => ({ jsonrpc: '2.0', id, result: value });
  switch (call.method) {
    case 'getTransaction':
      return result(null);
    case 'getSignatureStatuses':
      return result({ context: { slot: 100 }, value: [null] });
    case 'getSlot':
      return result(100);
    case 'eth_chainId':
      return result('0x2105');
    case 'eth_blockNumber':
      return result('0x64');
    case 'eth_getTransactionReceipt':
    case 'eth_getTransactionByHash':
      return result(null);
    default:
      return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
  }
}

/** Start the stub on an ephemeral port of 127.0.0.1. */
export async function startChainStub(): Promise<ChainStub> {
  let calls = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: RpcCall | RpcCall[];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcCall | RpcCall[];
      } catch {
        response.writeHead(400).end();
        return;
      }
      const list = Array.isArray(body) ? body : [body];
      calls += list.length;
      const answers = list.map(answer);
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(Array.isArray(body) ? answers : answers[0]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    calls: () => calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
