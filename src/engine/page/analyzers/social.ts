// PLACEHOLDER (being written): replaced by the real analyzer in this change.
import type { PageContext, PageView } from '../page-context.js';
import type { PageFinding } from '../page-finding.js';

export function analyzeSocialEngineering(_page: PageView, _context: PageContext): PageFinding[] {
  return [];
}
