/**
 * @module local-chains
 * Real local chains for the payment tests and the demo, all on 127.0.0.1 with random ports:
 * anvil as Base (chain id 8453, test USDC at the real Base USDC address), Surfpool as Solana (a
 * real SPL mint at the mainnet USDC address), and a TCP proxy for outage and latency tests.
 * Each start is bounded (15 s) and each `stop()`/`close()` releases processes and ports.
 */
export { type LocalBase, startLocalBase } from './local-base.js';
export { type LocalSolana, startLocalSolana } from './local-solana.js';
export { type ProxyMode, type RpcProxy, startRpcProxy } from './rpc-proxy.js';
