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
  'suspicious activity on your',
  'suspicious login',
  'unusual activity on your',
  'recover your account',
  'restore your account',
  'regain access to your account',
  'regain full access',
  'submit an appeal',
  'your account violates',
  'your account has violated',
  'violated our community guidelines',
  'violating our community guidelines',
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
  'hesabınızı doğrula',
  'hesabınız kurallarımızı ihlal',
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

/**
 * Webmail and mail-account lures: a full mailbox, held messages, an expiring password, an
 * account "upgrade" — the text of brand-less webmail kits that ask for the mailbox password.
 */
export const WEBMAIL_LURE = termPattern([
  // EN
  'mailbox is full',
  'mailbox is almost full',
  'mailbox full',
  'mailbox quota',
  'mailbox storage',
  'mailbox upgrade',
  'upgrade your mailbox',
  'email quota',
  'e-mail quota',
  'mail quota',
  'upgrade my email',
  'upgrade your email',
  'storage quota',
  'quota exceeded',
  'exceeded its storage',
  'exceeded the storage',
  'pending messages',
  'incoming messages',
  'undelivered messages',
  'messages on hold',
  'retrieve your messages',
  'release pending',
  'password expires',
  'password will expire',
  'password has expired',
  'keep same password',
  'keep your current password',
  'keep current password',
  'email account verification',
  'validate your email',
  'verify your email account',
  'verify your mailbox',
  'webmail verification',
  'mailbox verification',
  'deactivation request',
  // DE
  'postfach ist voll',
  'postfach-upgrade',
  'speicherplatz überschritten',
  'passwort läuft ab',
  'ausstehende nachrichten',
  // ES / PT
  'buzón lleno',
  'buzón está lleno',
  'cuota de correo',
  'mensajes pendientes',
  'caixa de correio cheia',
  'mensagens pendentes',
  'senha expira',
  // FR / IT
  'boîte aux lettres est pleine',
  'boîte mail pleine',
  'messages en attente',
  'mot de passe expire',
  'casella di posta piena',
  'messaggi in sospeso',
]);

/**
 * Shared-document lures: a file or document "shared with you" that opens only after signing in —
 * the text of brand-less document-share kits (OneDrive, SharePoint, PDF, e-signature look-alikes).
 */
export const DOCUMENT_LURE = termPattern([
  // EN
  'shared a file with you',
  'shared a document with you',
  'has shared a file',
  'has shared a document',
  'sent you a file',
  'sent you a document',
  'shared with you',
  'received a link to a file',
  'requires a password',
  'to view the document',
  'to view the file',
  'to view this document',
  'to view this file',
  'to open the content',
  'to access the document',
  'to access this document',
  'to download the document',
  'sign in to view',
  'login to view',
  'log in to view',
  'sign in to download',
  'login to download',
  'secure document',
  'protected document',
  'encrypted document',
  'confidential document',
  'view document',
  'review document',
  'pdf online',
  // DE
  'dokument anzeigen',
  'datei mit ihnen geteilt',
  'um das dokument',
  // ES / PT
  'ha compartido un archivo',
  'ver documento',
  'para ver el documento',
  'compartilhou um arquivo',
  'para visualizar o documento',
  // FR / IT
  'a partagé un fichier',
  'voir le document',
  'pour consulter le document',
  'ha condiviso un file',
  'visualizza documento',
]);

/** Identity-document requests: passport, ID card, driving licence, selfie with the document. */
export const IDENTITY_DOCUMENT = termPattern([
  'passport',
  'national id',
  'id card',
  'identity card',
  "driver's license",
  'drivers license',
  'driving licence',
  'selfie',
  'identity proof',
  'proof of identity',
  'upload your identity',
  'upload your id',
  'personalausweis',
  'reisepass',
  'führerschein',
  'pasaporte',
  'documento de identidad',
  "carte d'identité",
  'passeport',
  'passaporto',
  "carta d'identità",
  'passaporte',
  'documento de identificação',
]);
