/**
 * @module cli/commands/reports-command
 * `linkguard reports list|show|resolve|redact|export`: the operator's review of reports filed by users
 * (`POST /v1/reports`, the MCP tool `report_url`, the `GET /report` page; README "Verdict
 * corrections"). A report keeps the URL (a deliberate submission), so the commands show it to the
 * operator. `resolve` records who resolved it, when and why, and with `--override` creates the
 * override in the same transaction; `redact` erases the reporter's comment and contact (personal
 * data) and records who did it and when, keeping the rest of the report; `export` writes the resolved reports as the labelled CSV
 * files `linkguard eval` reads. An unknown id exits 1; a refused request (both or neither of
 * `--accept`/`--reject`, an invalid target, a missing reason, already resolved, already
 * redacted) exits 2.
 */
import { writeFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';

import { Command, InvalidArgumentError, Option } from 'commander';
import pc from 'picocolors';

import { systemClock } from '../../clock.js';
import { isReportId } from '../../corrections/correction-ids.js';
import { redactReport, resolveReport } from '../../corrections/operator-actions.js';
import {
  evalCsv,
  type EvalLabel,
  labelReports,
  resolutionLabel,
} from '../../corrections/report-export.js';
import { normalizeUrl } from '../../engine/url/normalize-url.js';
import type { VerdictValue } from '../../engine/verdict.js';
import { AppError } from '../../errors.js';
import {
  type OverrideAction,
  type OverrideRecord,
  REPORT_KINDS,
  type ReportFilter,
  type ReportKind,
  type ReportRecord,
} from '../../store/ports/correction-store.js';
import { overrideScopeText, overrideState, overrideView, reportView } from '../correction-views.js';
import { isoOrEmpty } from '../format-time.js';
import { notFound, operatorAction, operatorName } from '../operator-errors.js';
import { outputColumns, printTable } from '../print-table.js';
import { UsageError } from '../usage-error.js';
import { withStore } from '../with-store.js';
import {
  BY_HELP,
  EXPIRES_HELP,
  expiryOption,
  fixedClock,
  printCreated,
} from './overrides-command.js';

/** `--status` of `reports list`: a stored status, `resolved` (accepted or rejected) or `all`. */
const STATUS_CHOICES = ['open', 'accepted', 'rejected', 'resolved', 'all'] as const;
type StatusChoice = (typeof STATUS_CHOICES)[number];

const MAX_LIST_LIMIT = 100_000;

const paintVerdict: Record<VerdictValue, (text: string) => string> = {
  safe: pc.green,
  caution: pc.yellow,
  danger: pc.red,
};

function limitOption(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_LIST_LIMIT) {
    throw new InvalidArgumentError(`an integer from 1 to ${MAX_LIST_LIMIT}`);
  }
  return Number(value);
}

interface ResolveOptions {
  accept?: boolean;
  reject?: boolean;
  note?: string;
  by?: string;
  override?: OverrideAction;
  target?: string;
  reason?: string;
  expires?: string;
  json?: boolean;
}

/**
 * The `reports` command and its subcommands `list`, `show`, `resolve`, `redact` and `export`, each opening
 * the configured store for the run (README "Verdict corrections").
 */
export function reportsCommand(): Command {
  const reports = new Command('reports').description(
    'review reports of wrong verdicts filed by users; resolve, redact, export them for eval',
  );

  reports
    .command('list')
    .description('list reports, newest first (default: the open ones)')
    .addOption(
      new Option('--status <status>', 'which reports').choices(STATUS_CHOICES).default('open'),
    )
    .addOption(new Option('--kind <kind>', 'only this kind').choices(REPORT_KINDS))
    .option('--limit <n>', 'at most this many (newest first)', limitOption)
    .option('--json', 'print JSON')
    .action(
      async (options: {
        status: StatusChoice;
        kind?: ReportKind;
        limit?: number;
        json?: boolean;
      }) => {
        const filter: ReportFilter = {
          ...(options.status === 'all' ? {} : { status: options.status }),
          ...(options.kind === undefined ? {} : { kind: options.kind }),
          ...(options.limit === undefined ? {} : { limit: options.limit }),
        };
        const list = await withStore((store) => store.reports.listReports(filter));
        if (options.json === true) {
          console.log(JSON.stringify(list.map(reportView), null, 2));
          return;
        }
        printTable(
          ['id', 'filed', 'kind', 'verdict', 'status', 'url'],
          list.map((report) => [
            report.id,
            isoOrEmpty(report.createdAt).slice(0, 16),
            report.kind,
            paintVerdict[report.verdict.verdict](report.verdict.verdict),
            statusText(report),
            report.url,
          ]),
          { maxWidth: outputColumns(), shrink: [{ column: 5, min: 24 }] },
        );
      },
    );

  reports
    .command('show')
    .description('everything about one report: URL, comment, verdict at filing, resolution')
    .argument('<id>', 'report id (rpt_…)')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      if (!isReportId(id)) {
        notFound('report', id);
        return;
      }
      const found = await withStore(async (store) => {
        const report = await store.reports.findReport(id);
        const overrideId = report?.overrideId ?? null;
        const override =
          overrideId === null ? null : await store.overrides.findOverride(overrideId);
        return { report, override };
      });
      const { report, override } = found;
      if (report === null) {
        notFound('report', id);
        return;
      }
      const now = systemClock.now();
      if (options.json === true) {
        console.log(
          JSON.stringify(
            {
              ...reportView(report),
              override: override === null ? null : overrideView(override, now),
            },
            null,
            2,
          ),
        );
        return;
      }
      printReport(report, override, now);
    });

  reports
    .command('resolve')
    .description(
      'resolve a report: --accept (the reporter is right) or --reject (the verdict stands); ' +
        'with --override, create the override in the same step',
    )
    .argument('<id>', 'report id (rpt_…)')
    .option('--accept', 'the reporter is right')
    .option('--reject', 'the verdict stands')
    .option('--note <text>', 'a note on the resolution (kept with the report)')
    .option('--by <name>', BY_HELP)
    .addOption(
      new Option('--override <action>', 'also create an override: allow or deny').choices([
        'allow',
        'deny',
      ]),
    )
    .option(
      '--target <target>',
      "with --override: a host, registrable domain or URL prefix; default: the report URL's host",
    )
    .option('--reason <text>', 'with --override: why (shown in every verdict it decides)')
    .option('--expires <when>', `with --override: ${EXPIRES_HELP}`)
    .option('--json', 'print JSON')
    .action(async (id: string, options: ResolveOptions) => {
      if (options.accept === options.reject) {
        throw new UsageError('Give exactly one of --accept and --reject');
      }
      const status = options.accept === true ? 'accepted' : 'rejected';
      if (options.override === undefined) {
        for (const flag of ['target', 'reason', 'expires'] as const) {
          if (options[flag] !== undefined) throw new UsageError(`--${flag} needs --override`);
        }
      }
      const by = operatorName(options.by);
      const now = systemClock.now();
      const expiresAt = expiryOption(options.expires, now);
      if (!isReportId(id)) {
        notFound('report', id);
        return;
      }
      const outcome = await operatorAction(() =>
        withStore(async (store) => {
          const report = await store.reports.findReport(id);
          if (report === null) throw new AppError('not_found', `No report ${id}`);
          // Said before any override check; the store's conditional update is what guarantees it.
          if (report.status !== 'open') {
            throw new AppError('invalid_request', `Report ${id} is already resolved`, {
              reason: 'already_resolved',
            });
          }
          const action = options.override;
          if (action !== undefined) checkConsistent(report.kind, status, action);
          return resolveReport(store, fixedClock(now), id, {
            status,
            by,
            note: options.note ?? null,
            override:
              action === undefined
                ? null
                : {
                    action,
                    target: options.target ?? reportHost(report),
                    reason: options.reason ?? '',
                    expiresAt,
                  },
          });
        }),
      );
      if (outcome === null) return;
      const { report, override } = outcome;
      if (options.json === true) {
        console.log(
          JSON.stringify({
            ...reportView(report),
            override: override === null ? null : overrideView(override, systemClock.now()),
          }),
        );
        return;
      }
      console.log(
        `${status === 'accepted' ? 'Accepted' : 'Rejected'} report ${pc.bold(report.id)} ` +
          `(${report.kind}) as ${report.resolvedBy ?? by}, ${isoOrEmpty(report.resolvedAt)}.`,
      );
      if (override !== null) printCreated(override);
    });

  reports
    .command('redact')
    .description(
      "erase the reporter's comment and contact (personal data); the URL, verdict and " +
        'resolution stay, with who redacted it and when',
    )
    .argument('<id>', 'report id (rpt_…)')
    .option('--by <name>', BY_HELP)
    .option('--json', 'print JSON')
    .action(async (id: string, options: { by?: string; json?: boolean }) => {
      const by = operatorName(options.by);
      // A malformed id cannot exist: answered like an unknown one, without opening the store.
      if (!isReportId(id)) {
        notFound('report', id);
        return;
      }
      const report = await operatorAction(() =>
        withStore((store) => redactReport(store, systemClock, id, by)),
      );
      if (report === null) return;
      if (options.json === true) {
        console.log(JSON.stringify(reportView(report)));
        return;
      }
      console.log(
        `Redacted report ${pc.bold(report.id)}: comment and contact erased by ` +
          `${report.redactedBy ?? by}, ${isoOrEmpty(report.redactedAt)}.`,
      );
    });

  reports
    .command('export')
    .description(
      'write resolved reports as labelled CSV for `linkguard eval --malicious F --benign F`',
    )
    .requiredOption('--malicious <csv>', 'file for the URLs the resolutions say are malicious')
    .requiredOption('--benign <csv>', 'file for the URLs the resolutions say are benign')
    .option('--json', 'print the counts as JSON')
    .action(async (options: { malicious: string; benign: string; json?: boolean }) => {
      if (resolvePath(options.malicious) === resolvePath(options.benign)) {
        throw new UsageError('--malicious and --benign must be different files');
      }
      const all = await withStore((store) => store.reports.listReports({ status: 'resolved' }));
      const labelled = labelReports(all);
      writeCsv('--malicious', options.malicious, evalCsv(labelled.malicious));
      writeCsv('--benign', options.benign, evalCsv(labelled.benign));
      const counts = {
        resolved_reports: all.length,
        malicious: labelled.malicious.length,
        benign: labelled.benign.length,
        superseded: labelled.superseded,
      };
      if (options.json === true) {
        console.log(JSON.stringify(counts));
        return;
      }
      console.log(
        `Wrote ${urls(counts.malicious, 'malicious')} to ${options.malicious} and ` +
          `${urls(counts.benign, 'benign')} to ${options.benign}, from ` +
          `${counts.resolved_reports} resolved report${counts.resolved_reports === 1 ? '' : 's'}` +
          (counts.superseded === 0
            ? '.'
            : ` (${counts.superseded} left out: a later resolution of the same URL labels it).`),
      );
    });

  return reports;
}

/**
 * An override must say what the resolution says the URL is: allow for a benign URL, deny for a
 * malicious one (`resolutionLabel()`), so the override and the exported label never contradict.
 *
 * @throws UsageError otherwise.
 */
function checkConsistent(
  kind: ReportKind,
  status: 'accepted' | 'rejected',
  action: OverrideAction,
): void {
  const label: EvalLabel = resolutionLabel(kind, status);
  const fits = label === 'benign' ? 'allow' : 'deny';
  if (action !== fits) {
    throw new UsageError(
      `--override ${action} contradicts the resolution: a ${kind} report ${status} says the URL ` +
        `is ${label}; use --override ${fits}`,
    );
  }
}

/**
 * The default target of `resolve --override`: the host of the report's URL, the narrowest
 * target that covers the URL without a path (docs/decisions.md, "Verdict corrections").
 *
 * @throws UsageError when the stored URL no longer parses (then `--target` must say what to cover).
 */
function reportHost(report: ReportRecord): string {
  const parsed = normalizeUrl(report.url);
  if (!parsed.ok) {
    throw new UsageError(
      `The URL of ${report.id} does not parse (${parsed.message}); give --target`,
    );
  }
  return parsed.url.hostname;
}

/**
 * Write an export file.
 * @throws UsageError (exit 2) when it cannot be written, with the system's code.
 */
function writeCsv(flag: string, path: string, csv: string): void {
  try {
    writeFileSync(path, csv);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unwritable';
    throw new UsageError(`cannot write ${flag} ${path}: ${code}`);
  }
}

/** `1 benign URL`, `2 malicious URLs`. */
function urls(count: number, label: EvalLabel): string {
  return `${count} ${label} URL${count === 1 ? '' : 's'}`;
}

function statusText(report: ReportRecord): string {
  if (report.status === 'open') return pc.yellow('open');
  return report.status === 'accepted' ? pc.green('accepted') : pc.red('rejected');
}

/** `reports show` without `--json`. */
function printReport(report: ReportRecord, override: OverrideRecord | null, now: number): void {
  const verdict = report.verdict;
  const line = (label: string, value: string): void => {
    console.log(`${`${label}:`.padEnd(20)}${value}`);
  };
  console.log(pc.bold(report.id));
  line('filed', isoOrEmpty(report.createdAt));
  line('url', report.url);
  line('kind', report.kind);
  if (report.redactedAt === null) {
    line('comment', report.comment ?? '-');
    line('contact', report.contact ?? '-');
  } else {
    line(
      'comment, contact',
      `redacted by ${report.redactedBy ?? ''} at ${isoOrEmpty(report.redactedAt)}`,
    );
  }
  line('source', report.sourceId === null ? report.source : `${report.source} ${report.sourceId}`);
  line(
    'verdict at filing',
    `${paintVerdict[verdict.verdict](verdict.verdict)} (trust ${verdict.trust_score}, ` +
      `confidence ${verdict.confidence})`,
  );
  line('brand', verdict.brand ?? '-');
  line('threat types', verdict.threat_types.length === 0 ? '-' : verdict.threat_types.join(', '));
  line('reason', verdict.reason);
  line(
    'matched patterns',
    verdict.details.matched_patterns.length === 0
      ? '-'
      : verdict.details.matched_patterns.join(', '),
  );
  line('engine', `${report.engineVersion}, data ${report.dataVersion}`);
  line('status', statusText(report));
  if (report.status !== 'open') {
    line('resolved', `${isoOrEmpty(report.resolvedAt)} by ${report.resolvedBy ?? ''}`);
    line('note', report.resolutionNote ?? '-');
  }
  if (override !== null) {
    line(
      'override',
      `${override.id}: ${override.action} ${overrideScopeText(override)} ` +
        `(${overrideState(override, now)}): ${override.reason}`,
    );
  } else if (report.overrideId !== null) {
    line('override', `${report.overrideId} (not in the store)`);
  }
}
