/**
 * @module bench/bench-urls
 * The fixed URL mix of `npm run bench`: about 200 URLs invented for the benchmark (not taken from
 * the data files or any feed), none of which needs the network because the service judges URLs
 * without fetching them. Each load-generator connection cycles through the list in order, so
 * every category is exercised all the time. Non-ASCII characters are written as `\u` escapes so
 * a reader can see which look-alike is used.
 *
 * The categories are listed separately so the report can show the mix; {@link BENCH_URLS} is
 * their concatenation.
 */

/** Official sites of frequently impersonated brands, with typical paths. */
const OFFICIAL_BRAND_SITES = [
  'https://www.paypal.com/signin',
  'https://www.paypal.com/us/home',
  'https://accounts.google.com/ServiceLogin?service=mail&continue=https://mail.google.com/',
  'https://mail.google.com/mail/u/0/#inbox',
  'https://www.apple.com/iphone/',
  'https://appleid.apple.com/account/manage',
  'https://www.icloud.com/find',
  'https://www.microsoft.com/en-us/microsoft-365',
  'https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=4765445b&scope=openid',
  'https://outlook.live.com/mail/0/',
  'https://www.amazon.com/gp/css/order-history',
  'https://www.amazon.co.uk/dp/B08N5WRWNW',
  'https://www.netflix.com/browse',
  'https://www.facebook.com/login/',
  'https://www.instagram.com/accounts/login/',
  'https://x.com/home',
  'https://www.linkedin.com/feed/',
  'https://www.chase.com/personal/checking',
  'https://secure.bankofamerica.com/login/sign-in/signOnV2Screen.go',
  'https://www.wellsfargo.com/',
  'https://www.coinbase.com/signin',
  'https://www.binance.com/en/my/dashboard',
  'https://metamask.io/download/',
  'https://www.dropbox.com/home',
  'https://www.docusign.com/products/electronic-signature',
  'https://www.dhl.com/us-en/home/tracking.html',
  'https://www.fedex.com/fedextrack/?trknbr=771234567890',
  'https://www.ups.com/track?loc=en_US&tracknum=1Z999AA10123456784',
  'https://www.usps.com/',
  'https://www.ebay.com/itm/1234567890',
  'https://www.adobe.com/acrobat/online/pdf-to-word.html',
  'https://store.steampowered.com/app/730/',
  'https://discord.com/channels/@me',
  'https://web.whatsapp.com/',
  'https://www.spotify.com/us/account/overview/',
  'https://www.office.com/',
  'https://www.irs.gov/refunds',
  'https://www.hsbc.co.uk/',
  'https://www.barclays.co.uk/',
  'https://www.americanexpress.com/en-us/account/login',
] as const;

/** Popular sites that are not in the brand catalog's usual phishing targets. */
const POPULAR_SITES = [
  'https://en.wikipedia.org/wiki/Phishing',
  'https://github.com/nodejs/node/issues',
  'https://stackoverflow.com/questions/tagged/typescript',
  'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  'https://www.reddit.com/r/programming/',
  'https://news.ycombinator.com/item?id=1',
  'https://www.nytimes.com/section/technology',
  'https://www.bbc.co.uk/news',
  'https://www.theguardian.com/international',
  'https://www.imdb.com/title/tt0111161/',
  'https://www.booking.com/hotel/fr/le-petit-example.html',
  'https://www.airbnb.com/rooms/12345678',
  'https://www.tripadvisor.com/',
  'https://www.etsy.com/listing/123456/handmade-ceramic-mug',
  'https://www.walmart.com/ip/123456789',
  'https://www.target.com/',
  'https://www.bestbuy.com/site/electronics/top-deals',
  'https://developer.mozilla.org/en-US/docs/Web/API/URL',
  'https://www.npmjs.com/package/fastify',
  'https://nodejs.org/en/download',
  'https://www.python.org/downloads/',
  'https://docs.python.org/3/library/urllib.parse.html',
  'https://www.cloudflare.com/learning/',
  'https://zoom.us/join',
  'https://www.twitch.tv/directory',
  'https://www.pinterest.com/ideas/',
  'https://www.quora.com/',
  'https://medium.com/@someone/how-we-cut-our-build-time-in-half-3f2a1b',
  'https://weather.com/weather/today',
  'https://www.espn.com/nfl/',
] as const;

/** Brand names combined with lure words, alarming TLDs and deceptive subdomains. */
const COMBOSQUATS = [
  'https://paypal-secure-login.com/signin',
  'https://secure-paypal-verify.top/account/update',
  'http://paypal.com.account-verify.info/webscr?cmd=_login',
  'https://www.paypal-resolution-center.net/case/88812',
  'https://apple-id-verify.support/unlock',
  'https://appleid.apple.com.security-check.icu/login',
  'https://icloud-find-my-device.online/map',
  'https://microsoft-365-login.xyz/owa/auth',
  'https://office365-mailbox-upgrade.click/verify?user=alice@example.org',
  'https://login-microsoftonline.cc/common/oauth2',
  'https://amazon-order-cancel.shop/refund',
  'https://amaz0n-prime-renewal.com/billing',
  'https://netflix-payment-update.site/account',
  'https://facebook-security-checkpoint.live/recover',
  'https://instagram-copyright-appeal.com/form',
  'https://chase-online-alerts.com/verify-identity',
  'https://bankofamerica-secure.ml/signin',
  'https://wellsfargo-account-locked.info/',
  'https://coinbase-wallet-restore.app/seed',
  'https://metamask-restore-wallet.com/',
  'https://metamask.io-wallet-sync.network/connect',
  'https://binance-airdrop-claim.xyz/bonus',
  'https://uniswap-claim-rewards.org/claim',
  'https://opensea-nft-mint.io/free',
  'https://dhl-parcel-redelivery.com/fee',
  'https://usps-package-hold.top/track?id=US9514901185421',
  'https://fedex-delivery-reschedule.net/',
  'https://ups-customs-payment.shop/pay',
  'https://royalmail-missed-delivery.co/redeliver',
  'https://irs-tax-refund-claim.com/form',
  'https://docusign-document-review.net/sign?env=5e1d7a',
  'https://dropbox-shared-file.click/view',
  'https://adobe-pdf-viewer-online.com/doc',
  'https://steamcommunity-gift.ru/tradeoffer/new',
  'https://discord-nitro-free.gift/claim',
  'https://whatsapp-web-verify.com/',
  'https://google-account-recovery.site/signin',
  'https://gmail-storage-full.info/upgrade',
  'https://linkedin-job-offer.work/apply',
  'https://ebay-buyer-protection.support/case',
  'https://hsbc-secure-messages.com/login',
  'https://barclays-fraud-alert.co/confirm',
  'https://santander-update-details.online/',
  'https://amex-card-verify.com/',
  'https://secure-login-verify-account.com/',
  'https://wallet-connect-validate.com/sync',
  'https://account-update-billing-info.com/',
  'https://free-iphone-winner.xyz/claim-now',
  'https://support-ticket-4471.help/paypal',
  'https://verify.apple-support-case.com/id',
] as const;

/** Typosquats: one edit, a digit for a letter, `rn` for `m`. */
const TYPOSQUATS = [
  'https://paypa1.com/',
  'https://netfiix.com/login',
  'https://gooogle.com/',
  'https://faceb00k.com/login',
  'https://micros0ft.com/',
  'https://rnicrosoft.com/',
  'https://app1e.com/',
  'https://paypai.com/',
  'https://linkedln.com/',
  'https://arnazon.com/',
  'https://coinbsae.com/',
  'https://netflx.com/',
] as const;

/** Internationalized hosts: homoglyph attacks (Unicode and punycode forms) and legitimate IDNs. */
const IDN_HOSTS = [
  'https://p\u0430ypal.com/signin', // Cyrillic а
  'https://\u0430pple.com/', // Cyrillic а
  'https://\u0430\u0440\u0440\u04cf\u0435.com/', // all Cyrillic "аррӏе"
  'https://micr\u043esoft.com/', // Cyrillic о
  'https://g\u043e\u043egle.com/', // two Cyrillic о
  'https://f\u0430cebook.com/login', // Cyrillic а
  'https://www.\u0430mazon.com/', // Cyrillic а
  'https://coinb\u0430se.com/', // Cyrillic а
  'https://metam\u0430sk.io/', // Cyrillic а
  'https://bin\u0430nce.com/', // Cyrillic а
  'https://n\u0435tflix.com/', // Cyrillic е
  'https://\u0501ropbox.com/', // Cyrillic ԁ
  'https://\u0261oogle.com/', // Latin script ɡ
  'https://\uff50\uff41\uff59\uff50\uff41\uff4c.com/', // full-width "ｐａｙｐａｌ"
  'https://xn--pypal-4ve.com/', // punycode of pаypal.com
  'https://xn--80ak6aa92e.com/', // punycode of аррӏе.com
  'https://xn--coinbse-6fg.com/', // punycode of coinbаse.com
  'https://m\u00fcnchen.de/', // legitimate: münchen.de
  'https://xn--mnchen-3ya.de/', // the same in punycode
  'https://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/', // legitimate: пример.рф
] as const;

/** Tenants of hosting and site-builder platforms (private public-suffix entries). */
const HOSTING_TENANTS = [
  'https://paypal-login-verify.web.app/',
  'https://secure-apple-id.firebaseapp.com/',
  'https://metamask-wallet-restore.netlify.app/',
  'https://coinbase-support.vercel.app/',
  'https://microsoft-office-login.pages.dev/',
  'https://amazon-refund-center.herokuapp.com/',
  'https://someone.github.io/blog/2024/notes.html',
  'https://nodejs.github.io/',
  'https://docs-example.readthedocs.io/en/latest/',
  'https://sites.google.com/view/paypal-account-review',
  'https://docs.google.com/forms/d/e/1FAIpQLSf0example/viewform',
  'https://storage.googleapis.com/bucket-xyz-4411/index.html',
  'https://firebasestorage.googleapis.com/v0/b/app-31f.appspot.com/o/login.html?alt=media',
  'https://login-office365.azurewebsites.net/',
  'https://wellsfargo-alert.blogspot.com/',
  'https://my-portfolio.wixsite.com/home',
  'https://chase-verify.weebly.com/',
  'https://account-security.000webhostapp.com/',
  'https://dhl-tracking.glitch.me/',
  'https://binance-promo.replit.app/',
  'https://myblog.wordpress.com/2024/01/01/hello-world/',
  'https://shop-example.myshopify.com/products/mug',
  'https://tenant-1234.s3.amazonaws.com/login.html',
  'https://paypal.notion.site/Refund-Form-0c1d2e',
  'https://cloudflare-ipfs-example.on.fleek.co/',
] as const;

/** Redirectors, shorteners and link-in-bio pages, some carrying a target in a parameter. */
const REDIRECTORS = [
  'https://www.google.com/url?q=https://paypal-secure-login.com/&sa=D',
  'https://l.facebook.com/l.php?u=https%3A%2F%2Fmetamask-restore-wallet.com%2F&h=AT0',
  'https://www.youtube.com/redirect?q=https://amazon-order-cancel.shop/&event=video',
  'https://bit.ly/3xYzAbC',
  'https://t.co/AbCdEf1234',
  'https://tinyurl.com/y7abc123',
  'https://is.gd/abc123',
  'https://linktr.ee/someartist',
  'https://goo.gl/maps/abcdefghij',
  'https://www.google.com/url?q=https://en.wikipedia.org/wiki/URL',
] as const;

/** IP-literal hosts (public addresses only: private ones are refused with 400). */
const IP_HOSTS = [
  'http://45.133.1.20/paypal/login.php',
  'http://185.220.101.4:8080/secure/verify',
  'https://[2606:4700:4700::1111]/',
  'http://8.8.8.8/',
  'https://1.1.1.1/help',
  'http://93.184.215.14/wp-admin/office365/index.html',
] as const;

/** Long URLs: deep paths, long queries, long subdomain chains. */
const LONG_URLS = [
  'https://www.amazon.com/Braided-Charging-Cable-Compatible-Devices/dp/B0C1234567/ref=sr_1_3?crid=2ABCDEF&keywords=usb+c+cable&qid=1700000000&sprefix=usb%2Caps%2C180&sr=8-3',
  'https://paypal-secure-login.com/cgi-bin/webscr/cmd=_login-submit/dispatch/5885d80a13c0db1f8e263663d3faee8d5885d80a13c0db1f8e263663d3faee8d/',
  'https://secure.example-bank-login.com/auth/realms/customers/protocol/openid-connect/auth?client_id=web&redirect_uri=https%3A%2F%2Fsecure.example-bank-login.com%2Fcallback&response_type=code&scope=openid%20profile&state=af0ifjsldkj&nonce=n-0S6_WzA2Mj',
  'https://paypal.com.secure.login.verify.account.update.billing.info.example-host.xyz/',
  'https://login.microsoftonline.com.auth.session.0a1b2c3d4e5f.phish-host.top/common/oauth2/authorize?client_id=00000002-0000-0ff1-ce00-000000000000&response_mode=form_post',
  'https://www.wellsfargo.com/help/online-banking/security/fraud-information/report-suspicious-email-or-text-message/',
  'https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/creating-a-personal-access-token',
  'https://apple-id-verify.support/' + 'session/'.repeat(40) + 'index.html',
  'https://en.wikipedia.org/wiki/List_of_' + 'very_'.repeat(60) + 'long_titles',
  'https://metamask-restore-wallet.com/restore?seed=' + 'word%20'.repeat(24) + '&confirm=1',
  'https://www.google.com/search?q=' + 'how+to+recover+my+account+'.repeat(12),
  'https://track-dhl-parcel-online.shipment-status-update.delivery-notice.example-post.club/',
  'https://a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6.secure-wallet-connect-sync-validate.com/connect?id=' +
    '0123456789abcdef'.repeat(8),
  'https://www.reddit.com/r/typescript/comments/abc123/what_is_the_best_way_to_structure_a_large_typescript_monorepo_with_many_packages/',
  'https://shop.example-store.co.uk/collections/winter-sale/products/merino-wool-jumper-navy?variant=39876543210987&utm_source=newsletter&utm_medium=email&utm_campaign=winter',
] as const;

/** Plain hosts and odd-but-valid inputs (bare host, uppercase, trailing dot, port, userinfo). */
const ODD_INPUTS = [
  'paypal.com',
  'metamask-restore-wallet.com',
  'HTTPS://WWW.PAYPAL.COM/SIGNIN',
  'https://www.paypal.com./',
  'https://www.apple.com:443/',
  'https://paypal.com@evil-login-host.top/',
  'https://user:pass@secure-chase-verify.com/',
  'http://www.example.com:8080/path',
] as const;

/** The URL mix by category (for the report). */
export const BENCH_URL_CATEGORIES: Readonly<Record<string, readonly string[]>> = {
  'official brand sites': OFFICIAL_BRAND_SITES,
  'popular sites': POPULAR_SITES,
  combosquats: COMBOSQUATS,
  typosquats: TYPOSQUATS,
  'IDN hosts (homoglyph and legitimate)': IDN_HOSTS,
  'hosting tenants': HOSTING_TENANTS,
  'redirectors and shorteners': REDIRECTORS,
  'IP-literal hosts': IP_HOSTS,
  'long URLs': LONG_URLS,
  'bare hosts and odd forms': ODD_INPUTS,
};

/** Every benchmark URL, in a fixed order. */
export const BENCH_URLS: readonly string[] = Object.values(BENCH_URL_CATEGORIES).flat();
