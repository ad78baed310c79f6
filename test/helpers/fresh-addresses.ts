/**
 * Fresh random addresses that own nothing, to receive a test payment whose balance starts at 0:
 * a Solana wallet address and an EVM (Base) address.
 */
import { type Address, generateKeyPairSigner } from '@solana/kit';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

/** A fresh random Solana wallet address that owns nothing. */
export async function freshSolanaAddress(): Promise<Address> {
  return (await generateKeyPairSigner()).address;
}

/** A fresh random EVM address that owns nothing. */
export function freshEvmAddress(): Hex {
  return privateKeyToAccount(generatePrivateKey()).address;
}
