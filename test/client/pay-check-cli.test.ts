/**
 * `linkguard pay-check` (the real CLI as a child process) paying for real on Surfpool and anvil
 * against the service emulator (test/helpers/service-emulator.ts): a Solana payment from a
 * solana-keygen file with JSON output, a Base payment with the key from the environment and a
 * summary, a refused paid request, and a price above --max-price. Usage errors and --help, which
 * need no chain, are in pay-check-usage.test.ts.
 */
import { createWalletClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';

import { basePublicClient, localBaseChain } from '../helpers/base-public-client.js';
import { freshEvmAddress, freshSolanaAddress } from '../helpers/fresh-addresses.js';
import { keypairFile } from '../helpers/keypair-file.js';
import { useLocalBase, useLocalSolana } from '../helpers/local-chain-hooks.js';
import { payCheckArgs, runPayCheck } from '../helpers/pay-check-cli.js';
import { ONE_USDC, PRICE } from '../helpers/payment-values.js';
import { jsonOut } from '../helpers/run-cli.js';
import { EMULATED_VERDICT, withServiceEmulator } from '../helpers/service-emulator.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

const solana = useLocalSolana();
const evm = useLocalBase();
/** The emulator checks proofs on these. */
const chains = { solana, base: evm };

describe('linkguard pay-check', () => {
  const dir = useTempDir('linkguard-pay-check-');

  /** A keypair file for a wallet with 1 USDC, and a Solana offer to a fresh recipient. */
  async function solanaPayer(maxAmountRequired?: string) {
    const { path, address } = await keypairFile(solana, dir(), ONE_USDC);
    const recipient = await freshSolanaAddress();
    const offer = {
      chain: 'solana' as const,
      payTo: recipient,
      asset: solana.usdcMint,
      maxAmountRequired,
    };
    return { keypair: path, address, recipient, offer };
  }

  it('pays on Solana and prints the verdict, the transaction and the timings (--json)', async () => {
    const { keypair, address, recipient, offer } = await solanaPayer();
    await withServiceEmulator({ chains, offers: [offer] }, async (emulator) => {
      const result = await runPayCheck(
        payCheckArgs(
          {
            url: 'https://metamask-wallet-verify.example/',
            chain: 'solana',
            service: `${emulator.url}/`,
            rpcUrl: solana.rpcUrl,
            keypair,
          },
          '--legacy-headers',
          '--json',
        ),
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const out = jsonOut(result) as Record<string, unknown>;
      expect(out).toMatchObject({
        ...EMULATED_VERDICT,
        payment: { network: 'solana', payer: address },
        timings: {
          challenge_ms: expect.any(Number) as number,
          payment_ms: expect.any(Number) as number,
          response_ms: expect.any(Number) as number,
          total_ms: expect.any(Number) as number,
        },
      });
      expect(emulator.requests.map((r) => r.path)).toEqual(['/v1/detect', '/v1/detect']);
      expect(emulator.requests[1]?.proof).toMatchObject({ kind: 'proof', form: 'legacy' });
      expect(await solana.tokenBalance(recipient, solana.usdcMint)).toBe(PRICE);
    });
  });

  it('pays on Base with the key from LINKGUARD_BASE_PRIVATE_KEY and prints a summary', async () => {
    const key = generatePrivateKey();
    const account = privateKeyToAccount(key);
    const funder = await evm.newFundedAccount(0n);
    const chain = localBaseChain(evm.rpcUrl);
    const wallet = createWalletClient({ chain, transport: http(evm.rpcUrl), account: funder });
    const hash = await wallet.sendTransaction({ to: account.address, value: 10n ** 17n });
    await basePublicClient(evm.rpcUrl).waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await evm.mint(evm.usdc, account.address, ONE_USDC);
    const recipient = freshEvmAddress();
    const offers = [{ chain: 'base' as const, payTo: recipient, asset: evm.usdc }];
    await withServiceEmulator({ chains, offers }, async (emulator) => {
      const result = await runPayCheck(
        payCheckArgs({
          url: 'https://metamask-wallet-verify.example/',
          chain: 'base',
          service: emulator.url,
          rpcUrl: evm.rpcUrl,
        }),
        { LINKGUARD_BASE_PRIVATE_KEY: key },
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('danger');
      expect(result.stdout).toContain('MetaMask');
      expect(result.stdout).toContain(account.address);
      expect(result.stdout).toMatch(/challenge \d+ ms · payment \d+ ms · verified response \d+ ms/);
      expect(result.stdout).not.toContain(key.slice(2));
      expect(await evm.balanceOf(evm.usdc, recipient)).toBe(PRICE);
    });
  });

  it('prints the error body and exits 1 when the paid request is refused', async () => {
    const { keypair, offer } = await solanaPayer();
    await withServiceEmulator({ chains, offers: [offer], steps: ['invalid'] }, async (emulator) => {
      const result = await runPayCheck(
        payCheckArgs({ chain: 'solana', service: emulator.url, rpcUrl: solana.rpcUrl, keypair }),
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('HTTP 402 payment_invalid (memo_mismatch)');
      expect(result.stderr).toContain('A payment was made: transaction');
    });
  });

  it('exits 1 without paying when the price is above --max-price', async () => {
    const { keypair, address, offer } = await solanaPayer('10001');
    await withServiceEmulator({ chains, offers: [offer] }, async (emulator) => {
      const result = await runPayCheck(
        payCheckArgs({ chain: 'solana', service: emulator.url, rpcUrl: solana.rpcUrl, keypair }),
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('spending cap');
      expect(await solana.tokenBalance(address, solana.usdcMint)).toBe(ONE_USDC);
    });
  });
});
