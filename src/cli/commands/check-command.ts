/**
 * @module cli/commands/check-command
 * `linkguard check URL… [--file F] [--json] [--offline]`: judge URLs in process with the same
 * detection pipeline as the API (`buildDetection()`: engine, threat-feed index, page analysis). `--json` writes JSON Lines in input order: the API's 200 body plus
 * `url`, or `{url, error, message}` for an input that is not a URL we judge. `--offline` makes no
 * network request (layers that need the network are skipped and the reason says so).
 *
 * The exit code says the worst result (`cli/exit-codes.ts`): 0 every input `safe`, 4 the worst
 * is `caution` or an input is not a URL we judge (it has no verdict, so a script must not take it
 * for safe), 5 some input is `danger`.
 */
import { readFileSync } from 'node:fs';

import { SingleBar } from 'cli-progress';
import { Command } from 'commander';
import pc from 'picocolors';

import { systemClock } from '../../clock.js';
import { loadConfig } from '../../config/config.js';
import { normalizeUrl } from '../../engine/url/normalize-url.js';
import type { Verdict, VerdictValue } from '../../engine/verdict.js';
import { defaultEngine } from '../../engine-data/load-engine-data.js';
import { buildDetection } from '../../server/build-detection.js';
import type { DetectionService } from '../../service/detection-service.js';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.js';
import { printTable } from '../print-table.js';
import { UsageError } from '../usage-error.js';
import { openCliStore } from '../with-store.js';

type CheckResult =
  | { url: string; verdict: Verdict }
  | { url: string; error: 'invalid_url'; message: string; reason: string };

const paint: Record<VerdictValue, (text: string) => string> = {
  safe: pc.green,
  caution: pc.yellow,
  danger: pc.red,
};

/**
 * Inputs from arguments and a file (one URL per line; blank lines and `#` comments skipped).
 *
 * @throws UsageError (one line, exit code 2) when the file cannot be read.
 */
function collectInputs(urls: readonly string[], file: string | undefined): string[] {
  const fromFile =
    file === undefined
      ? []
      : readLines(file)
          .map((line) => line.trim())
          .filter((line) => line !== '' && !line.startsWith('#'));
  return [...urls, ...fromFile];
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split(/\r?\n/);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read --file ${file}: ${code}`);
  }
}

/** The exit code of a run: the worst result wins (no verdict counts as `caution`). */
function exitCodeOf(results: readonly CheckResult[]): number {
  let code: number = EXIT.ok;
  for (const result of results) {
    if (!('verdict' in result) || result.verdict.verdict === 'caution') code = EXIT.caution;
    else if (result.verdict.verdict === 'danger') return EXIT.danger;
  }
  return code;
}

export function checkCommand(): Command {
  return new Command('check')
    .description('judge URLs in process (same engine as the API)')
    .argument('[urls...]', 'URLs or bare hosts')
    .option('--file <path>', 'read URLs from a file, one per line')
    .option('--json', 'write JSON Lines: the API body plus "url", in input order')
    .option('--offline', 'make no network request; skip layers that need the network')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(
      async (urls: string[], options: { file?: string; json?: boolean; offline?: boolean }) => {
        const inputs = collectInputs(urls, options.file);
        if (inputs.length === 0) {
          console.error('Give at least one URL or --file.');
          process.exitCode = EXIT.usage;
          return;
        }
        const engine = defaultEngine();
        const offline = options.offline === true;
        const config = loadConfig();
        const store = await openCliStore(config.store);
        try {
          // The same pipeline as the server; offline: the local feed index only, no request at all.
          const detection = await buildDetection({
            config,
            store,
            engine,
            clock: systemClock,
            intel: offline ? 'local' : 'configured',
            ...(offline ? { page: null } : {}),
            absentLayers: offline ? 'offline' : 'unavailable',
          });
          try {
            process.exitCode = exitCodeOf(await checkAll(detection.service, inputs, options));
          } finally {
            await detection.close();
          }
        } finally {
          await store.close();
        }
      },
    );
}

async function checkAll(
  service: DetectionService,
  inputs: readonly string[],
  options: { file?: string; json?: boolean },
): Promise<CheckResult[]> {
  const bar =
    options.file !== undefined && process.stderr.isTTY
      ? new SingleBar({ stream: process.stderr, format: 'checking {bar} {value}/{total} URLs' })
      : null;
  bar?.start(inputs.length, 0);
  const results: CheckResult[] = [];
  for (const url of inputs) {
    const parsed = normalizeUrl(url);
    const result: CheckResult = parsed.ok
      ? { url, verdict: await service.judge(parsed.url) }
      : { url, error: 'invalid_url', message: parsed.message, reason: parsed.reason };
    if (options.json === true)
      console.log(JSON.stringify('verdict' in result ? { url, ...result.verdict } : result));
    results.push(result);
    bar?.increment();
  }
  bar?.stop();
  if (options.json !== true) printResults(results);
  return results;
}

function printResults(results: readonly CheckResult[]): void {
  printTable(
    ['verdict', 'trust', 'brand', 'url', 'reason'],
    results.map((result) =>
      'verdict' in result
        ? [
            paint[result.verdict.verdict](result.verdict.verdict),
            String(result.verdict.trust_score),
            result.verdict.brand ?? '-',
            result.url,
            result.verdict.reason,
          ]
        : [pc.dim('invalid'), '-', '-', result.url, result.message],
    ),
  );
}
