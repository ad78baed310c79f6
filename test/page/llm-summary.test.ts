/**
 * The LLM judge's input: what summarizeForLlm keeps from real fixture pages (forms, other sites,
 * URL facts) and the caps that bound it on a hostile page.
 */
import { describe, expect, it } from 'vitest';

import { createPageContext } from '../../src/engine/page/create-page-context.js';
import { summarizeForLlm } from '../../src/engine/page/llm-summary.js';
import type { PageDocument } from '../../src/engine/page/page-document.js';
import type { PageFinding } from '../../src/engine/page/page-finding.js';
import { parsePage } from '../../src/engine/page/parse-page.js';
import { normalizeUrl } from '../../src/engine/url/normalize-url.js';
import { fixtureDocument, fixtureUrl, pageFixture } from '../helpers/page-fixtures.js';
import { rulesEngine } from '../helpers/rules-engine.js';

function contextFor(url: string) {
  const parsed = normalizeUrl(url);
  if (!parsed.ok) throw new Error(parsed.message);
  return createPageContext(rulesEngine(), parsed.url, null);
}

function summarize(
  doc: PageDocument,
  url: string,
  extra: { findings?: PageFinding[]; redirects?: string[]; submittedUrl?: string } = {},
) {
  return summarizeForLlm({
    doc,
    context: contextFor(url),
    findings: extra.findings ?? [],
    submittedUrl: extra.submittedUrl ?? url,
    finalUrl: url,
    redirects: extra.redirects ?? [],
    domainAgeDays: 3,
  });
}

function finding(id: string, evidence: string): PageFinding {
  return {
    id,
    level: 'caution',
    threatTypes: [],
    signals: [],
    confidence: 0.7,
    weight: 0,
    group: 'content',
    evidence,
    text: 'test',
  };
}

describe('summarizeForLlm on fixture pages', () => {
  it('summarizes a cloned Microsoft sign-in that posts to another site', () => {
    const fixture = pageFixture('credential-m365-clone');
    const url = fixtureUrl(fixture);
    const summary = summarize(fixtureDocument(fixture), url, {
      submittedUrl: 'https://bit.ly/abc',
      redirects: ['https://bit.ly/abc'],
      findings: [finding('password_offsite', 'form posts to relay-mx-owa.sbs')],
    });

    expect(summary).toMatchObject({
      submittedUrl: 'https://bit.ly/abc',
      finalUrl: url,
      redirects: ['https://bit.ly/abc'],
      registrableDomain: 'com-sso.cfd',
      tld: 'cfd',
      tldTier: 'a',
      domainAgeDays: 3,
      title: 'Sign in to your account',
      visibleTextTruncated: false,
      externalDomains: { scripts: [], forms: ['relay-mx-owa.sbs'], iframes: [] },
      findings: [
        { id: 'password_offsite', level: 'caution', evidence: 'form posts to relay-mx-owa.sbs' },
      ],
    });
    expect(summary.visibleText).toContain('Enter a valid email address');
    expect(summary.forms).toHaveLength(1);
    expect(summary.forms[0]).toMatchObject({
      kind: 'form',
      actionHost: 'relay-mx-owa.sbs',
      external: true,
      method: 'post',
      hiddenFields: 3,
      moreFields: 0,
    });
    expect(summary.forms[0]?.fields).toContainEqual({
      type: 'email',
      name: 'loginfmt',
      autocomplete: '',
      label: 'Email, phone, or Skype',
    });
  });

  it('lists card fields of a delivery lure, with their autocomplete tokens', () => {
    const fixture = pageFixture('delivery-usps-redelivery');
    const summary = summarize(fixtureDocument(fixture), fixtureUrl(fixture));
    const form = summary.forms[0];
    expect(form).toMatchObject({ kind: 'form', external: false });
    expect(form?.fields.map((f) => f.autocomplete)).toEqual(
      expect.arrayContaining(['cc-number', 'cc-exp', 'cc-csc']),
    );
    expect(summary.title).toContain('USPS');
  });
});

describe('summarizeForLlm caps and hygiene', () => {
  const url = 'https://evil-login.top/a';

  it('keeps visible text only and cuts it at 12,000 characters', () => {
    const words = 'visible words here '.repeat(3_000);
    const doc = parsePage(
      `<html><head><title>${'T'.repeat(1_000)}</title></head><body>` +
        `<div style="display:none">SECRET HIDDEN INSTRUCTIONS</div><p>${words}</p></body></html>`,
    );
    const summary = summarize(doc, url);
    expect(summary.visibleText).not.toContain('SECRET HIDDEN');
    expect(summary.visibleText.length).toBe(12_000);
    expect(summary.visibleText.endsWith('…')).toBe(true);
    expect(summary.visibleTextTruncated).toBe(true);
    expect(summary.title.length).toBe(300);
  });

  it('caps forms, fields, redirects, URLs and findings', () => {
    const inputs = Array.from({ length: 30 }, (_, i) => `<input name="f${i}">`).join('');
    const forms = Array.from({ length: 9 }, () => '<form action="/x"><input></form>').join('');
    const doc = parsePage(
      `<body><form action="/post" method="POST">${inputs}<input type="hidden" name="t"></form>` +
        `${forms}<input name="loose" type="password"></body>`,
    );
    const long = `https://evil-login.top/${'p'.repeat(1_000)}`;
    const summary = summarize(doc, url, {
      submittedUrl: long,
      redirects: Array.from({ length: 25 }, (_, i) => `https://r${i}.example/`),
      findings: Array.from({ length: 30 }, (_, i) => finding(`rule_${i}`, 'e'.repeat(500))),
    });

    expect(summary.submittedUrl.length).toBe(300);
    expect(summary.redirects).toHaveLength(10);
    expect(summary.findings).toHaveLength(20);
    expect(summary.findings[0]?.evidence.length).toBe(120);
    // Five forms plus the entry for the field outside any form.
    expect(summary.forms.map((f) => f.kind)).toEqual([
      'form',
      'form',
      'form',
      'form',
      'form',
      'no_form',
    ]);
    expect(summary.forms[0]).toMatchObject({ method: 'post', moreFields: 15, hiddenFields: 1 });
    expect(summary.forms[0]?.fields).toHaveLength(15);
    expect(summary.forms[5]?.fields).toEqual([
      { type: 'password', name: 'loose', autocomplete: '', label: '' },
    ]);
  });

  it('names other sites of scripts, forms and frames once each, never the page own site', () => {
    const doc = parsePage(
      `<script src="https://cdn.kit-host.ru/a.js"></script><script src="//cdn.kit-host.ru/b.js"></script>` +
        `<script src="/local.js"></script><script src="https://static.evil-login.top/c.js"></script>` +
        `<form action="javascript:void(0)"><input type="password"></form>` +
        `<form action="https://collector.example.net/p.php"></form>` +
        `<iframe src="https://www.youtube.com/embed/x"></iframe><iframe src="about:blank"></iframe>`,
    );
    const summary = summarize(doc, url);
    expect(summary.externalDomains).toEqual({
      scripts: ['kit-host.ru'],
      forms: ['example.net'],
      iframes: ['youtube.com'],
    });
    expect(summary.forms[0]).toMatchObject({ actionHost: null, external: false });
    expect(summary.forms[1]).toMatchObject({
      actionHost: 'collector.example.net',
      external: true,
    });
  });
});
