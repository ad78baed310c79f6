// PLACEHOLDER (being written): replaced by the real module in this change.
import type { PageDocument } from './page-document.js';
import type { PageFinding } from './page-finding.js';

export function pageLanguage(doc: PageDocument): string | null {
  return doc.lang;
}

export function targetCountry(
  _findings: readonly PageFinding[],
  _doc: PageDocument,
  _language: string | null,
): string | null {
  return null;
}
