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
 * joined into one alternation ({@link COMMAND_PATTERN}) and the matching group names the shape.
 */

/** One command shape: a stable id (used in evidence) and its pattern source. */
interface CommandShape {
  id: string;
  source: string;
}

const SHAPES: readonly CommandShape[] = [
  // PowerShell with hiding / policy-bypass / encoded-command flags (§6.3 first pattern).
  {
    id: 'powershell_flags',
    source: String.raw`\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,80}?\s[-/](?:w(?:indowstyle)?\s+h(?:idden)?\b|nop(?:rofile)?\b|ep\s+bypass\b|exec(?:utionpolicy)?\s+bypass\b|e(?:nc(?:odedcommand)?)?\s+[a-z0-9+/=]{20,})`,
  },
  // PowerShell started to download or run something (`powershell -c "Invoke-WebRequest …"`).
  {
    id: 'powershell_download',
    source: String.raw`\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,200}?\b(?:invoke-webrequest|invoke-restmethod|iwr|irm|downloadstring|downloadfile|downloaddata|start-bitstransfer|net\.webclient|invoke-expression|iex)\b`,
  },
  // Download or decode piped into Invoke-Expression.
  {
    id: 'iex_pipe',
    source: String.raw`\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|frombase64string|downloadstring|curl(?:\.exe)?|wget)\b[^\n]{0,300}?\|\s*(?:iex|invoke-expression)\b`,
  },
  // Invoke-Expression applied to a download.
  {
    id: 'iex_download',
    source: String.raw`\b(?:iex|invoke-expression)\b\s*[(\s]\s*\(?\s*(?:iwr|irm|invoke-webrequest|invoke-restmethod|new-object\s+(?:system\.)?net\.webclient)\b`,
  },
  {
    id: 'webclient_download',
    source: String.raw`new-object\s+(?:system\.)?net\.webclient\s*\)?\s*\.\s*download(?:string|file|data)\s*\(`,
  },
  {
    id: 'mshta',
    source: String.raw`\bmshta(?:\.exe)?\s+["']?(?:https?:|\\\\|0x[0-9a-f]|\d{8,}|vbscript:|javascript:)`,
  },
  {
    id: 'msiexec',
    source: String.raw`\bmsiexec(?:\.exe)?\s+(?:/\w+\s+){0,3}["']?(?:https?:|\\\\)`,
  },
  {
    id: 'cmd_start_min',
    source: String.raw`\bcmd(?:\.exe)?\s+/[ck]\s+start\s+(?:""\s+)?/min\b`,
  },
  {
    id: 'rundll32',
    source: String.raw`\brundll32(?:\.exe)?\s+[^\n]{0,120}?(?:https?:|\\\\|javascript:|shellexec_rundll)`,
  },
  {
    id: 'regsvr32',
    source: String.raw`\bregsvr32(?:\.exe)?\s+[^\n]{0,60}?(?:/i:\s*["']?https?:|scrobj)`,
  },
  {
    id: 'certutil',
    source: String.raw`\bcertutil(?:\.exe)?\s+[^\n]{0,40}?-(?:urlcache|decode|verifyctl)\b`,
  },
  { id: 'bitsadmin', source: String.raw`\bbitsadmin(?:\.exe)?\s+/(?:transfer|addfile|create)\b` },
  {
    id: 'script_host',
    source: String.raw`\b[wc]script(?:\.exe)?\s+[^\n]{0,60}?//e:(?:vbscript|jscript)\b`,
  },
  // VBScript stager written from cmd (`echo Set h=CreateObject("WinHttp.WinHttpRequest.5.1")…`).
  {
    id: 'vbs_stager',
    source: String.raw`\bcreateobject\s*\(\s*["']?(?:winhttp\.winhttprequest|msxml2\.(?:server)?xmlhttp|microsoft\.xmlhttp|wscript\.shell|adodb\.stream)`,
  },
  // DNS-staged payloads: nslookup against a chosen resolver.
  {
    id: 'nslookup',
    source: String.raw`\bnslookup\s+(?:-\S+\s+){0,3}[^\s"']+\s+\d{1,3}(?:\.\d{1,3}){3}\b`,
  },
  { id: 'finger', source: String.raw`\bfinger(?:\.exe)?\s+[^\s@"']{1,64}@[^\s"']{1,128}` },
  { id: 'net_use_webdav', source: String.raw`\bnet\s+use\s+[a-z]:\s+(?:https?://|\\\\)` },
  // macOS / Linux: download piped into a shell, `sh -c "$(curl …)"`, base64 piped into a shell.
  {
    id: 'curl_pipe_shell',
    source: String.raw`\b(?:curl|wget)\b[^\n|;]{0,300}\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b`,
  },
  { id: 'shell_curl', source: String.raw`\b(?:ba|z)?sh\s+-c\s+["']?\$\(\s*(?:curl|wget)\b` },
  {
    id: 'base64_shell',
    source: String.raw`\bbase64\s+(?:-d|-D|--decode)\b[^\n|]{0,40}\|\s*(?:sudo\s+)?(?:ba|z)?sh\b`,
  },
  { id: 'osascript', source: String.raw`\bosascript\s+-e\b|\bdo\s+shell\s+script\b` },
  {
    id: 'macos_stager',
    source: String.raw`\bcurl\s[^\n]{0,200}?&&\s*(?:xattr\s+-[cdr]|chmod\s+\+x)`,
  },
];

/** The command shapes in one alternation; group `i + 1` is `SHAPES[i]`. */
export const COMMAND_PATTERN = new RegExp(SHAPES.map((s) => `(${s.source})`).join('|'), 'gi');

/** The id of the shape that matched (the first defined group of a {@link COMMAND_PATTERN} match). */
export function commandShape(match: RegExpExecArray | RegExpMatchArray): string {
  for (let i = 1; i < match.length; i += 1) {
    if (match[i] !== undefined) return SHAPES[i - 1]?.id ?? 'command';
  }
  return 'command';
}
