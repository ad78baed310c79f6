/**
 * @module cli/commands/eval-command
 * `linkguard eval --malicious F --benign F [--json]`: accuracy of the engine on labelled CSV files
 * (a `url` column and an optional `brand` column). Prints recall, danger recall, false-positive
 * rates, brand accuracy and throughput. `scripts/eval-dev.ts` runs it per source over the
 * development data and writes docs/eval.md.
 */
import { Command } from 'commander';

import { defaultEngine } from '../../engine-data/load-engine-data.js';
import {
  brandAccuracy,
  brandPrecision,
  dangerRate,
  type EvalCounts,
  evaluateRows,
  notSafeRate,
  readEvalCsv,
  urlsPerSecond,
} from '../../evaluation/evaluate-urls.js';
import { SERVICE_COVERAGE } from '../../service/detection-service.js';
import { printTable } from '../print-table.js';

const pct = (value: number | null): string =>
  value === null ? '-' : `${(100 * value).toFixed(2)} %`;

export function evalCommand(): Command {
  return new Command('eval')
    .description('measure accuracy on labelled CSV files (url[,brand])')
    .option('--malicious <csv>', 'malicious URLs (recall, brand accuracy)')
    .option('--benign <csv>', 'benign URLs (false positives)')
    .option('--json', 'print JSON')
    .action((options: { malicious?: string; benign?: string; json?: boolean }) => {
      if (options.malicious === undefined && options.benign === undefined) {
        console.error('Give --malicious and/or --benign.');
        process.exitCode = 2;
        return;
      }
      const engine = defaultEngine();
      const malicious =
        options.malicious === undefined
          ? null
          : evaluateRows(engine, readEvalCsv(options.malicious), SERVICE_COVERAGE);
      const benign =
        options.benign === undefined
          ? null
          : evaluateRows(engine, readEvalCsv(options.benign), SERVICE_COVERAGE);
      const all = [malicious, benign].filter((c): c is EvalCounts => c !== null);
      const report = {
        malicious:
          malicious === null
            ? null
            : {
                ...malicious,
                recall: notSafeRate(malicious),
                danger_recall: dangerRate(malicious),
                brand_accuracy: brandAccuracy(malicious),
                brand_precision: brandPrecision(malicious),
              },
        benign:
          benign === null
            ? null
            : {
                ...benign,
                false_positive_rate: notSafeRate(benign),
                danger_false_positive_rate: dangerRate(benign),
              },
        urls_per_second: Math.round(urlsPerSecond(all)),
      };
      if (options.json === true) {
        console.log(JSON.stringify(report, null, 2));
        return;
      }
      const rows: string[][] = [];
      if (malicious !== null) {
        rows.push(['malicious rows (invalid)', `${malicious.rows} (${malicious.invalid})`]);
        rows.push(['recall (not safe)', pct(notSafeRate(malicious))]);
        rows.push(['danger recall', pct(dangerRate(malicious))]);
        rows.push([
          'brand precision',
          `${pct(brandPrecision(malicious))} of ${malicious.brandNamed} rows where a brand was named`,
        ]);
        rows.push([
          'brand accuracy',
          `${pct(brandAccuracy(malicious))} of ${malicious.brandRows} rows with a catalog brand`,
        ]);
      }
      if (benign !== null) {
        rows.push(['benign rows (invalid)', `${benign.rows} (${benign.invalid})`]);
        rows.push(['false positives (not safe)', pct(notSafeRate(benign))]);
        rows.push(['danger false positives', pct(dangerRate(benign))]);
      }
      rows.push(['URLs per second', String(report.urls_per_second)]);
      printTable(['measure', 'value'], rows);
    });
}
