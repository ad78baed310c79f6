/**
 * @module engine/page/page-document
 * What layer 3 reads from a fetched HTML page: a flat summary built in one streaming pass by
 * `parsePage()` (htmlparser2 callbacks, no DOM tree). Scripts are kept as text and never run.
 * Every collection is capped (see `parse-page.ts`) so a hostile page cannot make it grow without
 * bound; the caps are far above what a real page needs.
 */

/** One `<input>`, `<textarea>` or `<select>` (attribute values as written, trimmed). */
export interface PageField {
  /** `input`, `textarea` or `select`. */
  tag: 'input' | 'textarea' | 'select';
  /** Lower-case `type` of an input (`text` when absent); `textarea` / `select` for the others. */
  type: string;
  name: string;
  id: string;
  placeholder: string;
  /** `autocomplete` token list, lower-case (`cc-number`, `current-password`). */
  autocomplete: string;
  /** `aria-label` or the text of a `<label for=id>` is not resolved; only `aria-label`. */
  ariaLabel: string;
  /** Index into {@link PageDocument.forms} of the enclosing `<form>`, or -1. */
  form: number;
  /** Inside an element hidden by an inline style or the `hidden` attribute. */
  hidden: boolean;
}

/** One `<form>`. */
export interface PageForm {
  /** `action` as written ('' when absent: the form posts to the page itself or is sent by JS). */
  action: string;
  /** Lower-case `method`, `get` when absent. */
  method: string;
}

/** One script: inline code or an external `src` (whose code the fetcher may add later). */
export interface PageScript {
  /** `src` as written, or null for inline code. */
  src: string | null;
  /** Lower-case `type`, '' when absent. */
  type: string;
  /** Inline code, or the fetched code of an external script ('' when not fetched). */
  code: string;
}

/** One `<a href>`. */
export interface PageLink {
  href: string;
  /** Visible text of the link, whitespace collapsed. */
  text: string;
}

/** A `<pre>` or `<code>` block: what the reader sees and what a copy of it also carries. */
export interface PageCodeBlock {
  /** Text outside hidden elements. */
  visible: string;
  /** Text inside hidden or off-screen elements within the block ('' when none). */
  hidden: string;
}

/** An inline event handler attribute (`onclick`, `oncopy`, …) and its code. */
export interface PageHandler {
  /** Lower-case attribute name. */
  event: string;
  code: string;
}

/** The summary of one HTML page. */
export interface PageDocument {
  /** `<title>` text, whitespace collapsed. */
  title: string;
  /** `lang` of `<html>` as written (BCP 47), or null. */
  lang: string | null;
  /** `<meta name|property|http-equiv>` → `content`, keys lower-case (first occurrence wins). */
  meta: ReadonlyMap<string, string>;
  /**
   * All text of the page outside `<script>`, `<style>`, `<template>` and `<noscript>`, including
   * text of hidden elements (kits reveal steps by toggling `display`), whitespace collapsed.
   */
  text: string;
  /** Text outside hidden elements only (what the LLM judge is shown). */
  visibleText: string;
  /** Text of headings `<h1>`–`<h3>`, each whitespace collapsed. */
  headings: string[];
  /** Text of `<button>` elements and `value` of submit/button inputs. */
  buttons: string[];
  forms: PageForm[];
  fields: PageField[];
  scripts: PageScript[];
  links: PageLink[];
  /** `<img>` sources with their `alt` text. */
  images: { src: string; alt: string }[];
  /** `src` of `<iframe>` elements. */
  iframes: string[];
  /** `href` of `<link rel=icon|shortcut icon|apple-touch-icon>`. */
  icons: string[];
  /** `href` of `<link rel=stylesheet>`. */
  stylesheets: string[];
  /** `href` of the first `<link rel=canonical>`, or null: the address a page says is its own. */
  canonical: string | null;
  /**
   * `content` of a `<meta http-equiv=refresh>` inside `<noscript>`, or null: a redirect only
   * visitors without JavaScript (scanners) follow. It is not in {@link meta}.
   */
  noscriptRefresh: string | null;
  /** Contents of `<style>` elements. */
  styles: string[];
  /** HTML comments (mark of the web, SingleFile and HTTrack notes). */
  comments: string[];
  handlers: PageHandler[];
  codeBlocks: PageCodeBlock[];
  /** `<audio>` / `<video>` elements with `autoplay` (and `loop`). */
  autoplayMedia: { src: string; loop: boolean }[];
  /** The elements' count, for size-related heuristics. */
  elementCount: number;
  /** True when a cap was reached and the summary is partial. */
  truncated: boolean;
}
