/**
 * @module engine/page/analyzers/credential-patterns
 * Credential-harvest indicators (detection.md §2.7 and the ready-to-use list §6.6; the drops —
 * form backends, Telegram, Discord, EmailJS — are shared in `exfiltration-channels.ts`): clone
 * markers of page savers (IOK `mark-of-the-web`, `singlefile`, `httrack`), and the
 * account-suspension lures that make a credential page an account-takeover page (§2.7, §2.8).
 */
import { termPattern } from './term-pattern.js';

/** Comments left by page savers and site copiers. */
export const CLONE_COMMENTS: readonly { name: string; pattern: RegExp }[] = [
  { name: 'saved from url', pattern: /^saved from url=\(\d+\)/i },
  { name: 'SingleFile', pattern: /page saved with singlefile/i },
  { name: 'HTTrack', pattern: /mirrored from .{1,300} by httrack|added by httrack/i },
  { name: 'WebScrapBook', pattern: /webscrapbook|scrapbook/i },
];

/** `<meta>` names written by page savers (save-page-we, SingleFile). */
export const CLONE_META = /^(?:savepage-|singlefile)/i;

/**
 * Account-takeover lures: the account is suspended, locked, limited or about to be deleted, and
 * an appeal or identity check restores it. Lower-case, per language.
 */
export const ACCOUNT_LURE = termPattern([
  // EN
  'account has been suspended',
  'account has been locked',
  'account has been limited',
  'account has been restricted',
  'account has been disabled',
  'account will be suspended',
  'account will be closed',
  'account will be permanently disabled',
  'account will be disabled',
  'account will be deleted',
  'account is locked',
  'account is suspended',
  'scheduled for permanent deletion',
  'verify your account',
  'confirm your identity',
  'unusual sign-in activity',
  'unusual login activity',
  'submit an appeal',
  // ES
  'cuenta ha sido suspendida',
  'cuenta suspendida',
  'cuenta bloqueada',
  'cuenta se cerrará',
  'verifica tu cuenta',
  'verifique su cuenta',
  'confirma tu identidad',
  // PT
  'conta foi bloqueada',
  'conta bloqueada',
  'conta suspensa',
  'bloqueio da sua conta',
  'confirme sua identidade',
  // FR
  'compte a été suspendu',
  'compte a été limité',
  'compte a été temporairement limité',
  'compte a été bloqué',
  'compte suspendu',
  'compte bloqué',
  'confirmer votre identité',
  // DE
  'konto wurde gesperrt',
  'konto ist gesperrt',
  'konto gesperrt',
  'zugang gesperrt',
  'aus sicherheitsgründen gesperrt',
  'bestätigen sie ihre identität',
  // IT
  'account è stato sospeso',
  'account sospeso',
  'account bloccato',
  'conto bloccato',
  // NL
  'account is geblokkeerd',
  'rekening is geblokkeerd',
  // PL
  'konto zostało zablokowane',
  // TR
  'hesabınız askıya alındı',
  'hesabınız kilitlendi',
  // JA
  'アカウントがロック',
  'アカウントを停止',
  '利用を停止',
  '本人確認',
  // ZH
  '账户已被冻结',
  '账户被锁定',
  '帐户已被冻结',
]);
