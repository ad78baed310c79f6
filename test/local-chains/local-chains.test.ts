import { Agent, request } from 'node:http';

import {
  address,
  appendTransactionMessageInstructions,
  assertIsTransactionWithBlockhashLifetime,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  getSignatureFromTransaction,
  pipe,
  type Rpc,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type SolanaRpcApi,
} from '@solana/kit';
import { getAddMemoInstruction, LEGACY_MEMO_PROGRAM_ADDRESS_V3 } from '@solana-program/memo';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getMintDecoder,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  http,
  HttpRequestError,
  type PublicClient,
} from 'viem';
import { base } from 'viem/chains';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
  type LocalBase,
  type LocalSolana,
  type RpcProxy,
  startLocalBase,
  startLocalSolana,
  startRpcProxy,
} from '../../scripts/local-chains/index.js';

const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const MAINNET_USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** A viem client that fails on the first transport error instead of retrying. */
const evmClient = (url: string): PublicClient =>
  createPublicClient({ transport: http(url, { retryCount: 0, timeout: 5_000 }), cacheTime: 0 });

describe('startLocalBase', () => {
  let chain: LocalBase;
  let client: PublicClient;
  beforeAll(async () => {
    chain = await startLocalBase();
    client = evmClient(chain.rpcUrl);
  });
  afterAll(() => chain.stop());

  it('answers as Base with the test token planted at the real USDC address', async () => {
    expect(chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(chain.chainId).toBe(8453);
    expect(await client.getChainId()).toBe(8453);
    expect(chain.usdc).toBe(BASE_USDC);
    expect(await client.getCode({ address: BASE_USDC })).toMatch(/^0x[0-9a-f]{100,}$/);
    const [symbol, decimals] = await Promise.all([
      client.readContract({ address: BASE_USDC, abi: erc20Abi, functionName: 'symbol' }),
      client.readContract({ address: BASE_USDC, abi: erc20Abi, functionName: 'decimals' }),
    ]);
    expect({ symbol, decimals }).toEqual({ symbol: 'USDC', decimals: 6 });
  });

  it('funds a new account with 1 ETH and the requested USDC', async () => {
    const account = await chain.newFundedAccount(5_000_000n);
    expect(await client.getBalance({ address: account.address })).toBe(10n ** 18n);
    expect(await chain.balanceOf(chain.usdc, account.address)).toBe(5_000_000n);
    const other = await chain.newFundedAccount(0n);
    expect(other.address).not.toBe(account.address);
    expect(await chain.balanceOf(chain.usdc, other.address)).toBe(0n);
  });

  it('lands a transfer, and a transfer beyond the balance as reverted', async () => {
    const payer = await chain.newFundedAccount(10_000n);
    const recipient = await chain.newFundedAccount(0n);
    const wallet = createWalletClient({
      account: payer,
      chain: base,
      transport: http(chain.rpcUrl, { retryCount: 0 }),
    });
    const transfer = (amount: bigint) =>
      // Explicit gas skips viem's simulation, so the reverting transfer is actually sent.
      wallet.writeContract({
        address: chain.usdc,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [recipient.address, amount],
        gas: 100_000n,
      });
    const ok = await client.waitForTransactionReceipt({ hash: await transfer(10_000n) });
    expect(ok.status).toBe('success');
    const failed = await client.waitForTransactionReceipt({ hash: await transfer(1n) });
    expect(failed.status).toBe('reverted');
    expect(await chain.balanceOf(chain.usdc, recipient.address)).toBe(10_000n);
    expect(await chain.balanceOf(chain.usdc, payer.address)).toBe(0n);
  });

  it('deploys a look-alike token at a different address', async () => {
    const token = await chain.deployToken();
    expect(getAddress(token)).not.toBe(getAddress(chain.usdc));
    expect(await client.getCode({ address: token })).toMatch(/^0x[0-9a-f]{100,}$/);
    const holder = await chain.newFundedAccount(0n);
    await chain.mint(token, holder.address, 7n);
    expect(await chain.balanceOf(token, holder.address)).toBe(7n);
    expect(await chain.balanceOf(chain.usdc, holder.address)).toBe(0n);
  });

  it('mines empty blocks', async () => {
    const before = await client.getBlockNumber();
    await chain.mine(3);
    expect(await client.getBlockNumber()).toBe(before + 3n);
    await chain.mine();
    expect(await client.getBlockNumber()).toBe(before + 4n);
  });

  it('reverts to a snapshot, undoing a mint', async () => {
    const account = await chain.newFundedAccount(100n);
    const id = await chain.snapshot();
    await chain.mint(chain.usdc, account.address, 50n);
    expect(await chain.balanceOf(chain.usdc, account.address)).toBe(150n);
    await chain.revert(id);
    expect(await chain.balanceOf(chain.usdc, account.address)).toBe(100n);
    // anvil forgets a snapshot once it has been reverted to.
    await expect(chain.revert(id)).rejects.toThrow(/unknown snapshot/);
  });

  it('with --block-time, funding waits for the block', async () => {
    const slow = await startLocalBase({ blockTimeSeconds: 0.2 });
    try {
      const account = await slow.newFundedAccount(1n);
      expect(await slow.balanceOf(slow.usdc, account.address)).toBe(1n);
    } finally {
      await slow.stop();
    }
  });

  it('stop kills anvil: its port refuses afterwards', async () => {
    const other = await startLocalBase();
    const otherClient = evmClient(other.rpcUrl);
    expect(await otherClient.getChainId()).toBe(8453);
    await other.stop();
    await other.stop(); // idempotent
    await expect(otherClient.getChainId()).rejects.toBeInstanceOf(HttpRequestError);
  });
});

describe('startLocalSolana', () => {
  let chain: LocalSolana;
  let rpc: Rpc<SolanaRpcApi>;
  beforeAll(async () => {
    chain = await startLocalSolana();
    rpc = createSolanaRpc(chain.rpcUrl);
  });
  afterAll(() => chain.stop());

  const ataOf = async (owner: string, mint: string) =>
    (
      await findAssociatedTokenPda({
        owner: address(owner),
        mint: address(mint),
        tokenProgram: TOKEN_PROGRAM_ADDRESS,
      })
    )[0];

  it('plants a classic SPL mint with 6 decimals at the mainnet USDC address', async () => {
    expect(chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(chain.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    expect(chain.usdcMint).toBe(MAINNET_USDC_MINT);
    const { value } = await rpc.getAccountInfo(chain.usdcMint, { encoding: 'base64' }).send();
    expect(value?.owner).toBe(TOKEN_PROGRAM_ADDRESS);
    const mint = getMintDecoder().decode(Buffer.from(value?.data[0] ?? '', 'base64'));
    expect(mint).toMatchObject({ decimals: 6, isInitialized: true });
    expect(mint.freezeAuthority).toEqual({ __option: 'None' });
  });

  it('funds a wallet with 1 SOL and USDC in its associated token account', async () => {
    const wallet = await chain.newFundedWallet(2_500_000n);
    expect((await rpc.getBalance(wallet.address).send()).value).toBe(1_000_000_000n);
    const ata = await ataOf(wallet.address, chain.usdcMint);
    expect((await rpc.getTokenAccountBalance(ata).send()).value).toMatchObject({
      amount: '2500000',
      decimals: 6,
    });
    expect(await chain.tokenBalance(wallet.address, chain.usdcMint)).toBe(2_500_000n);
  });

  it('takes custom lamports, and creates no token account for 0 USDC', async () => {
    const wallet = await chain.newFundedWallet(0n, 5_000n);
    expect((await rpc.getBalance(wallet.address).send()).value).toBe(5_000n);
    const ata = await ataOf(wallet.address, chain.usdcMint);
    expect((await rpc.getAccountInfo(ata).send()).value).toBeNull();
    expect(await chain.tokenBalance(wallet.address, chain.usdcMint)).toBe(0n);
  });

  it('creates a look-alike mint; fundToken adds to a balance', async () => {
    const fake = await chain.createMint();
    expect(fake).not.toBe(chain.usdcMint);
    const { value } = await rpc.getAccountInfo(fake, { encoding: 'base64' }).send();
    expect(value?.owner).toBe(TOKEN_PROGRAM_ADDRESS);
    const wallet = await chain.newFundedWallet(1n);
    await chain.fundToken(wallet.address, fake, 40n);
    await chain.fundToken(wallet.address, fake, 2n);
    await chain.fundToken(wallet.address, chain.usdcMint, 9n);
    expect(await chain.tokenBalance(wallet.address, fake)).toBe(42n);
    expect(await chain.tokenBalance(wallet.address, chain.usdcMint)).toBe(10n);
    // Surfpool itself would create an unusable token account for an address that is no mint.
    await expect(chain.fundToken(wallet.address, wallet.address, 1n)).rejects.toThrow(
      /not a classic SPL mint/,
    );
  });

  it('the planted USDC moves with a real transferChecked + memo transaction', async () => {
    const payer = await chain.newFundedWallet(50_000n);
    const recipient = await chain.newFundedWallet(0n);
    const [source, destination] = await Promise.all([
      ataOf(payer.address, chain.usdcMint),
      ataOf(recipient.address, chain.usdcMint),
    ]);
    const { value: blockhash } = await rpc.getLatestBlockhash().send();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
      (m) =>
        appendTransactionMessageInstructions(
          [
            getCreateAssociatedTokenIdempotentInstruction({
              payer,
              ata: destination,
              owner: recipient.address,
              mint: chain.usdcMint,
            }),
            getTransferCheckedInstruction({
              source,
              mint: chain.usdcMint,
              destination,
              authority: payer,
              amount: 10_000n,
              decimals: 6,
            }),
            // Surfpool lacks the v4 memo program that @solana-program/memo 0.15 uses by default.
            getAddMemoInstruction(
              { memo: 'linkguard:test' },
              { programAddress: LEGACY_MEMO_PROGRAM_ADDRESS_V3 },
            ),
          ],
          m,
        ),
    );
    const signed = await signTransactionMessageWithSigners(message);
    assertIsTransactionWithBlockhashLifetime(signed);
    // Confirmation arrives over the WebSocket endpoint: sendTransaction returns before the status
    // is visible.
    const sendAndConfirm = sendAndConfirmTransactionFactory({
      rpc,
      rpcSubscriptions: createSolanaRpcSubscriptions(chain.wsUrl),
    });
    await sendAndConfirm(signed, {
      commitment: 'confirmed',
      abortSignal: AbortSignal.timeout(5_000),
    });
    const { value: statuses } = await rpc
      .getSignatureStatuses([getSignatureFromTransaction(signed)])
      .send();
    expect(statuses[0]?.err).toBeNull();
    expect(await chain.tokenBalance(payer.address, chain.usdcMint)).toBe(40_000n);
    expect(await chain.tokenBalance(recipient.address, chain.usdcMint)).toBe(10_000n);
  });

  it('stop frees its RPC port', async () => {
    const other = await startLocalSolana();
    const otherRpc = createSolanaRpc(other.rpcUrl);
    expect(typeof (await otherRpc.getSlot().send())).toBe('bigint');
    await other.stop();
    await other.stop(); // idempotent
    await expect(otherRpc.getSlot().send()).rejects.toThrow();
  });
});

/** POSTs one JSON-RPC call over node:http; rejects on transport errors and on `signal`. */
function postJsonRpc(
  url: string,
  method: string,
  options: { signal?: AbortSignal; agent?: Agent } = {},
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] });
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        ...(options.signal && { signal: options.signal }),
        ...(options.agent && { agent: options.agent }),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          resolve((JSON.parse(text) as { result: unknown }).result);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('startRpcProxy', () => {
  let chain: LocalBase;
  let proxy: RpcProxy;
  let agent: Agent;
  beforeAll(async () => {
    chain = await startLocalBase();
  });
  afterAll(() => chain.stop());
  beforeEach(async () => {
    proxy = await startRpcProxy(chain.rpcUrl);
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
  });
  afterEach(async () => {
    agent.destroy();
    await proxy.close();
  });

  it('forwards JSON-RPC calls', async () => {
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(proxy.url).not.toBe(chain.rpcUrl);
    expect(await evmClient(proxy.url).getChainId()).toBe(8453);
    expect(await postJsonRpc(proxy.url, 'eth_chainId')).toBe('0x2105');
    expect(proxy.connections()).toBe(2);
  });

  it('down fails calls with a transport error, up restores them', async () => {
    const client = evmClient(proxy.url);
    expect(await client.getChainId()).toBe(8453); // leaves a kept-alive connection behind
    proxy.setMode('down');
    await expect(client.getChainId()).rejects.toBeInstanceOf(HttpRequestError);
    await expect(postJsonRpc(proxy.url, 'eth_chainId')).rejects.toMatchObject({
      code: 'ECONNRESET',
    });
    proxy.setMode('up');
    expect(await client.getChainId()).toBe(8453);
  });

  it('hang never answers, also on a kept-alive connection, until the caller aborts', async () => {
    expect(await postJsonRpc(proxy.url, 'eth_chainId', { agent })).toBe('0x2105');
    const accepted = proxy.connections();
    proxy.setMode('hang');
    // The kept-alive socket is reused: the proxy accepts nothing new for this call.
    await expect(
      postJsonRpc(proxy.url, 'eth_chainId', { agent, signal: AbortSignal.timeout(300) }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(proxy.connections()).toBe(accepted);
    await expect(
      postJsonRpc(proxy.url, 'eth_chainId', { signal: AbortSignal.timeout(300) }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(proxy.connections()).toBe(accepted + 1);
    proxy.setMode('up');
    expect(await postJsonRpc(proxy.url, 'eth_chainId')).toBe('0x2105');
  });

  it('a one-way delay of 100 ms costs at least 200 ms per round trip', async () => {
    const client = evmClient(proxy.url);
    expect(await client.getChainId()).toBe(8453);
    proxy.setDelay(100);
    const started = performance.now();
    expect(await client.getChainId()).toBe(8453);
    expect(performance.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('keeps the target path and refuses non-loopback targets', async () => {
    const withPath = await startRpcProxy(`${chain.rpcUrl}/rpc/v1?key=x`, { delayMs: 0 });
    try {
      expect(withPath.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rpc\/v1\?key=x$/);
    } finally {
      await withPath.close();
    }
    await expect(startRpcProxy('http://example.com:8545')).rejects.toThrow(/loopback/);
  });

  it('close destroys connections and frees the port', async () => {
    const client = evmClient(proxy.url);
    expect(await client.getChainId()).toBe(8453);
    await proxy.close();
    await expect(client.getChainId()).rejects.toBeInstanceOf(HttpRequestError);
  });
});
