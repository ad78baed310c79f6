import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';

import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  erc20Abi,
  type Hash,
  type Hex,
  http,
  parseAbi,
} from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';

import testUsdc from './test-usdc.json' with { type: 'json' };

/** A local anvil node that answers as Base mainnet (chain id 8453), with test USDC planted. */
export interface LocalBase {
  /** `http://127.0.0.1:<port>` */
  rpcUrl: string;
  chainId: 8453;
  /** Test token planted (anvil_setCode) at the real Base USDC address 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 */
  usdc: Address;
  /** New random account with 1 ETH (anvil_setBalance) and `usdcAtomic` test USDC minted to it. */
  newFundedAccount(usdcAtomic: bigint): Promise<PrivateKeyAccount>;
  /** Deploy another instance of the test token (a look-alike "USDC" at a different address). */
  deployToken(): Promise<Address>;
  /** Mint `atomic` units of the test token at `token` to `to`; resolves once the mint is mined. */
  mint(token: Address, to: Address, atomic: bigint): Promise<void>;
  balanceOf(token: Address, owner: Address): Promise<bigint>;
  /** Mine n empty blocks (anvil_mine). */
  mine(blocks?: number): Promise<void>;
  /** evm_snapshot: an id for `revert`. anvil forgets the id once it has been reverted to. */
  snapshot(): Promise<Hex>;
  /** evm_revert to a snapshot; throws if anvil does not know the id. */
  revert(id: Hex): Promise<void>;
  /** Stops the anvil process (SIGTERM, SIGKILL after 5 s) and waits for its exit. Idempotent. */
  stop(): Promise<void>;
}

/** Circle's native USDC on Base mainnet (https://developers.circle.com/stablecoins/usdc-contract-addresses). */
const BASE_USDC: Address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
/** anvil's first dev account, derived from the well-known "test test … junk" mnemonic. */
const DEV_KEY_0: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ONE_ETH = 10n ** 18n;
const START_TIMEOUT_MS = 15_000;
/** After the watchdog's own 5 s SIGKILL escalation. */
const STOP_GRACE_MS = 6_000;
/** Upper bound for any single RPC call; anvil answers in milliseconds. */
const RPC_TIMEOUT_MS = 10_000;
/** Keep this much of anvil's output for error messages; the rest is drained and dropped. */
const OUTPUT_TAIL_CHARS = 4_000;

/**
 * Foundry's npm platform packages of anvil 1.7.1 (the `@foundry-rs/anvil` wrapper's const.mjs).
 * The project depends on the linux-x64 one directly, as an optional dependency: the wrapper
 * lists all platforms, and a registry that lacks some of them breaks `npm ci`. Elsewhere,
 * `npm i -D @foundry-rs/anvil` or `ANVIL_BIN` (a Foundry install) provides the binary.
 */
const ANVIL_PACKAGES: Partial<Record<string, string>> = {
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
};

const MINT_ABI = parseAbi(['function mint(address to, uint256 value)']);

/**
 * POSIX watchdog that runs anvil (`sh -c WATCHDOG <anvil> <args…>`) and ties its life to our end
 * of the shell's stdin pipe. A test worker that is killed (vitest terminates forks without an
 * 'exit' event) or crashes closes that pipe, and a Node 'exit' hook cannot cover SIGKILL, so the
 * shell does it: at EOF it sends anvil SIGTERM, and SIGKILL 5 s later. `stop()` simply ends the
 * pipe. The shell exits with anvil's status once anvil is gone, so its 'exit' event means anvil's.
 * Background lists get /dev/null as stdin unless redirected, hence the copy of stdin on fd 3.
 */
const WATCHDOG = `exec 3<&0
"$0" "$@" </dev/null &
pid=$!
trap 'kill -TERM "$pid" 2>/dev/null' TERM INT HUP
{ read -r _ <&3; kill -TERM "$pid"; sleep 5; kill -KILL "$pid"; } >/dev/null 2>&1 &
reader=$!
exec 3<&-
code=0
while kill -0 "$pid" 2>/dev/null; do wait "$pid"; code=$?; done
kill "$reader" 2>/dev/null
exit "$code"`;

/**
 * Windows has no sh: there anvil is spawned directly and killed from a Node 'exit' hook, which
 * covers normal exits and uncaught errors but not a killed process.
 */
const directNodes = new Set<ChildProcess>();
let exitHookInstalled = false;
function killOnExit(child: ChildProcess): void {
  directNodes.add(child);
  child.once('exit', () => directNodes.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const node of directNodes) node.kill('SIGKILL');
    });
  }
}

/**
 * Path of the anvil binary: `ANVIL_BIN` when set, else the binary of this platform's npm
 * package. Spawning the binary directly (not a `bin.mjs` shim) avoids a second Node process and
 * lets `stop()` signal anvil itself.
 *
 * @throws Error naming the package to install when this platform's package is missing.
 */
function resolveAnvilBinary(): string {
  const fromEnvironment = process.env.ANVIL_BIN;
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
  const key = `${process.platform}-${process.arch}`;
  const packageName = ANVIL_PACKAGES[key];
  if (packageName === undefined) {
    throw new Error(`anvil (@foundry-rs/anvil 1.7.1) publishes no binary for ${key}`);
  }
  const binary = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  try {
    return createRequire(import.meta.url).resolve(`${packageName}/bin/${binary}`);
  } catch (error) {
    throw new Error(
      `anvil binary not found: install ${packageName} (npm i -D ${packageName}@1.7.1) or set ` +
        'ANVIL_BIN to an anvil binary (https://getfoundry.sh)',
      { cause: error },
    );
  }
}

interface AnvilProcess {
  url: string;
  stop(): Promise<void>;
}

/** Spawns anvil and resolves with its URL once it prints "Listening on", or rejects after 15 s. */
function spawnAnvil(args: readonly string[]): Promise<AnvilProcess> {
  const binary = resolveAnvilBinary();
  return new Promise((resolve, reject) => {
    const anvilArgs = ['--port', '0', '--host', '127.0.0.1', ...args];
    const env = { ...process.env, FOUNDRY_DISABLE_NIGHTLY_WARNING: '1' };
    const watched = process.platform !== 'win32';
    const child = watched
      ? spawn('/bin/sh', ['-c', WATCHDOG, binary, ...anvilArgs], { stdio: 'pipe', env })
      : spawn(binary, anvilArgs, { stdio: ['ignore', 'pipe', 'pipe'], env });
    if (!watched) killOnExit(child);
    // Ending stdin after the watchdog is gone may raise EPIPE; there is nothing left to stop then.
    child.stdin?.on('error', () => undefined);
    let output = '';
    let started = false;
    let exited = false;
    const exitPromise = new Promise<void>((resolveExit) => {
      child.once('exit', () => {
        exited = true;
        resolveExit();
      });
    });

    let stopping: Promise<void> | undefined;
    const stop = (): Promise<void> => {
      stopping ??= (async () => {
        if (!exited) {
          // Watched: ending the pipe makes the watchdog stop anvil (SIGTERM, SIGKILL after 5 s).
          if (watched) child.stdin?.end();
          else child.kill('SIGTERM');
          const grace = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
          await exitPromise;
          clearTimeout(grace);
        }
        child.stdout.destroy();
        child.stderr.destroy();
      })();
      return stopping;
    };

    const fail = (message: string, cause?: unknown): void => {
      clearTimeout(timer);
      void stop();
      reject(new Error(`${message}\n--- anvil output ---\n${output}`, { cause }));
    };
    const timer = setTimeout(() => {
      fail(`anvil did not start within ${START_TIMEOUT_MS} ms`);
    }, START_TIMEOUT_MS);

    // Keep reading after start-up: anvil logs every RPC call, and a full pipe would block it.
    const onData = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
      if (started) return;
      const match = /Listening on 127\.0\.0\.1:(\d+)/.exec(output);
      if (match?.[1] !== undefined) {
        started = true;
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${match[1]}`, stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (error) => {
      if (!started) fail(`anvil could not be spawned (${binary})`, error);
    });
    child.once('exit', (code, signal) => {
      if (!started) fail(`anvil exited before listening (code ${code}, signal ${signal})`);
    });
  });
}

/**
 * Starts a local Base mainnet stand-in: anvil (`@foundry-rs/anvil` 1.7.1) on 127.0.0.1 at a free
 * port with chain id 8453, and the test token (`test-usdc.json`, 6 decimals, open `mint`) planted
 * with anvil_setCode at the real Base USDC address, so production constants are exercised.
 * Planting copies only code: storage starts empty (totalSupply 0), which is why the token has no
 * constructor state. Funding and deploying are sent from anvil dev account #0 and each call
 * resolves only after its transaction is mined and succeeded.
 *
 * Takes about 40 ms (anvil prints "Listening on" ~35–60 ms after spawn on a 2-core machine).
 *
 * @param options.blockTimeSeconds interval mining (`--block-time N`); default automine, one block
 *   per transaction. With interval mining every funding call waits up to one block.
 * @throws Error when the binary is missing or anvil does not listen within 15 s (the process is
 *   killed and its output is in the message).
 */
export async function startLocalBase(options?: { blockTimeSeconds?: number }): Promise<LocalBase> {
  const args = ['--chain-id', String(base.id)];
  const blockTime = options?.blockTimeSeconds;
  if (blockTime !== undefined) {
    if (!(Number.isFinite(blockTime) && blockTime > 0)) {
      throw new RangeError(`blockTimeSeconds must be a positive number, got ${blockTime}`);
    }
    args.push('--block-time', String(blockTime));
  }
  const anvil = await spawnAnvil(args);
  try {
    return await connect(anvil, blockTime);
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

async function connect(
  anvil: AnvilProcess,
  blockTimeSeconds: number | undefined,
): Promise<LocalBase> {
  const { url } = anvil;
  const chain = { ...base, rpcUrls: { default: { http: [url] } } };
  // No retries: tests of outage handling need the first failure, not a retried success.
  const transport = http(url, { retryCount: 0, timeout: RPC_TIMEOUT_MS });
  // cacheTime 0: viem otherwise caches eth_blockNumber for a polling interval, and tests read the
  // block number right after mining.
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50, cacheTime: 0 });
  const testClient = createTestClient({ chain, transport, mode: 'anvil' });
  const deployer = createWalletClient({
    chain,
    transport,
    account: privateKeyToAccount(DEV_KEY_0),
  });
  const receiptTimeout = Math.max(RPC_TIMEOUT_MS, (blockTimeSeconds ?? 0) * 3_000);

  // viem reads the deployer's pending nonce per send, so two concurrent sends would pick the same
  // nonce. Sends are serialized; waiting for receipts is not, so parallel fundings share a block.
  let sendQueue: Promise<unknown> = Promise.resolve();
  const serialized = (send: () => Promise<Hash>): Promise<Hash> => {
    const result = sendQueue.then(send);
    sendQueue = result.catch(() => undefined);
    return result;
  };
  const mined = async (hash: Hash, what: string) => {
    const receipt = await publicClient.waitForTransactionReceipt({
      hash,
      timeout: receiptTimeout,
    });
    if (receipt.status !== 'success') throw new Error(`${what} reverted (tx ${hash})`);
    return receipt;
  };

  const mint = async (token: Address, to: Address, atomic: bigint): Promise<void> => {
    if (atomic < 0n) throw new RangeError(`mint amount must be >= 0, got ${atomic}`);
    const hash = await serialized(() =>
      deployer.writeContract({
        address: token,
        abi: MINT_ABI,
        functionName: 'mint',
        args: [to, atomic],
      }),
    );
    await mined(hash, `mint of ${atomic} at ${token}`);
  };

  await testClient.setCode({ address: BASE_USDC, bytecode: testUsdc.deployedBytecode as Hex });

  return {
    rpcUrl: url,
    chainId: base.id,
    usdc: BASE_USDC,
    async newFundedAccount(usdcAtomic) {
      if (usdcAtomic < 0n) throw new RangeError(`usdcAtomic must be >= 0, got ${usdcAtomic}`);
      const account = privateKeyToAccount(generatePrivateKey());
      await testClient.setBalance({ address: account.address, value: ONE_ETH });
      if (usdcAtomic > 0n) await mint(BASE_USDC, account.address, usdcAtomic);
      return account;
    },
    async deployToken() {
      const hash = await serialized(() =>
        // The ABI only encodes constructor arguments, and the token has none.
        deployer.deployContract({ abi: erc20Abi, bytecode: testUsdc.bytecode as Hex }),
      );
      const receipt = await mined(hash, 'test token deployment');
      if (!receipt.contractAddress) throw new Error(`deployment ${hash} created no contract`);
      return receipt.contractAddress;
    },
    mint,
    balanceOf: (token, owner) =>
      publicClient.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [owner],
      }),
    async mine(blocks = 1) {
      if (!(Number.isSafeInteger(blocks) && blocks >= 1)) {
        throw new RangeError(`blocks must be a positive integer, got ${blocks}`);
      }
      await testClient.mine({ blocks });
    },
    snapshot: () => testClient.snapshot(),
    async revert(id) {
      // viem's testClient.revert drops evm_revert's boolean; an unknown id must not pass silently.
      const reverted = await testClient.request<{ Parameters: [Hex]; ReturnType: boolean }>({
        method: 'evm_revert',
        params: [id],
      });
      if (!reverted) throw new Error(`evm_revert: unknown snapshot id ${id}`);
    },
    stop: () => anvil.stop(),
  };
}
