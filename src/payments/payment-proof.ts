/**
 * @module payments/payment-proof
 * The x402 payment proof as a value, and its two wire forms (README, "Paying per request
 * (x402)"): the preferred
 * `X-PAYMENT` header (standard base64 of `{x402Version: 1, scheme: "exact", network, payload}`)
 * and the legacy `X-402-Chain` / `X-402-Signature` / `X-402-Nonce` / `X-402-Wallet-Sig` headers.
 * The server reads proofs with {@link readPaymentProof}; the client writes them with
 * {@link paymentHeaders}, so both sides share one codec.
 *
 * Everything is checked for form here, before any RPC call: a malformed
 * proof is a clear 402 `malformed_proof`, never a 503 and never a chain request.
 */
import { getBase58Encoder } from '@solana/kit';
import Type from 'typebox';
import { Compile } from 'typebox/compile';

/** Settlement chains (`X-402-Chain`, x402 v1 network names). */
export type Chain = 'solana' | 'base';

/** A Solana proof: the transaction signature (base58, 64 bytes) and the nonce of its memo. */
export interface SolanaProof {
  chain: 'solana';
  txSignature: string;
  nonce: string;
}

/** A Base proof: the transaction hash and the EIP-191 signature of `<prefix>:<nonce>`. */
export interface BaseProof {
  chain: 'base';
  txHash: `0x${string}`;
  walletSig: `0x${string}`;
  nonce: string;
}

export type PaymentProof = SolanaProof | BaseProof;

/** Which header form carried a proof. */
export type ProofForm = 'x-payment' | 'legacy';

/**
 * The legacy proof headers (README, "Paying per request (x402)"), lower-cased as Node presents
 * them.
 */
export const PROOF_HEADER_NAMES = [
  'x-payment',
  'x-402-chain',
  'x-402-signature',
  'x-402-nonce',
  'x-402-wallet-sig',
] as const;

export type ReadProofResult =
  | { kind: 'none' }
  | { kind: 'proof'; proof: PaymentProof; form: ProofForm }
  | { kind: 'malformed'; message: string };

/**
 * Nonces are issued by `crypto.randomUUID()`: lower-case UUIDv4 (README, "Paying per request
 * (x402)").
 */
const NONCE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** A 32-byte EVM transaction hash. */
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
/** A 65-byte secp256k1 signature (r, s, v) as personal_sign returns it. */
const WALLET_SIG = /^0x[0-9a-fA-F]{130}$/;
/**
 * A Solana signature: 64 bytes in base58 (Bitcoin alphabet: no 0, O, I or l), so 64–88
 * characters. Checked here by pattern before decoding, because `@solana/kit`'s `isSignature()`
 * throws (instead of answering false) on a string of that length with a character outside the
 * alphabet.
 */
const BASE58_SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;
const SIGNATURE_BYTES = 64;
const base58 = getBase58Encoder();
/** Standard base64 with padding, as x402 v1 clients produce with `btoa`. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** A real proof header is ~300 characters; anything much longer is not one. */
const MAX_HEADER_LENGTH = 4096;

const EnvelopeSchema = Type.Object({
  x402Version: Type.Literal(1),
  scheme: Type.Literal('exact'),
  network: Type.Union([Type.Literal('solana'), Type.Literal('base')]),
  payload: Type.Object({
    nonce: Type.String(),
    txSignature: Type.Optional(Type.String()),
    txHash: Type.Optional(Type.String()),
    walletSig: Type.Optional(Type.String()),
  }),
});
const PaymentEnvelope = Compile(EnvelopeSchema);

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/**
 * True when `value` is a Solana transaction signature: base58 of exactly 64 bytes. Never throws
 * (the pattern admits only base58 characters, and the decode is guarded all the same).
 */
export function isSolanaSignature(value: string): boolean {
  if (!BASE58_SIGNATURE.test(value)) return false;
  try {
    return base58.encode(value).length === SIGNATURE_BYTES;
  } catch {
    return false;
  }
}

/**
 * Read the payment proof of a request, if any.
 *
 * @param headers request headers with lower-case names (Node's `IncomingHttpHeaders`).
 * @returns `none` when no proof header is present; `proof` with the validated proof and the form
 *   it came in; `malformed` with a message naming what is wrong (bad base64 or JSON, wrong
 *   version, scheme or network, a field of the wrong form, both forms at once, a Base proof
 *   without a wallet signature). Never throws.
 */
export function readPaymentProof(headers: Headers): ReadProofResult {
  try {
    return readProofHeaders(headers);
  } catch {
    // Only form checks run here (no I/O): whatever a library check throws on some input is a
    // proof of the wrong form, a 402 `malformed_proof`, never a 500 (README "Paying per request").
    return malformed('The payment proof is not well-formed');
  }
}

function readProofHeaders(headers: Headers): ReadProofResult {
  const present = PROOF_HEADER_NAMES.filter((name) => headers[name] !== undefined);
  if (present.length === 0) return { kind: 'none' };
  const values: Partial<Record<(typeof PROOF_HEADER_NAMES)[number], string>> = {};
  for (const name of present) {
    const value = headers[name];
    if (typeof value !== 'string') return malformed(`${name} was sent more than once`);
    if (value.length > MAX_HEADER_LENGTH) return malformed(`${name} is too long`);
    values[name] = value.trim();
  }
  if (values['x-payment'] !== undefined) {
    if (present.length > 1) {
      return malformed('Send the proof either as X-PAYMENT or as X-402-* headers, not both');
    }
    return readXPayment(values['x-payment']);
  }
  return readLegacy(values);
}

function readXPayment(header: string): ReadProofResult {
  if (!BASE64.test(header)) return malformed('X-PAYMENT is not standard base64');
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
  } catch {
    return malformed('X-PAYMENT does not decode to JSON');
  }
  if (!PaymentEnvelope.Check(json)) {
    return malformed(
      'X-PAYMENT must be {x402Version: 1, scheme: "exact", network: "solana"|"base", payload}',
    );
  }
  const envelope = json;
  const { payload } = envelope;
  return envelope.network === 'solana'
    ? solanaProof(payload.txSignature, payload.nonce, 'x-payment', 'payload.txSignature')
    : baseProof(payload.txHash, payload.walletSig, payload.nonce, 'x-payment', {
        txHash: 'payload.txHash',
        walletSig: 'payload.walletSig',
      });
}

function readLegacy(values: Partial<Record<string, string>>): ReadProofResult {
  const chain = values['x-402-chain'] ?? 'solana';
  const signature = values['x-402-signature'];
  const nonce = values['x-402-nonce'];
  if (signature === undefined || nonce === undefined) {
    return malformed('The legacy form needs both X-402-Signature and X-402-Nonce');
  }
  if (chain === 'solana') {
    if (values['x-402-wallet-sig'] !== undefined) {
      return malformed('X-402-Wallet-Sig is for Base payments only (X-402-Chain: base)');
    }
    return solanaProof(signature, nonce, 'legacy', 'X-402-Signature');
  }
  if (chain === 'base') {
    return baseProof(signature, values['x-402-wallet-sig'], nonce, 'legacy', {
      txHash: 'X-402-Signature',
      walletSig: 'X-402-Wallet-Sig',
    });
  }
  return malformed('X-402-Chain must be "solana" or "base"');
}

function solanaProof(
  txSignature: string | undefined,
  nonce: string,
  form: ProofForm,
  field: string,
): ReadProofResult {
  if (!NONCE.test(nonce)) return malformed('The nonce is not a nonce issued by this service');
  if (txSignature === undefined || !isSolanaSignature(txSignature)) {
    return malformed(`${field} must be a Solana transaction signature (base58, 64 bytes)`);
  }
  return { kind: 'proof', form, proof: { chain: 'solana', txSignature, nonce } };
}

function baseProof(
  txHash: string | undefined,
  walletSig: string | undefined,
  nonce: string,
  form: ProofForm,
  fields: { txHash: string; walletSig: string },
): ReadProofResult {
  if (!NONCE.test(nonce)) return malformed('The nonce is not a nonce issued by this service');
  if (txHash === undefined || !TX_HASH.test(txHash)) {
    return malformed(`${fields.txHash} must be a Base transaction hash (0x + 64 hex digits)`);
  }
  if (walletSig === undefined || !WALLET_SIG.test(walletSig)) {
    return malformed(
      `${fields.walletSig} must be the EIP-191 signature of the nonce message (0x + 130 hex digits)`,
    );
  }
  return {
    kind: 'proof',
    form,
    proof: {
      chain: 'base',
      txHash: txHash.toLowerCase() as `0x${string}`,
      walletSig: walletSig as `0x${string}`,
      nonce,
    },
  };
}

function malformed(message: string): ReadProofResult {
  return { kind: 'malformed', message };
}

/**
 * The request headers that carry `proof`, in either form (the client side of this codec).
 *
 * @param proof what was paid.
 * @param form `x-payment` (preferred) or `legacy` (`X-402-*`).
 * @returns header name → value, ready for `fetch`.
 */
export function paymentHeaders(
  proof: PaymentProof,
  form: ProofForm = 'x-payment',
): Record<string, string> {
  if (form === 'x-payment') {
    const payload =
      proof.chain === 'solana'
        ? { txSignature: proof.txSignature, nonce: proof.nonce }
        : { txHash: proof.txHash, walletSig: proof.walletSig, nonce: proof.nonce };
    const envelope = { x402Version: 1, scheme: 'exact', network: proof.chain, payload };
    return { 'X-PAYMENT': Buffer.from(JSON.stringify(envelope), 'utf8').toString('base64') };
  }
  if (proof.chain === 'solana') {
    return {
      'X-402-Chain': 'solana',
      'X-402-Signature': proof.txSignature,
      'X-402-Nonce': proof.nonce,
    };
  }
  return {
    'X-402-Chain': 'base',
    'X-402-Signature': proof.txHash,
    'X-402-Nonce': proof.nonce,
    'X-402-Wallet-Sig': proof.walletSig,
  };
}

/** The `X-PAYMENT-RESPONSE` body of a settled request (x402 v1 SettleResponse). */
export interface SettlementResponse {
  success: true;
  transaction: string;
  network: Chain;
  payer: string;
}

/** Encode a {@link SettlementResponse} as the `X-PAYMENT-RESPONSE` header value (base64 JSON). */
export function encodeSettlementResponse(response: SettlementResponse): string {
  return Buffer.from(JSON.stringify(response), 'utf8').toString('base64');
}

/**
 * Decode an `X-PAYMENT-RESPONSE` header; null when it is not base64 JSON of that shape.
 */
export function decodeSettlementResponse(header: string): SettlementResponse | null {
  try {
    const value = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const v = value as Record<string, unknown>;
    if (
      v.success === true &&
      typeof v.transaction === 'string' &&
      (v.network === 'solana' || v.network === 'base') &&
      typeof v.payer === 'string'
    ) {
      return { success: true, transaction: v.transaction, network: v.network, payer: v.payer };
    }
    return null;
  } catch {
    return null;
  }
}
