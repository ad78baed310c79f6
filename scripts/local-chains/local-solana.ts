/**
 * A local Solana node for payment tests and the demo: Surfpool's in-process `Surfnet` (real
 * JSON-RPC and WebSocket endpoints on 127.0.0.1, offline, SPL Token, Token-2022, ATA and memo
 * v1/v2 preloaded) with a real classic-SPL mint planted at the mainnet USDC address.
 *
 * Memo: `@solana-program/memo` 0.15.0 defaults to the new v4 program `Memo4c2p…`, which Surfpool
 * 1.5.0 does not have, so a transaction using it fails simulation. Clients must pass
 * `{ programAddress: LEGACY_MEMO_PROGRAM_ADDRESS_V3 }` (`MemoSq4g…`) to `getAddMemoInstruction`;
 * the server accepts every id in `SUPPORTED_MEMO_PROGRAM_ADDRESSES`.
 */
import { createRequire } from 'node:module';

import {
  type Address,
  address,
  createSolanaRpc,
  fetchEncodedAccount,
  generateKeyPairSigner,
  getBase64Encoder,
  type KeyPairSigner,
} from '@solana/kit';
import {
  fetchMaybeToken,
  findAssociatedTokenPda,
  getMintEncoder,
  getMintSize,
  getTokenDecoder,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';

/** A running Surfnet with test USDC; every amount is in atomic units (lamports, 10⁻⁶ USDC). */
export interface LocalSolana {
  /** `http://127.0.0.1:<port>` */
  rpcUrl: string;
  /** `ws://127.0.0.1:<port>` */
  wsUrl: string;
  /** Real SPL mint (classic Token program, 6 decimals) planted at mainnet USDC EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v */
  usdcMint: Address;
  /**
   * New KeyPairSigner with `lamports` (default 1 SOL) and `usdcAtomic` USDC in its associated
   * token account. With `usdcAtomic` 0n no token account is created.
   */
  newFundedWallet(usdcAtomic: bigint, lamports?: bigint): Promise<KeyPairSigner>;
  /**
   * Sets the SOL balance of `owner` (lamports), e.g. for a fee payer whose key the caller holds.
   * @throws RangeError when `lamports` is outside 0..2^53-1.
   */
  fundSol(owner: Address, lamports: bigint): Promise<void>;
  /** Plant another classic SPL mint (6 decimals) at a fresh random address: a look-alike token. */
  createMint(): Promise<Address>;
  /**
   * Adds `atomic` to the owner's associated token account for `mint`, creating it if needed.
   * @throws Error when `mint` is not a classic SPL mint on this node.
   */
  fundToken(owner: Address, mint: Address, atomic: bigint): Promise<void>;
  /**
   * Sum of `mint` balances over the owner's classic SPL token accounts: its associated token
   * account plus any other account it owns (0n when there is none).
   */
  tokenBalance(owner: Address, mint: Address): Promise<bigint>;
  /** Stops the node and frees its ports. Idempotent. */
  stop(): Promise<void>;
}

/** Circle's native USDC mint on Solana mainnet (https://developers.circle.com/stablecoins/usdc-contract-addresses). */
const MAINNET_USDC_MINT = address('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
const USDC_DECIMALS = 6;
/** 10⁹ USDC: large enough that no test transfer can exceed it. Cheatcode funding leaves it as is. */
const PLANTED_SUPPLY = 10n ** 15n;
const ONE_SOL = 1_000_000_000n;
const START_TIMEOUT_MS = 15_000;
const READY_PROBE_TIMEOUT_MS = 1_000;

/** The subset of Surfpool's napi `Surfnet` used here; argument types were checked against 1.5.0. */
interface SurfnetInstance {
  readonly rpcUrl: string;
  readonly wsUrl: string;
  /** Base58 address of Surfpool's own payer (10 SOL). */
  readonly payer: string;
  stop(): void;
  /** `lamports` is an f64: a BigInt argument throws "Failed to convert napi value BigInt". */
  fundSol(address: string, lamports: number): void;
  /** Sets (does not add to) the ATA balance; creates the ATA. `amount` is an f64. */
  fundToken(owner: string, mint: string, amount: number, tokenProgram?: string): void;
  /** `data` must be a plain array; a Uint8Array throws "Given napi value is not an array". */
  setAccount(address: string, lamports: number, data: number[], owner: string): void;
}
interface SurfnetClass {
  start(): SurfnetInstance;
}

/** Surfpool 1.5.0 platform packages; there is none for linux-arm64 or Windows. */
const SURFPOOL_PACKAGES: Partial<Record<string, string>> = {
  'linux-x64': '@solana/surfpool-linux-x64-gnu',
  'darwin-arm64': '@solana/surfpool-darwin-arm64',
  'darwin-x64': '@solana/surfpool-darwin-x64',
};

let surfnetClass: SurfnetClass | undefined;

/**
 * Loads `Surfnet` from this platform's Surfpool package. The wrapper package `@solana/surfpool`
 * is not on our registry, so the platform packages are optionalDependencies and loaded directly
 * (each is a bare `.node` module whose `require()` returns `{ Surfnet }`).
 *
 * @throws Error naming the package when this platform has none or it is not installed.
 */
function loadSurfnet(): SurfnetClass {
  if (surfnetClass) return surfnetClass;
  const key = `${process.platform}-${process.arch}`;
  const packageName = SURFPOOL_PACKAGES[key];
  if (packageName === undefined) {
    throw new Error(
      `Surfpool 1.5.0 has no package for ${key} (only linux-x64 glibc, darwin-arm64, darwin-x64)`,
    );
  }
  let loaded: unknown;
  try {
    loaded = createRequire(import.meta.url)(packageName);
  } catch (error) {
    throw new Error(
      `cannot load ${packageName}: install it (an optionalDependency; needs glibc >= 2.34 on Linux)`,
      { cause: error },
    );
  }
  const candidate = (loaded as { Surfnet?: SurfnetClass } | null)?.Surfnet;
  if (typeof candidate?.start !== 'function') {
    throw new Error(`${packageName} does not export Surfnet.start()`);
  }
  surfnetClass = candidate;
  return candidate;
}

/** Cheatcodes take f64; larger amounts would be rounded silently. */
function toCheatcodeAmount(value: bigint, what: string): number {
  if (value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`${what} must be in 0..2^53-1 for Surfpool cheatcodes, got ${value}`);
  }
  return Number(value);
}

/**
 * Starts a Surfnet on 127.0.0.1 (random ports, so test files can run in parallel) and plants a
 * real classic SPL Mint account (6 decimals, supply 10⁹ USDC, mint authority Surfpool's payer, no
 * freeze authority) at the mainnet USDC address, so production constants are exercised.
 *
 * Takes about 30–80 ms. `Surfnet.start()` is synchronous native code and cannot be interrupted;
 * the 15 s bound applies to waiting until its RPC answers.
 *
 * @throws Error when Surfpool cannot be loaded or its RPC does not answer within 15 s.
 */
export async function startLocalSolana(): Promise<LocalSolana> {
  const surfnet = loadSurfnet().start();
  let stopped = false;
  const stop = (): Promise<void> => {
    if (!stopped) {
      stopped = true;
      surfnet.stop();
    }
    return Promise.resolve();
  };
  try {
    const rpc = createSolanaRpc(surfnet.rpcUrl);
    await waitUntilReady(() =>
      rpc.getSlot().send({ abortSignal: AbortSignal.timeout(READY_PROBE_TIMEOUT_MS) }),
    );

    const mintRent = await rpc.getMinimumBalanceForRentExemption(BigInt(getMintSize())).send();
    const mintData = Array.from(
      getMintEncoder().encode({
        mintAuthority: address(surfnet.payer),
        supply: PLANTED_SUPPLY,
        decimals: USDC_DECIMALS,
        isInitialized: true,
        freezeAuthority: null,
      }),
    );
    const plantMint = (mint: Address): void => {
      surfnet.setAccount(
        mint,
        toCheatcodeAmount(mintRent, 'rent'),
        mintData,
        TOKEN_PROGRAM_ADDRESS,
      );
    };
    plantMint(MAINNET_USDC_MINT);

    const ataOf = async (owner: Address, mint: Address): Promise<Address> =>
      (await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];

    const fundToken = async (owner: Address, mint: Address, atomic: bigint): Promise<void> => {
      toCheatcodeAmount(atomic, 'atomic');
      // Surfpool's fundToken "succeeds" for a missing mint and creates an unusable token account.
      const mintAccount = await fetchEncodedAccount(rpc, mint);
      const isMint =
        mintAccount.exists &&
        mintAccount.programAddress === TOKEN_PROGRAM_ADDRESS &&
        mintAccount.data.length === getMintSize();
      if (!isMint) {
        throw new Error(`${mint} is not a classic SPL mint on this Surfnet`);
      }
      // The cheatcode sets the balance; read it first so that funding adds, like a transfer.
      const ata = await fetchMaybeToken(rpc, await ataOf(owner, mint));
      const current = ata.exists ? ata.data.amount : 0n;
      surfnet.fundToken(
        owner,
        mint,
        toCheatcodeAmount(current + atomic, 'balance'),
        TOKEN_PROGRAM_ADDRESS,
      );
    };

    return {
      rpcUrl: surfnet.rpcUrl,
      wsUrl: surfnet.wsUrl,
      usdcMint: MAINNET_USDC_MINT,
      async newFundedWallet(usdcAtomic, lamports = ONE_SOL) {
        const sol = toCheatcodeAmount(lamports, 'lamports');
        toCheatcodeAmount(usdcAtomic, 'usdcAtomic');
        const wallet = await generateKeyPairSigner();
        surfnet.fundSol(wallet.address, sol);
        if (usdcAtomic > 0n) await fundToken(wallet.address, MAINNET_USDC_MINT, usdcAtomic);
        return wallet;
      },
      fundSol(owner, lamports) {
        surfnet.fundSol(owner, toCheatcodeAmount(lamports, 'lamports'));
        return Promise.resolve();
      },
      async createMint() {
        // Only the address is needed: nobody signs for a mint account planted by cheatcode.
        const mint = (await generateKeyPairSigner()).address;
        plantMint(mint);
        return mint;
      },
      fundToken,
      async tokenBalance(owner, mint) {
        // Filter by program, not by mint: the mint filter is an RPC error when the mint is absent.
        const { value } = await rpc
          .getTokenAccountsByOwner(
            owner,
            { programId: TOKEN_PROGRAM_ADDRESS },
            { encoding: 'base64' },
          )
          .send();
        const base64 = getBase64Encoder();
        const decoder = getTokenDecoder();
        let total = 0n;
        for (const { account } of value) {
          const token = decoder.decode(base64.encode(account.data[0]));
          if (token.mint === mint) total += token.amount;
        }
        return total;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Retries `probe` until it resolves, for at most 15 s. */
async function waitUntilReady(probe: () => Promise<unknown>): Promise<void> {
  const deadline = performance.now() + START_TIMEOUT_MS;
  for (;;) {
    try {
      await probe();
      return;
    } catch (error) {
      if (performance.now() >= deadline) {
        throw new Error(`Surfnet RPC did not answer within ${START_TIMEOUT_MS} ms`, {
          cause: error,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
