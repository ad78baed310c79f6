/**
 * @module engine/page/analyzers/command-patterns
 * Shapes of the commands ClickFix / fake-CAPTCHA and pastejacking pages put on the clipboard
 * (detection.md §2.3 "payload content in JS strings" and §6.3 "command payloads", synthesised from
 * ClickGrab's pattern library, Sekoia's IClickFix YARA rule and the Still34 fake-CAPTCHA YARA
 * rule; the macOS shapes follow the same section). Every pattern needs a launcher *and* a download,
 * decode or execution part, so a bare `powershell` or `curl` does not match; none depends on a host
 * name, so neutralised payloads (`.invalid` hosts, documentation IPs) match like real ones.
 *
 * Spans between the parts are bounded (`[^\n]{0,200}?`) so each pattern is linear on one-line
 * minified code. Patterns are matched case-insensitively and contain no capturing groups: they are
 * joined into one alternation ({@link COMMAND_PATTERN}), one pass over the code.
 */

const SHAPES: readonly string[] = [
  // PowerShell with hiding / policy-bypass / encoded-command flags (§6.3 first pattern).
  String.raw`\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,80}?\s[-/](?:w(?:indowstyle)?\s+h(?:idden)?\b|nop(?:rofile)?\b|ep\s+bypass\b|exec(?:utionpolicy)?\s+bypass\b|e(?:nc(?:odedcommand)?)?\s+[a-z0-9+/=]{20,})`,
  // PowerShell started to download or run something (`powershell -c "Invoke-WebRequest …"`).
  String.raw`\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,200}?\b(?:invoke-webrequest|invoke-restmethod|iwr|irm|downloadstring|downloadfile|downloaddata|start-bitstransfer|net\.webclient|invoke-expression|iex)\b`,
  // Download or decode piped into Invoke-Expression.
  String.raw`\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|frombase64string|downloadstring|curl(?:\.exe)?|wget)\b[^\n]{0,300}?\|\s*(?:iex|invoke-expression)\b`,
  // Invoke-Expression applied to a download.
  String.raw`\b(?:iex|invoke-expression)\b\s*[(\s]\s*\(?\s*(?:iwr|irm|invoke-webrequest|invoke-restmethod|new-object\s+(?:system\.)?net\.webclient)\b`,
  // (New-Object Net.WebClient).DownloadString/File(…).
  String.raw`new-object\s+(?:system\.)?net\.webclient\s*\)?\s*\.\s*download(?:string|file|data)\s*\(`,
  // mshta with a URL, UNC path, hex or decimal IP, or script protocol.
  String.raw`\bmshta(?:\.exe)?\s+["']?(?:https?:|\\\\|0x[0-9a-f]|\d{8,}|vbscript:|javascript:)`,
  // msiexec installing from a URL or UNC path (`msiexec /i https://… /qn`).
  String.raw`\bmsiexec(?:\.exe)?\s+(?:/\w+\s+){0,3}["']?(?:https?:|\\\\)`,
  // cmd /c start /min (a hidden second stage).
  String.raw`\bcmd(?:\.exe)?\s+/[ck]\s+start\s+(?:""\s+)?/min\b`,
  // rundll32 loading from a URL, UNC path or script protocol.
  String.raw`\brundll32(?:\.exe)?\s+[^\n]{0,120}?(?:https?:|\\\\|javascript:|shellexec_rundll)`,
  // regsvr32 /i:URL scrobj (Squiblydoo).
  String.raw`\bregsvr32(?:\.exe)?\s+[^\n]{0,60}?(?:/i:\s*["']?https?:|scrobj)`,
  // certutil used as a downloader or decoder.
  String.raw`\bcertutil(?:\.exe)?\s+[^\n]{0,40}?-(?:urlcache|decode|verifyctl)\b`,
  // bitsadmin transfers.
  String.raw`\bbitsadmin(?:\.exe)?\s+/(?:transfer|addfile|create)\b`,
  // wscript / cscript forced to a script engine.
  String.raw`\b[wc]script(?:\.exe)?\s+[^\n]{0,60}?//e:(?:vbscript|jscript)\b`,
  // VBScript stager written from cmd (`echo Set h=CreateObject("WinHttp.WinHttpRequest.5.1")…`).
  String.raw`\bcreateobject\s*\(\s*["']?(?:winhttp\.winhttprequest|msxml2\.(?:server)?xmlhttp|microsoft\.xmlhttp|wscript\.shell|adodb\.stream)`,
  // DNS-staged payloads: nslookup against a chosen resolver.
  String.raw`\bnslookup\s+(?:-\S+\s+){0,3}[^\s"']+\s+\d{1,3}(?:\.\d{1,3}){3}\b`,
  // finger user@host (payload in the finger reply).
  String.raw`\bfinger(?:\.exe)?\s+[^\s@"']{1,64}@[^\s"']{1,128}`,
  // net use mapping a WebDAV share.
  String.raw`\bnet\s+use\s+[a-z]:\s+(?:https?://|\\\\)`,
  // macOS / Linux: a download piped into a shell.
  String.raw`\b(?:curl|wget)\b[^\n|;]{0,300}\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b`,
  // sh -c "$(curl …)".
  String.raw`\b(?:ba|z)?sh\s+-c\s+["']?\$\(\s*(?:curl|wget)\b`,
  // base64 decoded into a shell (`echo … | base64 -D | bash`).
  String.raw`\bbase64\s+(?:-d|-D|--decode)\b[^\n|]{0,40}\|\s*(?:sudo\s+)?(?:ba|z)?sh\b`,
  // AppleScript execution.
  String.raw`\bosascript\s+-e\b|\bdo\s+shell\s+script\b`,
  // curl download then xattr -c / chmod +x (macOS stealer stagers).
  String.raw`\bcurl\s[^\n]{0,200}?&&\s*(?:xattr\s+-[cdr]|chmod\s+\+x)`,
];

/** The command shapes in one case-insensitive alternation (global: use with `matchAll`). */
export const COMMAND_PATTERN = new RegExp(SHAPES.map((source) => `(?:${source})`).join('|'), 'gi');
