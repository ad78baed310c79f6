/**
 * @module local-chains/payment-stack
 * Everything a paid request needs, on loopback: Surfpool (Solana) and anvil (Base) with USDC at
 * the production addresses, an RPC proxy in front of each (to add latency or cut the line), a
 * funded payer per chain, fresh recipients, and the real service (`dist/src/cli/main.js serve`,
 * the build `npm start` runs) configured against them with a throw-away SQLite file. Used by
 * `npm run demo:x402` and the payment benchmark.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  createKeyPairSignerFromBytes,
  generateKeyPairSigner,
  type KeyPairSigner,
} from '@solana/kit';
import type { PrivateKeyAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { type LocalBase, startLocalBase } from './local-base.js';
import { type LocalSolana, startLocalSolana } from './local-solana.js';
import { type RpcProxy, startRpcProxy } from './rpc-proxy.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SERVICE_ENTRY = join(ROOT, 'dist/src/cli/main.js');
const SERVICE_START_TIMEOUT_MS = 20_000;

export interface PaymentStack {
  /** `http://127.0.0.1:<port>`: the service. */
  serviceUrl: string;
  solana: LocalSolana;
  base: LocalBase;
  /** Proxies the service uses to reach each chain (`setDelay`, `setMode`). */
  solanaProxy: RpcProxy;
  baseProxy: RpcProxy;
  solanaPayer: KeyPairSigner;
  basePayer: PrivateKeyAccount;
  /** An enterprise key for the same service (baseline measurements). */
  enterpriseKey: string;
  /** Stop the service, the proxies and the chains; remove the database. */
  stop(): Promise<void>;
}

export interface PaymentStackOptions {
  /** anvil block time; default automine (a block per transaction). */
  baseBlockTimeSeconds?: number;
  /** Extra environment for the service (e.g. BASE_MIN_CONFIRMATIONS). */
  env?: Record<string, string>;
  /** USDC given to each payer, atomic units (default 1 USDC). */
  payerUsdcAtomic?: bigint;
  /**
   * The service settles standard x402 `exact` payments on Solana as fee payer: a fresh
   * solana-keygen file with 1 SOL becomes SOLANA_FEE_PAYER_KEYPAIR, and the recipient's USDC
   * account is created (the official clients transfer to it and do not create it).
   */
  solanaFeePayer?: boolean;
}

/** SOL given to the fee payer of `solanaFeePayer` (lamports): fees for thousands of payments. */
const FEE_PAYER_LAMPORTS = 1_000_000_000n;

/**
 * Start chains, proxies and the service.
 *
 * @throws Error when `dist/` is missing (run `npm run build`) or a component does not start in
 *   time; whatever had started is stopped first.
 */
export async function startPaymentStack(options: PaymentStackOptions = {}): Promise<PaymentStack> {
  if (!existsSync(SERVICE_ENTRY)) {
    throw new Error(`${SERVICE_ENTRY} is missing: run \`npm run build\` first`);
  }
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
  try {
    const [solana, base] = await Promise.all([
      startLocalSolana(),
      startLocalBase(
        options.baseBlockTimeSeconds === undefined
          ? {}
          : { blockTimeSeconds: options.baseBlockTimeSeconds },
      ),
    ]);
    stops.push(
      () => solana.stop(),
      () => base.stop(),
    );
    const [solanaProxy, baseProxy] = await Promise.all([
      startRpcProxy(solana.rpcUrl),
      startRpcProxy(base.rpcUrl),
    ]);
    stops.push(
      () => solanaProxy.close(),
      () => baseProxy.close(),
    );

    const usdc = options.payerUsdcAtomic ?? 1_000_000n;
    const [solanaPayer, basePayer] = await Promise.all([
      solana.newFundedWallet(usdc),
      base.newFundedAccount(usdc),
    ]);
    const solanaRecipient = (await generateKeyPairSigner()).address;
    const baseRecipient = privateKeyToAccount(generatePrivateKey()).address;

    const dir = mkdtempSync(join(tmpdir(), 'linkguard-x402-'));
    stops.push(() => {
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    });
    const feePayerEnv: Record<string, string> = {};
    if (options.solanaFeePayer === true) {
      feePayerEnv.SOLANA_FEE_PAYER_KEYPAIR = await feePayerKeypairFile(solana, dir);
      await solana.fundToken(solanaRecipient, solana.usdcMint, 0n);
    }
    const port = await freePort();
    const env = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'linkguard.db')}`,
      LOG_LEVEL: 'warn',
      // Everything stays on 127.0.0.1: no domain-age lookups at public registries.
      RDAP_ENABLED: 'false',
      PAGE_ANALYSIS: 'off',
      SOLANA_RECIPIENT: solanaRecipient,
      SOLANA_RPC_URL: solanaProxy.url,
      BASE_RECIPIENT: baseRecipient,
      BASE_RPC_URL: baseProxy.url,
      ...feePayerEnv,
      ...options.env,
    };
    const enterpriseKey = createEnterpriseKey(env);
    const service = await startService(env, port);
    stops.push(() => stopProcess(service));

    return {
      serviceUrl: `http://127.0.0.1:${port}`,
      solana,
      base,
      solanaProxy,
      baseProxy,
      solanaPayer,
      basePayer,
      enterpriseKey,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * Writes `dir`/fee-payer.json, a solana-keygen key pair file (a JSON array of the 32-byte
 * secret key then the 32-byte public key), for a fresh key funded with SOL; returns its path.
 */
async function feePayerKeypairFile(solana: LocalSolana, dir: string): Promise<string> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  // The raw keys are the last 32 bytes of their PKCS#8 / SPKI DER encodings (RFC 8410).
  const bytes = [
    ...privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32),
    ...publicKey.export({ format: 'der', type: 'spki' }).subarray(-32),
  ];
  const signer = await createKeyPairSignerFromBytes(Uint8Array.from(bytes));
  await solana.fundSol(signer.address, FEE_PAYER_LAMPORTS);
  const path = join(dir, 'fee-payer.json');
  writeFileSync(path, JSON.stringify(bytes), { mode: 0o600 });
  return path;
}

function createEnterpriseKey(env: NodeJS.ProcessEnv): string {
  const result = spawnSync(
    process.execPath,
    [SERVICE_ENTRY, 'keys', 'create', '--name', 'payment-stack'],
    { env, encoding: 'utf8', timeout: 20_000 },
  );
  const key = /sk_live_[0-9A-Za-z]+/.exec(result.stdout)?.[0];
  if (result.status !== 0 || key === undefined) {
    throw new Error(`linkguard keys create failed:\n${result.stderr}`);
  }
  return key;
}

async function startService(env: NodeJS.ProcessEnv, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [SERVICE_ENTRY, 'serve'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const deadline = Date.now() + SERVICE_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited at start:\n${stderr}`);
    if (await isUp(port)) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  await stopProcess(child);
  throw new Error(`the service did not start within ${SERVICE_START_TIMEOUT_MS} ms:\n${stderr}`);
}

function isUp(port: number): Promise<boolean> {
  return new Promise((done) => {
    const req = request({ host: '127.0.0.1', port, path: '/v1/status', timeout: 500 }, (res) => {
      res.resume();
      done(res.statusCode === 200);
    });
    req.on('error', () => {
      done(false);
    });
    req.on('timeout', () => {
      req.destroy();
      done(false);
    });
    req.end();
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        done(port);
      });
    });
  });
}
