/**
 * @module cli/commands/check-command
 * `linkguard check URL… [--file F] [--json] [--offline] [--concurrency N] [--timeout MS]`: judge
 * URLs in process with the same detection pipeline as the API (`buildDetection()`: engine,
 * threat-feed index, page analysis). URLs are judged concurrently (`--concurrency`, p-limit) and
 * each within `--timeout`; results come out in input order whatever order they finish in.
 * `--json` writes JSON Lines in input order, each as soon as every earlier one is out: the API's
 * 200 body plus `url`, or `{url, error, message}` for an input without a verdict (`invalid_url`
 * with its `reason`, `timeout`, `internal_error`). `--offline` makes no network request (layers
 * that need the network are skipped and the reason says so). With `--file`, a progress bar on
 * stderr (a terminal, or `--progress`) and a summary at the end: counts per verdict, inputs
 * without a verdict by error, time (on stderr with `--json`, so stdout stays JSON Lines). Tables
 * and the bar fit the terminal's width (docs/decisions.md, decisions 181–183).
 *
 * The exit code says the worst result (`cli/exit-codes.ts`): 0 every input `safe`, 4 the worst
 * is `caution` or an input has no verdict (a script must not take it for safe), 5 some input is
 * `danger`.
 */
import { readFileSync } from 'node:fs';

import { SingleBar } from 'cli-progress';
import { Command, InvalidArgumentError, Option } from 'commander';
import pLimit from 'p-limit';
import pc from 'picocolors';

import { systemClock } from '../../clock.js';
import { loadConfig } from '../../config/config.js';
import { normalizeUrl } from '../../engine/url/normalize-url.js';
import type { Verdict, VerdictValue } from '../../engine/verdict.js';
import { defaultEngine } from '../../engine-data/load-engine-data.js';
import { buildDetection } from '../../server/build-detection.js';
import type { DetectionService } from '../../service/detection-service.js';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.js';
import { outputColumns, printTable } from '../print-table.js';
import { UsageError } from '../usage-error.js';
import { openCliStore } from '../with-store.js';

/** Why an input has no verdict. */
type CheckError = 'invalid_url' | 'timeout' | 'internal_error';

type CheckResult =
  | { url: string; verdict: Verdict }
  | { url: string; error: 'invalid_url'; message: string; reason: string }
  | { url: string; error: 'timeout' | 'internal_error'; message: string };

interface CheckOptions {
  file?: string;
  json?: boolean;
  offline?: boolean;
  concurrency: number;
  timeout: number;
  progress?: boolean;
}

/**
 * Default concurrency: enough to overlap RDAP lookups and page fetches (each mostly waiting on
 * the network), few enough not to look like a scan to the sites judged (decision 181).
 */
const DEFAULT_CONCURRENCY = 8;
const MAX_CONCURRENCY = 64;
/**
 * Default per-URL budget, ms: above the page layer's own budget (PAGE_BUDGET_MS, default 4 s,
 * at most 30 s) plus RDAP's 800 ms, so the default never cuts a judgement the service would finish.
 */
const DEFAULT_TIMEOUT_MS = 35_000;

const paint: Record<VerdictValue, (text: string) => string> = {
  safe: pc.green,
  caution: pc.yellow,
  danger: pc.red,
};

/** A commander parser for an integer option within [min, max]. */
function intOption(min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`an integer from ${min} to ${max}`);
    }
    return Number(value);
  };
}

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
    .addOption(
      new Option('--concurrency <n>', `URLs judged at once (1–${MAX_CONCURRENCY})`)
        .argParser(intOption(1, MAX_CONCURRENCY))
        .default(DEFAULT_CONCURRENCY),
    )
    .addOption(
      new Option('--timeout <ms>', 'longest wait for one URL, ms (100–600000)')
        .argParser(intOption(100, 600_000))
        .default(DEFAULT_TIMEOUT_MS),
    )
    .option('--progress', 'with --file: show the progress bar even when stderr is not a terminal')
    .option('--no-progress', 'with --file: no progress bar')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (urls: string[], options: CheckOptions) => {
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
    });
}

/**
 * Judge one input within `timeoutMs`.
 *
 * @returns the result (at the deadline at the latest), and `settled`, which resolves when the
 *   judgement itself has ended: a judgement still running at the deadline keeps its concurrency
 *   slot until then (its own budgets bound it), so `--concurrency` bounds the work in flight, not
 *   only the results awaited (docs/decisions.md, decision 182).
 */
function checkOne(
  service: DetectionService,
  url: string,
  timeoutMs: number,
): { result: Promise<CheckResult>; settled: Promise<void> } {
  const parsed = normalizeUrl(url);
  if (!parsed.ok) {
    const result: CheckResult = {
      url,
      error: 'invalid_url',
      message: parsed.message,
      reason: parsed.reason,
    };
    return { result: Promise.resolve(result), settled: Promise.resolve() };
  }
  const judged: Promise<CheckResult> = service.judge(parsed.url).then(
    (verdict) => ({ url, verdict }),
    (error: unknown) => {
      // A bug, not an answer: its stack goes to stderr, and the input counts as not judged.
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      const message = error instanceof Error ? error.message.split('\n', 1)[0] : undefined;
      return { url, error: 'internal_error', message: message ?? 'judgement failed' };
    },
  );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => {
      resolve({ url, error: 'timeout', message: `not judged within ${timeoutMs} ms` });
    }, timeoutMs);
  });
  const settled = judged.then(() => {
    clearTimeout(timer);
  });
  return { result: Promise.race([judged, deadline]), settled };
}

/** Counts per verdict and per error, for the bar and the summary. */
class Tally {
  readonly verdicts: Record<VerdictValue, number> = { safe: 0, caution: 0, danger: 0 };
  readonly errors: Record<CheckError, number> = { invalid_url: 0, timeout: 0, internal_error: 0 };

  add(result: CheckResult): void {
    if ('verdict' in result) this.verdicts[result.verdict.verdict]++;
    else this.errors[result.error]++;
  }

  get unjudged(): number {
    return this.errors.invalid_url + this.errors.timeout + this.errors.internal_error;
  }

  /** `2 danger, 1 caution, 0 no verdict` (the bar's counters). */
  short(): string {
    return `${this.verdicts.danger} danger, ${this.verdicts.caution} caution, ${this.unjudged} no verdict`;
  }
}

/**
 * The progress bar on stderr, sized to the terminal: the counters take what they need at the
 * largest counts, the bar the rest, so no line is wider than the terminal (80 columns when the
 * width is unknown). Null when there is nothing to show (not a file run, or no terminal and no
 * `--progress`).
 */
function progressBar(total: number, options: CheckOptions): SingleBar | null {
  const tty = process.stderr.isTTY;
  if (options.file === undefined || options.progress === false) return null;
  if (!tty && options.progress !== true) return null;
  const columns = outputColumns(process.stderr) ?? 80;
  const digits = String(total).length;
  const widest = new Tally();
  widest.verdicts.danger = total;
  widest.verdicts.caution = total;
  widest.errors.invalid_url = total;
  // "checking " + bar + " " + value/total + " · " + counters; one column spare for the cursor.
  const fixed = 'checking '.length + 1 + 2 * digits + 1 + ' · '.length + widest.short().length + 1;
  const barsize = Math.max(5, columns - fixed);
  return new SingleBar({
    stream: process.stderr,
    format: 'checking {bar} {value}/{total} · {counts}',
    barsize,
    noTTYOutput: !tty,
    hideCursor: tty,
  });
}

/** The run's summary (two lines): counts per verdict, inputs without a verdict by error, time. */
function summaryLine(tally: Tally, total: number, ms: number, concurrency: number): string {
  const errors = (Object.entries(tally.errors) as [CheckError, number][])
    .filter(([, n]) => n > 0)
    .map(([error, n]) => `${n} ${error}`);
  const seconds = (ms / 1000).toFixed(1);
  // Two short lines rather than one long one: each fits 80 columns.
  return (
    `Checked ${total} URL${total === 1 ? '' : 's'} in ${seconds} s (concurrency ${concurrency}):\n` +
    `${tally.verdicts.safe} safe, ${tally.verdicts.caution} caution, ${tally.verdicts.danger} danger; ` +
    `${tally.unjudged} without a verdict${errors.length === 0 ? '' : ` (${errors.join(', ')})`}.`
  );
}

async function checkAll(
  service: DetectionService,
  inputs: readonly string[],
  options: CheckOptions,
): Promise<CheckResult[]> {
  const started = performance.now();
  const tally = new Tally();
  const bar = progressBar(inputs.length, options);
  bar?.start(inputs.length, 0, { counts: tally.short() });
  const results: (CheckResult | undefined)[] = new Array<CheckResult | undefined>(inputs.length);
  let printed = 0;
  /** JSON Lines in input order: print every result whose predecessors are all out. */
  const flush = (): void => {
    for (let result = results[printed]; result !== undefined; result = results[printed]) {
      console.log(
        JSON.stringify('verdict' in result ? { url: result.url, ...result.verdict } : result),
      );
      printed++;
    }
  };
  const limit = pLimit(options.concurrency);
  await Promise.all(
    inputs.map((url, i) =>
      limit(async () => {
        const { result, settled } = checkOne(service, url, options.timeout);
        const outcome = await result;
        results[i] = outcome;
        tally.add(outcome);
        bar?.increment(1, { counts: tally.short() });
        if (options.json === true) flush();
        await settled;
      }),
    ),
  );
  bar?.stop();
  const done = results.filter((result) => result !== undefined);
  if (options.json !== true) printResults(done);
  if (options.file !== undefined) {
    const line = summaryLine(
      tally,
      inputs.length,
      performance.now() - started,
      options.concurrency,
    );
    // With --json, stdout stays JSON Lines.
    if (options.json === true) console.error(line);
    else console.log(`\n${line}`);
  }
  return done;
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
        : [
            pc.dim(result.error === 'invalid_url' ? 'invalid' : result.error),
            '-',
            '-',
            result.url,
            result.message,
          ],
    ),
    // In a terminal (or with COLUMNS), long URLs, then reasons, then brands are cut to fit;
    // --json has every field whole.
    {
      maxWidth: outputColumns(),
      shrink: [
        { column: 3, min: 28 },
        { column: 4, min: 24 },
        { column: 2, min: 8 },
        { column: 3, min: 12 },
        { column: 4, min: 8 },
      ],
    },
  );
}
