/**
 * @module engine/page/llm-summary
 * The compact, text-first input of the LLM judge (detection.md §3.3 "Input"): where the page is
 * (URLs, redirect chain, registrable domain, TLD and its tier, domain age), how it presents itself
 * (title, meta description, `og:site_name`), what a visitor reads (visible text only: hidden and
 * off-screen text, comments and scripts are not included), what its forms ask for, which other
 * sites its scripts, forms and frames use, and what the static analyzers already found.
 *
 * Everything but the numbers comes from the page or its URL and is untrusted: the prompt builder
 * fences it. Every string and list is capped here, so the prompt has a known maximum size.
 */
import { resolveReference } from '../url/resolve-reference.js';
import type { PageContext } from './page-context.js';
import type { PageDocument } from './page-document.js';
import { excerpt, type PageFinding } from './page-finding.js';

/** Visible text kept, in characters: about 3k tokens (detection.md §3.3; Ji and Kim fit 4k). */
const VISIBLE_TEXT_CHARS = 12_000;
const URL_CHARS = 300;
const LABEL_CHARS = 300;
const FIELD_TEXT_CHARS = 60;
const MAX_REDIRECTS = 10;
const MAX_FORMS = 5;
const MAX_FIELDS_PER_FORM = 15;
const MAX_DOMAINS = 15;
const MAX_FINDINGS = 20;

/** One visible form field. */
export interface LlmFieldSummary {
  /** Input type (`password`, `email`, `text`…), `textarea` or `select`. */
  type: string;
  /** `name`, else `id` (≤ 60 characters). */
  name: string;
  /** `autocomplete` tokens (`cc-number`, `current-password`), '' when absent. */
  autocomplete: string;
  /** `placeholder`, else `aria-label` (≤ 60 characters). */
  label: string;
}

/** One form, or the fields that sit outside any form. */
export interface LlmFormSummary {
  /** `form`, or `no_form` for fields outside any `<form>` (sent by script, if at all). */
  kind: 'form' | 'no_form';
  /**
   * Host the form submits to: the page's host for an empty action; null for `no_form` and for an
   * action that is not an http(s) URL (`javascript:`).
   */
  actionHost: string | null;
  /** The action's site differs from the page's registrable domain. */
  external: boolean;
  /** Lower-case method (`post`, `get`), '' for `no_form`. */
  method: string;
  /** Visible fields (hidden ones are counted, not listed), at most 15. */
  fields: LlmFieldSummary[];
  /** Visible fields beyond the 15 listed. */
  moreFields: number;
  /** Hidden fields (`type=hidden` or inside a hidden element). */
  hiddenFields: number;
}

/** Registrable domains (or IP hosts) other than the page's, per kind of reference; ≤ 15 each. */
export interface LlmExternalDomains {
  scripts: string[];
  forms: string[];
  iframes: string[];
}

/** A static finding as shown to the model. */
export interface LlmFindingSummary {
  id: string;
  level: PageFinding['level'];
  evidence: string;
}

/** The judge's input. Strings are untrusted page or URL text, capped as documented. */
export interface LlmPageSummary {
  /** URL the caller asked about (≤ 300 characters). */
  submittedUrl: string;
  /** URL of the page after redirects (≤ 300 characters). */
  finalUrl: string;
  /** URLs that answered with a redirect, in order (≤ 10, each ≤ 300 characters). */
  redirects: string[];
  /** Registrable domain of the final URL, null for IP hosts. */
  registrableDomain: string | null;
  /** Public suffix of the final URL (`com`, `co.uk`, `pages.dev`), null for IP hosts. */
  tld: string | null;
  /** Abuse tier of the TLD (detection.md §1.8: `a` worst), null when not listed. */
  tldTier: 'a' | 'b' | 'c' | null;
  /** Days since registration, null when unknown. */
  domainAgeDays: number | null;
  /** Title, meta description, `og:site_name` (≤ 300 characters each, '' when absent). */
  title: string;
  description: string;
  siteName: string;
  /** Visible text, whitespace collapsed, at most 12,000 characters. */
  visibleText: string;
  /** The visible text was longer and was cut. */
  visibleTextTruncated: boolean;
  /** At most 5 forms, plus one `no_form` entry when fields sit outside forms. */
  forms: LlmFormSummary[];
  externalDomains: LlmExternalDomains;
  /** Static findings (≤ 20), evidence ≤ 120 characters. */
  findings: LlmFindingSummary[];
}

/** Input of {@link summarizeForLlm}. */
export interface LlmSummaryInput {
  doc: PageDocument;
  /** Context of the final URL (its `analysis.url` is the parsed `finalUrl`). */
  context: PageContext;
  /** `analyzePage()` findings of the page. */
  findings: readonly PageFinding[];
  submittedUrl: string;
  finalUrl: string;
  redirects: readonly string[];
  domainAgeDays: number | null;
}

/**
 * Summarize a page for the LLM judge. Pure and total.
 *
 * @returns the capped summary (caps above); external domains are resolved against `finalUrl`
 *   with the WHATWG parser (`resolveReference`), distinct and in page order.
 */
export function summarizeForLlm(input: LlmSummaryInput): LlmPageSummary {
  const { doc, context, finalUrl } = input;
  const url = context.analysis.url;
  const ownDomain = url.registrableDomain ?? url.hostname;
  const visible = excerpt(doc.visibleText, Number.MAX_SAFE_INTEGER);
  return {
    submittedUrl: capUrl(input.submittedUrl),
    finalUrl: capUrl(finalUrl),
    redirects: input.redirects.slice(0, MAX_REDIRECTS).map(capUrl),
    registrableDomain: url.registrableDomain,
    tld: url.publicSuffix,
    tldTier: context.analysis.tldTier,
    domainAgeDays: input.domainAgeDays,
    title: excerpt(doc.title, LABEL_CHARS),
    description: excerpt(doc.meta.get('description') ?? '', LABEL_CHARS),
    siteName: excerpt(doc.meta.get('og:site_name') ?? '', LABEL_CHARS),
    visibleText: excerpt(visible, VISIBLE_TEXT_CHARS),
    visibleTextTruncated: visible.length > VISIBLE_TEXT_CHARS,
    forms: summarizeForms(doc, finalUrl, ownDomain),
    externalDomains: {
      scripts: externalDomains(
        doc.scripts.flatMap((s) => (s.src === null ? [] : [s.src])),
        finalUrl,
        ownDomain,
      ),
      forms: externalDomains(
        doc.forms.map((f) => f.action).filter((a) => a.trim() !== ''),
        finalUrl,
        ownDomain,
      ),
      iframes: externalDomains(doc.iframes, finalUrl, ownDomain),
    },
    findings: input.findings.slice(0, MAX_FINDINGS).map((f) => ({
      id: f.id,
      level: f.level,
      evidence: excerpt(f.evidence),
    })),
  };
}

function capUrl(url: string): string {
  return excerpt(url, URL_CHARS);
}

function summarizeForms(doc: PageDocument, base: string, ownDomain: string): LlmFormSummary[] {
  const forms: LlmFormSummary[] = doc.forms.slice(0, MAX_FORMS).map((form) => {
    const action = resolveReference(form.action, base);
    const web = action !== null && (action.scheme === 'http' || action.scheme === 'https');
    return {
      kind: 'form',
      actionHost: web ? action.hostname : null,
      external: web && (action.registrableDomain ?? action.hostname) !== ownDomain,
      method: excerpt(form.method, FIELD_TEXT_CHARS),
      fields: [],
      moreFields: 0,
      hiddenFields: 0,
    };
  });
  const loose: LlmFormSummary = {
    kind: 'no_form',
    actionHost: null,
    external: false,
    method: '',
    fields: [],
    moreFields: 0,
    hiddenFields: 0,
  };
  for (const field of doc.fields) {
    const target = field.form < 0 ? loose : forms[field.form];
    if (target === undefined) continue;
    if (field.hidden || field.type === 'hidden') {
      target.hiddenFields += 1;
    } else if (target.fields.length >= MAX_FIELDS_PER_FORM) {
      target.moreFields += 1;
    } else {
      target.fields.push({
        type: excerpt(field.type, FIELD_TEXT_CHARS),
        name: excerpt(field.name === '' ? field.id : field.name, FIELD_TEXT_CHARS),
        autocomplete: excerpt(field.autocomplete, FIELD_TEXT_CHARS),
        label: excerpt(
          field.placeholder === '' ? field.ariaLabel : field.placeholder,
          FIELD_TEXT_CHARS,
        ),
      });
    }
  }
  return loose.fields.length + loose.moreFields + loose.hiddenFields > 0
    ? [...forms, loose]
    : forms;
}

function externalDomains(references: readonly string[], base: string, ownDomain: string): string[] {
  const domains = new Set<string>();
  for (const reference of references) {
    if (domains.size >= MAX_DOMAINS) break;
    const resolved = resolveReference(reference, base);
    if (resolved === null || resolved.hostname === '') continue;
    const domain = resolved.registrableDomain ?? resolved.hostname;
    if (domain !== ownDomain) domains.add(excerpt(domain, LABEL_CHARS));
  }
  return [...domains];
}
