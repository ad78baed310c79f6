/**
 * @module engine/page/analyzers/crypto-brand
 * The crypto brand a page impersonates, shared by the seed-phrase, wallet-drainer and crypto-scam
 * analyzers: a wallet, exchange, DeFi, NFT or chain brand named in the page's identity places
 * (title, site name, headings, logo alt text, copyright line; see `page-brands.ts`) that does not
 * own the site (detection.md §2.2 "Brand", §2.7 "brand mismatch extraction without ML", §3.2
 * reference-based detection). Non-crypto brands are left to the other analyzers: a seed form under
 * a bank's name is still a seed form, but the mismatch rule for banks is the credential analyzer's.
 */
import type { Brand } from '../../brand/brand-index.js';
import { CRYPTO_BRAND_CATEGORIES } from '../../engine-data.js';
import { identityBrands, ownsDomain } from '../page-brands.js';
import type { PageContext, PageView } from '../page-context.js';

/** True for wallet, exchange, DeFi, NFT and chain brands. */
export function isCryptoBrand(brand: Brand): boolean {
  return CRYPTO_BRAND_CATEGORIES.has(brand.category);
}

/**
 * The crypto brand the page claims to be although the site is not the brand's.
 *
 * @returns the named brand with the most identity places, or null when the page names none, or
 *   only brands that own the final URL's registrable domain (or are its owner).
 */
export function impersonatedCryptoBrand(page: PageView, context: PageContext): Brand | null {
  const site = context.analysis.url.registrableDomain;
  for (const { brand } of identityBrands(page.doc, context.brands)) {
    if (!isCryptoBrand(brand) || brand === context.owner || ownsDomain(brand, site)) continue;
    return brand;
  }
  return null;
}
