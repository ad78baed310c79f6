/**
 * `sendBaseUsdcPayment` and `signNonceMessage` (src/client/base-payment.ts) against a real anvil
 * answering as Base: the transfer moves exactly the amount, waits for the asked confirmations,
 * can land a reverted transfer for the server's tests, refuses an overspend and a node that is not
 * chain 8453 before sending anything; the nonce signature recovers to the paying account.
 */
import { randomUUID } from 'node:crypto';

import { isAddressEqual, recoverMessageAddress } from 'viem';
import { generatePrivateKey, type LocalAccount, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';

import {
  type BasePaymentOptions,
  sendBaseUsdcPayment,
  signNonceMessage,
} from '../../src/client/index.js';
import { basePublicClient } from '../helpers/base-public-client.js';
import { startCountingRpc } from '../helpers/counting-rpc.js';
import { expectClientError } from '../helpers/expect-client-error.js';
import { freshEvmAddress } from '../helpers/fresh-addresses.js';
import { useLocalBase } from '../helpers/local-chain-hooks.js';
import { boundText, ONE_USDC, PRICE } from '../helpers/payment-values.js';

const evm = useLocalBase();

/** Send PRICE test USDC from `account` to a fresh address on anvil (polling every 50 ms). */
function pay(account: LocalAccount, options: Partial<BasePaymentOptions> = {}) {
  return sendBaseUsdcPayment({
    rpcUrl: evm.rpcUrl,
    account,
    token: evm.usdc,
    recipient: freshEvmAddress(),
    amountAtomic: PRICE,
    pollingIntervalMs: 50,
    ...options,
  });
}

describe('sendBaseUsdcPayment and signNonceMessage', () => {
  it('moves exactly the amount to the recipient', async () => {
    const account = await evm.newFundedAccount(ONE_USDC);
    const recipient = freshEvmAddress();
    const result = await pay(account, { recipient });
    expect(result.failed).toBe(false);
    expect(result.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await evm.balanceOf(evm.usdc, recipient)).toBe(PRICE);
    expect(await evm.balanceOf(evm.usdc, account.address)).toBe(ONE_USDC - PRICE);
    const receipt = await basePublicClient(evm.rpcUrl).getTransactionReceipt({
      hash: result.txHash,
    });
    expect(receipt.status).toBe('success');
    expect(isAddressEqual(receipt.from, account.address)).toBe(true);
  });

  it('waits for the asked confirmations', async () => {
    const account = await evm.newFundedAccount(ONE_USDC);
    const payment = pay(account, { confirmations: 3 });
    let settled = false;
    void payment.then(() => (settled = true));
    // Automine made one block; the payment cannot be done before two more exist.
    await expect.poll(() => evm.balanceOf(evm.usdc, account.address)).toBe(ONE_USDC - PRICE);
    expect(settled).toBe(false);
    await evm.mine(2);
    const { txHash, failed } = await payment;
    expect(failed).toBe(false);
    const client = basePublicClient(evm.rpcUrl);
    const receipt = await client.getTransactionReceipt({ hash: txHash });
    expect((await client.getBlockNumber({ cacheTime: 0 })) - receipt.blockNumber + 1n).toBe(3n);
  });

  it('names the sent transaction when the confirmations do not come in time', async () => {
    const account = await evm.newFundedAccount(ONE_USDC);
    const error = await expectClientError(
      pay(account, { confirmations: 5, timeoutMs: 300 }),
      'not_confirmed',
    );
    expect(error.transaction).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('lands a reverted transfer when the gas is explicit, and reports it as failed', async () => {
    const account = await evm.newFundedAccount(5_000n);
    const recipient = freshEvmAddress();
    const result = await pay(account, { recipient, gas: 100_000n });
    expect(result.failed).toBe(true);
    const receipt = await basePublicClient(evm.rpcUrl).getTransactionReceipt({
      hash: result.txHash,
    });
    expect(receipt.status).toBe('reverted');
    expect(await evm.balanceOf(evm.usdc, recipient)).toBe(0n);
    expect(await evm.balanceOf(evm.usdc, account.address)).toBe(5_000n);
  });

  it('refuses the same overspend before sending when the gas is estimated', async () => {
    const account = await evm.newFundedAccount(5_000n);
    const client = basePublicClient(evm.rpcUrl);
    const nonceBefore = await client.getTransactionCount({ address: account.address });
    await expect(pay(account)).rejects.toThrow();
    expect(await client.getTransactionCount({ address: account.address })).toBe(nonceBefore);
  });

  it('signs the nonce message so that it recovers to the paying account (EIP-191)', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const message = boundText(randomUUID());
    const signature = await signNonceMessage(account, message);
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(await recoverMessageAddress({ message, signature })).toBe(account.address);
    expect(await recoverMessageAddress({ message: `${message}x`, signature })).not.toBe(
      account.address,
    );
  });

  it('refuses to pay when the RPC is not chain 8453, before signing or sending anything', async () => {
    const rpc = await startCountingRpc('ethereum');
    try {
      const error = await expectClientError(
        pay(privateKeyToAccount(generatePrivateKey()), { rpcUrl: rpc.url }),
        'wrong_chain',
      );
      expect(error.message).toContain('chain id 1');
      expect(rpc.methods()).toEqual(['eth_chainId']);
    } finally {
      await rpc.close();
    }
  });
});
