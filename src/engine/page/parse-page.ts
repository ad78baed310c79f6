/**
 * @module engine/page/parse-page
 * One streaming pass of htmlparser2 over an HTML string → {@link PageDocument}. No DOM is built
 * and no script runs: script elements are collected as text. htmlparser2 closes implied and
 * unclosed elements itself (it reports a close for every open), which keeps the element stack
 * below exact.
 *
 * "Hidden" means hidden by what the element itself says: the `hidden` attribute or an inline
 * `style` with `display:none`, `visibility:hidden`, zero font size, zero size with overflow
 * hidden, transparent text, full transparency or an off-screen position. Classes defined in style
 * sheets are not resolved (a limitation: a kit hiding text by class is seen as visible).
 */
import { Parser } from 'htmlparser2';

import type {
  PageCodeBlock,
  PageDocument,
  PageField,
  PageForm,
  PageHandler,
  PageLink,
  PageScript,
} from './page-document.js';

/** Caps (characters or items): far above real pages, low enough to bound memory per fetch. */
const MAX_TEXT_CHARS = 256 * 1024;
const MAX_CODE_CHARS = 4 * 1024 * 1024;
const MAX_ITEMS = 5_000;
const MAX_COMMENTS = 500;
const MAX_SHORT_TEXT = 1_000;

/** Elements whose content is not page text. */
const NON_TEXT = new Set(['script', 'style', 'template', 'noscript', 'textarea', 'title']);
/** Inline elements: entering or leaving them does not separate words. */
const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'font',
  'i',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'wbr',
]);
const HEADINGS = new Set(['h1', 'h2', 'h3']);
const ICON_RELS = new Set(['icon', 'shortcut icon', 'apple-touch-icon', 'mask-icon']);

const HIDDEN_STYLE = [
  /(?:^|;)\s*display\s*:\s*none/i,
  /(?:^|;)\s*visibility\s*:\s*hidden/i,
  /(?:^|;)\s*font-size\s*:\s*0(?:\.0+)?(?:px|pt|em|rem|%)?\s*(?:;|!|$)/i,
  /(?:^|;)\s*opacity\s*:\s*0(?:\.0+)?\s*(?:;|!|$)/i,
  /(?:^|;)\s*color\s*:\s*transparent/i,
  /(?:^|;)\s*(?:left|top|text-indent)\s*:\s*-\d{3,}(?:\.\d+)?(?:px|em|rem)/i,
  /(?:^|;)\s*clip\s*:\s*rect\(\s*0/i,
];
/** Cheap pre-check: a style without any of these words cannot hide anything. */
const HIDDEN_HINT = /none|hidden|font-size|opacity|transparent|-\d|clip|width|height/i;
const ZERO_BOX =
  /(?:^|;)\s*(?:width|height)\s*:\s*[01]px|(?:^|;)\s*(?:width|height)\s*:\s*0\s*(?:;|$)/i;
const OVERFLOW_HIDDEN = /overflow\s*:\s*hidden/i;

/** True when an element's own attributes hide it. */
export function hidesContent(attribs: Readonly<Record<string, string>>): boolean {
  if ('hidden' in attribs) return true;
  const style = attribs.style;
  if (style === undefined || style === '' || !HIDDEN_HINT.test(style)) return false;
  if (HIDDEN_STYLE.some((re) => re.test(style))) return true;
  return ZERO_BOX.test(style) && OVERFLOW_HIDDEN.test(style);
}

/**
 * Runs of whitespace and single non-space whitespace characters (the `\s` class of ECMAScript):
 * replacing only these, not every single space, makes collapsing a 256 KB text ~3× faster.
 */
const WHITESPACE_RUN =
  /\s{2,}|[\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/g;
const collapse = (text: string): string => text.replace(WHITESPACE_RUN, ' ').trim();

interface OpenElement {
  name: string;
  hidden: boolean;
}

/**
 * Summarise an HTML page.
 *
 * @param html the decoded page (any size; collections stop growing at their caps and
 *   `truncated` is set).
 * @returns the summary; never throws on malformed HTML (htmlparser2 is forgiving by design).
 */
export function parsePage(html: string): PageDocument {
  const meta = new Map<string, string>();
  const forms: PageForm[] = [];
  const fields: PageField[] = [];
  const scripts: PageScript[] = [];
  const links: PageLink[] = [];
  const images: { src: string; alt: string }[] = [];
  const iframes: string[] = [];
  const icons: string[] = [];
  const stylesheets: string[] = [];
  let canonical: string | null = null;
  const styles: string[] = [];
  const comments: string[] = [];
  const handlers: PageHandler[] = [];
  const codeBlocks: PageCodeBlock[] = [];
  const headings: string[] = [];
  const buttons: string[] = [];
  const autoplayMedia: { src: string; loop: boolean }[] = [];

  const stack: OpenElement[] = [];
  let hiddenDepth = 0;
  let nonTextDepth = 0;
  let noscriptDepth = 0;
  let noscriptRefresh: string | null = null;
  // Chunks joined once at the end (cheaper than growing two long strings).
  const textParts: string[] = [];
  const visibleParts: string[] = [];
  let textChars = 0;
  let title = '';
  let lang: string | null = null;
  let codeChars = 0;
  let elementCount = 0;
  let truncated = false;
  let currentForm = -1;

  // Element-scoped collectors: text of the innermost open one of each kind.
  let scriptBuffer: PageScript | null = null;
  let styleBuffer: string | null = null;
  let inTitle = false;
  let link: PageLink | null = null;
  let heading: string | null = null;
  let button: string | null = null;
  let code: PageCodeBlock | null = null;
  let codeDepth = 0;
  let codeHiddenBase = 0;

  const push = <T>(list: T[], item: T, cap = MAX_ITEMS): void => {
    if (list.length < cap) list.push(item);
    else truncated = true;
  };
  const appendText = (text: string, visible: boolean): void => {
    let chunk = text;
    if (textChars + chunk.length > MAX_TEXT_CHARS) {
      truncated = true;
      // Keep what fits: one huge text node must not leave the page without text.
      chunk = chunk.slice(0, MAX_TEXT_CHARS - textChars);
      if (chunk === '') return;
    }
    textChars += chunk.length;
    textParts.push(chunk);
    textSpaced = false;
    if (visible) {
      visibleParts.push(chunk);
      visibleSpaced = false;
    }
  };
  // Tracked in flags: `endsWith` on a growing string would flatten it each time (quadratic).
  let textSpaced = true;
  let visibleSpaced = true;
  const separate = (): void => {
    if (!textSpaced) textParts.push(' ');
    if (!visibleSpaced) visibleParts.push(' ');
    textSpaced = visibleSpaced = true;
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        elementCount += 1;
        const hidden = hidesContent(attribs);
        stack.push({ name, hidden });
        if (hidden) hiddenDepth += 1;
        if (name === 'noscript') noscriptDepth += 1;
        if (NON_TEXT.has(name)) nonTextDepth += 1;
        else if (!INLINE.has(name)) separate();

        for (const attr in attribs) {
          // `on…` attributes are inline event handlers (code).
          if (attr.length > 2 && attr.charCodeAt(0) === 111 && attr.charCodeAt(1) === 110) {
            const value = attribs[attr] ?? '';
            if (value.trim() !== '') push(handlers, { event: attr, code: value });
          }
        }

        switch (name) {
          case 'html':
            if (attribs.lang !== undefined && attribs.lang.trim() !== '')
              lang = attribs.lang.trim();
            break;
          case 'title':
            inTitle = true;
            break;
          case 'meta': {
            const key = (
              attribs.name ??
              attribs.property ??
              attribs['http-equiv'] ??
              ''
            ).toLowerCase();
            // A refresh inside <noscript> is for visitors without JavaScript — scanners. A browser
            // never follows it, so it is kept apart from the page's own redirect.
            if (key === 'refresh' && noscriptDepth > 0) {
              noscriptRefresh ??= (attribs.content ?? '').trim();
              break;
            }
            if (key !== '' && !meta.has(key) && meta.size < MAX_COMMENTS) {
              meta.set(key, (attribs.content ?? '').trim());
            }
            break;
          }
          case 'script':
            scriptBuffer = {
              src: attribs.src?.trim() ?? null,
              type: (attribs.type ?? '').trim().toLowerCase(),
              code: '',
            };
            break;
          case 'style':
            styleBuffer = '';
            break;
          case 'form':
            push(forms, {
              action: (attribs.action ?? '').trim(),
              method: (attribs.method ?? 'get').trim().toLowerCase(),
            });
            currentForm = forms.length - 1;
            break;
          case 'input':
          case 'textarea':
          case 'select': {
            const type = name === 'input' ? (attribs.type ?? 'text').trim().toLowerCase() : name;
            push(fields, {
              tag: name,
              type,
              name: (attribs.name ?? '').trim(),
              id: (attribs.id ?? '').trim(),
              placeholder: (attribs.placeholder ?? '').trim(),
              autocomplete: (attribs.autocomplete ?? '').trim().toLowerCase(),
              ariaLabel: (attribs['aria-label'] ?? '').trim(),
              form: currentForm,
              hidden: hiddenDepth > 0 || type === 'hidden',
            });
            if (name === 'input' && (type === 'submit' || type === 'button') && attribs.value) {
              push(buttons, collapse(attribs.value).slice(0, MAX_SHORT_TEXT));
            }
            break;
          }
          case 'a':
            if (attribs.href !== undefined) link = { href: attribs.href.trim(), text: '' };
            break;
          case 'img':
            push(images, { src: (attribs.src ?? '').trim(), alt: collapse(attribs.alt ?? '') });
            break;
          case 'iframe':
            if (attribs.src !== undefined) push(iframes, attribs.src.trim());
            break;
          case 'link': {
            const rel = (attribs.rel ?? '').trim().toLowerCase();
            const href = (attribs.href ?? '').trim();
            if (href === '') break;
            if (ICON_RELS.has(rel)) push(icons, href);
            else if (rel === 'stylesheet') push(stylesheets, href);
            else if (rel === 'canonical') canonical ??= href;
            break;
          }
          case 'button':
            button = '';
            break;
          case 'audio':
          case 'video':
            if ('autoplay' in attribs) {
              push(autoplayMedia, { src: (attribs.src ?? '').trim(), loop: 'loop' in attribs });
            }
            break;
          case 'pre':
          case 'code':
            if (code === null) {
              code = { visible: '', hidden: '' };
              codeHiddenBase = hiddenDepth;
            }
            codeDepth += 1;
            break;
          default:
            if (HEADINGS.has(name)) heading = '';
        }
      },
      ontext(data) {
        if (scriptBuffer !== null) {
          if (codeChars + data.length > MAX_CODE_CHARS) truncated = true;
          else {
            scriptBuffer.code += data;
            codeChars += data.length;
          }
          return;
        }
        if (styleBuffer !== null) {
          if (codeChars + data.length <= MAX_CODE_CHARS) {
            styleBuffer += data;
            codeChars += data.length;
          }
          return;
        }
        if (inTitle) {
          if (title.length < MAX_SHORT_TEXT) title += data;
          return;
        }
        if (nonTextDepth > 0) return;
        appendText(data, hiddenDepth === 0);
        if (link !== null && link.text.length < MAX_SHORT_TEXT) link.text += data;
        if (heading !== null && heading.length < MAX_SHORT_TEXT) heading += data;
        if (button !== null && button.length < MAX_SHORT_TEXT) button += data;
        if (code !== null) {
          if (hiddenDepth > codeHiddenBase) code.hidden += data;
          else code.visible += data;
        }
      },
      oncomment(data) {
        push(comments, data.trim().slice(0, MAX_SHORT_TEXT), MAX_COMMENTS);
      },
      onclosetag(name) {
        const open = stack.pop();
        if (open?.hidden === true) hiddenDepth -= 1;
        if (name === 'noscript') noscriptDepth = Math.max(0, noscriptDepth - 1);
        if (NON_TEXT.has(name)) nonTextDepth = Math.max(0, nonTextDepth - 1);
        else if (!INLINE.has(name)) separate();
        switch (name) {
          case 'title':
            inTitle = false;
            break;
          case 'script':
            if (scriptBuffer !== null) push(scripts, scriptBuffer);
            scriptBuffer = null;
            break;
          case 'style':
            if (styleBuffer !== null) push(styles, styleBuffer);
            styleBuffer = null;
            break;
          case 'form':
            currentForm = -1;
            break;
          case 'a':
            if (link !== null) push(links, { href: link.href, text: collapse(link.text) });
            link = null;
            break;
          case 'button':
            if (button !== null) push(buttons, collapse(button));
            button = null;
            break;
          case 'pre':
          case 'code':
            codeDepth -= 1;
            if (codeDepth === 0 && code !== null) {
              push(codeBlocks, { visible: collapse(code.visible), hidden: collapse(code.hidden) });
              code = null;
            }
            break;
          default:
            if (HEADINGS.has(name) && heading !== null) {
              push(headings, collapse(heading));
              heading = null;
            }
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();

  return {
    title: collapse(title),
    lang,
    meta,
    text: collapse(textParts.join('')),
    visibleText: collapse(visibleParts.join('')),
    headings,
    buttons: buttons.filter((b) => b !== ''),
    forms,
    fields,
    scripts,
    links,
    images,
    iframes,
    icons,
    stylesheets,
    canonical,
    noscriptRefresh,
    styles,
    comments,
    handlers,
    codeBlocks,
    autoplayMedia,
    elementCount,
    truncated,
  };
}
