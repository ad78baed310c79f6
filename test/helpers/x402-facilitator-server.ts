/**
 * A real x402 facilitator on loopback for the remote-facilitator tests: `@x402/core`'s
 * `x402Facilitator` with `@x402/evm`'s `exact` schemes registered by `registerExactEvmScheme`
 * (v2 on eip155:8453, v1 on every EVM network), served over the documented HTTP API
 * (x402 specs, "Facilitator": `POST /verify` and `POST /settle` with `{x402Version,
 * paymentPayload, paymentRequirements}`, `GET /supported`). It settles with its own account on
 * the local anvil chain. Only what the API defines is implemented; anything else is 404.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { x402Facilitator } from '@x402/core/facilitator';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import { createWalletClient, type Hex, http, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';

/** A running facilitator. */
export interface FacilitatorServer {
  /** `http://127.0.0.1:<port>` (the X402_FACILITATOR_URL). */
  url: string;
  /** Requests served, by path. */
  calls(): Record<string, number>;
  close(): Promise<void>;
}

/** Largest request body accepted (a payment payload is a few KB). */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * Start the facilitator.
 *
 * @param options.rpcUrl the chain it settles on; `privateKey` its settlement account (funded
 *   with ETH by the caller).
 */
export async function startFacilitatorServer(options: {
  rpcUrl: string;
  privateKey: Hex;
}): Promise<FacilitatorServer> {
  const account = privateKeyToAccount(options.privateKey);
  const client = createWalletClient({
    account,
    chain: base,
    pollingInterval: 100,
    transport: http(options.rpcUrl, { retryCount: 0, timeout: 5_000 }),
  }).extend(publicActions);
  type Loose = never;
  const signer = toFacilitatorEvmSigner(
    {
      address: account.address,
      readContract: (args) => client.readContract(args),
      verifyTypedData: (args) => client.verifyTypedData(args as Loose),
      writeContract: (args) => client.writeContract(args),
      sendTransaction: (args) => client.sendTransaction(args),
      waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
      getCode: (args) => client.getCode(args),
    },
    { confirmationTimeoutMs: 10_000 },
  );
  const facilitator = registerExactEvmScheme(new x402Facilitator(), {
    signer,
    networks: 'eip155:8453',
  });

  const counts: Record<string, number> = {};
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '';
    counts[path] = (counts[path] ?? 0) + 1;
    const send = (status: number, body: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    void (async () => {
      if (request.method === 'GET' && path === '/supported') {
        send(200, facilitator.getSupported());
        return;
      }
      if (request.method === 'POST' && (path === '/verify' || path === '/settle')) {
        const body = (await readJson(request)) as {
          paymentPayload: PaymentPayload;
          paymentRequirements: PaymentRequirements;
        };
        const result =
          path === '/verify'
            ? await facilitator.verify(body.paymentPayload, body.paymentRequirements)
            : await facilitator.settle(body.paymentPayload, body.paymentRequirements);
        send(200, result);
        return;
      }
      send(404, { error: 'not_found' });
    })().catch((error: unknown) => {
      send(500, { error: error instanceof Error ? error.message : 'internal error' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls: () => ({ ...counts }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}
