/**
 * @module evaluation/page-eval-table
 * The page-level eval as table rows, shared by `linkguard eval --pages` (terminal) and
 * `npm run eval` (the Markdown section of docs/eval.md).
 */
import type { PageEvalReport } from './evaluate-pages.js';

const pct = (value: number | null): string =>
  value === null ? '-' : `${(100 * value).toFixed(1)} %`;

/** Headers and rows of the per-category table. */
export function categoryTable(report: PageEvalReport): { headers: string[]; rows: string[][] } {
  return {
    headers: ['category', 'pages', 'TP', 'FP', 'FN', 'precision', 'recall'],
    rows: report.categories.map((c) => [
      c.category,
      String(c.support),
      String(c.truePositives),
      String(c.falsePositives),
      String(c.falseNegatives),
      pct(c.precision),
      pct(c.recall),
    ]),
  };
}

/** Headers and rows of the summary table. */
export function summaryTable(report: PageEvalReport): { headers: string[]; rows: string[][] } {
  return {
    headers: ['measure', 'value'],
    rows: [
      ['pages (malicious / benign)', `${report.pages} (${report.malicious} / ${report.benign})`],
      ['malicious judged not safe (recall)', pct(report.recall)],
      ['malicious judged danger (danger recall)', pct(report.dangerRecall)],
      [
        'recall on captures that show a kit',
        `${pct(report.kitRecall)} of ${report.captures.kit} (${report.captures.stub} stubs, ${report.captures.not_phishing} not phishing when captured)`,
      ],
      ['benign judged not safe (FPR)', pct(report.falsePositiveRate)],
      ['benign judged danger (danger FPR)', pct(report.dangerFalsePositiveRate)],
      [
        'brand named correctly (of pages labelled with a catalog brand)',
        report.brand.labelled === 0
          ? '-'
          : `${pct(report.brand.correct / report.brand.labelled)} of ${report.brand.labelled} (a brand named on ${report.brand.named})`,
      ],
      ['verdict equals the label', `${report.verdictAgreement} / ${report.pages}`],
      ['malicious with every expected signal', `${report.signalsComplete} / ${report.malicious}`],
      [
        'benign pages with a danger/caution finding (forced analysis)',
        `${report.benignAlarms.length} / ${report.benign}`,
      ],
      [
        'verdict latency p50 / p95 / max',
        `${report.latencyMs.p50.toFixed(1)} / ${report.latencyMs.p95.toFixed(1)} / ${report.latencyMs.max.toFixed(1)} ms`,
      ],
    ],
  };
}

/** A Markdown table. */
export function markdownTable(table: { headers: string[]; rows: string[][] }): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(table.headers), line(table.headers.map(() => '---')), ...table.rows.map(line)].join(
    '\n',
  );
}
