/**
 * @module http/report-page/report-page-style
 * The one inline style block of the `GET /report` pages, and its CSP hash. Accessibility
 * choices (WCAG 2.2 AA): text and borders of at least 4.5:1 contrast on their backgrounds, a
 * 3-pixel focus outline on every control (`:focus-visible`), verdicts told by a word and a
 * symbol as well as a colour, one column that fits a 320-pixel-wide screen.
 */
import { styleHashSource } from '../html-page.js';

export const REPORT_PAGE_STYLE = `
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
main{max-width:38rem;margin:0 auto;padding:1.25rem;background:#fff}
@media (min-width:40rem){main{margin:2.5rem auto;padding:2rem;border-radius:12px;box-shadow:0 1px 4px #0002}}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem}
h2{font-size:1.15rem;line-height:1.3;margin:1.75rem 0 .5rem}
p{margin:.5rem 0}
a{color:#1d4ed8}
:focus-visible{outline:3px solid #0b1f4d;outline-offset:3px}
label,legend{display:block;font-weight:600;margin:1.25rem 0 .25rem;padding:0}
fieldset{border:0;padding:0;margin:0;min-width:0}
.hint{font-size:.9rem;color:#4a5160;margin:0 0 .4rem}
input[type=text],input[type=email],textarea{box-sizing:border-box;width:100%;padding:.6rem;font:inherit;border:2px solid #5b6272;border-radius:6px;background:#fff;color:inherit}
textarea{min-height:7rem;resize:vertical}
.radio{display:flex;gap:.6rem;align-items:flex-start;margin:.6rem 0}
.radio input{width:1.25rem;height:1.25rem;margin:.15rem 0 0;flex:none;accent-color:#1d4ed8}
.radio label{font-weight:400;margin:0}
button{font:inherit;font-weight:600;margin-top:1.5rem;padding:.65rem 1.3rem;border-radius:6px;border:2px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer}
.url{font-family:ui-monospace,monospace;font-size:.95rem;word-break:break-all}
.error-summary{border:3px solid #a0001c;border-radius:8px;padding:.75rem 1rem;margin:0 0 1.25rem}
.error-summary h2{margin:0 0 .4rem;font-size:1.1rem;color:#a0001c}
.error-summary ul{margin:0;padding-left:1.2rem}
.error-summary a,.error-summary li{color:#a0001c;font-weight:600}
.field-error{color:#a0001c;font-weight:600;margin:0 0 .4rem}
.visually-hidden{position:absolute;width:1px;height:1px;margin:0;padding:0;overflow:hidden;clip-path:inset(50%);border:0;white-space:nowrap}
input[aria-invalid=true],textarea[aria-invalid=true]{border-color:#a0001c}
.verdict{border:2px solid;border-left-width:10px;border-radius:8px;padding:.75rem 1rem;margin:.5rem 0 1rem}
.verdict-safe{background:#e8f5ec;border-color:#1a7f37}
.verdict-caution{background:#fff6da;border-color:#9a6700}
.verdict-danger{background:#fdecef;border-color:#a0001c}
.verdict-word{font-size:1.2rem;font-weight:700;margin:0 0 .35rem}
.verdict dl{margin:0}
.verdict dt{font-weight:600;margin-top:.4rem}
.verdict dd{margin:0}
.done{border:2px solid #1a7f37;border-left-width:10px;border-radius:8px;background:#e8f5ec;padding:.75rem 1rem}
.report-id{font-family:ui-monospace,monospace;font-size:1.1rem;font-weight:700;word-break:break-all}
form+p{margin-top:1.5rem}
.privacy{font-size:.9rem;color:#4a5160;margin-top:1.5rem}
`.trim();

/** CSP source of {@link REPORT_PAGE_STYLE}. */
export const REPORT_PAGE_STYLE_HASH = styleHashSource(REPORT_PAGE_STYLE);
