/**
 * @module cli/commands/overrides-command
 * `linkguard overrides add|list|remove`: the operator's overrides (README "Verdict corrections").
 * An override makes every URL it covers `safe` (allow) or `danger` (deny) whatever the layers
 * say, on the next request of every instance sharing the store; the verdict names it and what it
 * overrode. Overrides are never deleted: `remove` marks one removed, and `list --all` shows who
 * added and removed what, when and why. An unknown id exits 1; a refused request (invalid
 * target, missing reason, expiry not in the future, already removed) exits 2.
 */
import { Argument, Command } from 'commander';
import pc from 'picocolors';

import { type Clock, systemClock } from '../../clock.js';
import { isOverrideId } from '../../corrections/correction-ids.js';
import { addOverride, removeOverride } from '../../corrections/operator-actions.js';
import type { OverrideAction, OverrideRecord } from '../../store/ports/correction-store.js';
import { overrideScopeText, overrideState, overrideView } from '../correction-views.js';
import { isoOrEmpty } from '../format-time.js';
import { notFound, operatorAction, operatorName } from '../operator-errors.js';
import { parseExpiry } from '../parse-expiry.js';
import { outputColumns, printTable } from '../print-table.js';
import { UsageError } from '../usage-error.js';
import { withStore } from '../with-store.js';

/** Help text of `--expires`, shared with `reports resolve`. */
export const EXPIRES_HELP =
  'when it stops applying: a duration (30d, 12h, 45m), the last day (YYYY-MM-DD, UTC) or an ' +
  'instant with a zone (2026-12-31T18:00:00Z); default: never';

/** Help text of `--by`. */
export const BY_HELP = 'who makes the change (recorded); default: the OS user name';

/**
 * `--expires` read at `now`.
 * @throws UsageError (exit 2) with the parser's explanation.
 */
export function expiryOption(text: string | undefined, now: number): number | null {
  if (text === undefined) return null;
  try {
    return parseExpiry(text, now);
  } catch (error) {
    throw new UsageError(`--expires ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A clock stopped at `now`: one instant for a command's expiry and its record. */
export function fixedClock(now: number): Clock {
  return { now: () => now };
}

/** The lines printed after an override was created. */
export function printCreated(override: OverrideRecord): void {
  const paint = override.action === 'allow' ? pc.green : pc.red;
  console.log(
    `Created override ${pc.bold(override.id)}: ${paint(override.action)} ${overrideScopeText(override)}.`,
  );
  console.log(`  reason:  ${override.reason}`);
  console.log(`  by:      ${override.createdBy}, ${isoOrEmpty(override.createdAt)}`);
  console.log(
    `  expires: ${override.expiresAt === null ? 'never' : isoOrEmpty(override.expiresAt)}`,
  );
  console.log('It applies from the next request, on every instance sharing this store.');
}

/**
 * The `overrides` command and its subcommands `add`, `list` and `remove`, each opening the
 * configured store for the run (README "Verdict corrections").
 */
export function overridesCommand(): Command {
  const overrides = new Command('overrides').description(
    'verdict overrides: always allow or always deny a host, domain or URL prefix',
  );

  overrides
    .command('add')
    .description('add an override; it applies on the next request of every instance')
    .addArgument(
      new Argument('<action>', 'allow: serve safe; deny: serve danger').choices(['allow', 'deny']),
    )
    .argument(
      '<target>',
      'a registrable domain (example.com: it and every host under it), one host ' +
        '(login.example.com) or a URL prefix (https://example.com/app/)',
    )
    .requiredOption('--reason <text>', 'why (shown in every verdict it decides)')
    .option('--expires <when>', EXPIRES_HELP)
    .option('--by <name>', BY_HELP)
    .option('--json', 'print JSON')
    .action(
      async (
        action: OverrideAction,
        target: string,
        options: { reason: string; expires?: string; by?: string; json?: boolean },
      ) => {
        const now = systemClock.now();
        const by = operatorName(options.by);
        const expiresAt = expiryOption(options.expires, now);
        const created = await operatorAction(() =>
          withStore((store) =>
            // Created at the instant the expiry was read from: `--expires 30d` is 30 days exactly.
            addOverride(store, fixedClock(now), {
              action,
              target,
              reason: options.reason,
              by,
              expiresAt,
            }),
          ),
        );
        if (created === null) return;
        if (options.json === true) {
          console.log(JSON.stringify(overrideView(created, systemClock.now())));
          return;
        }
        printCreated(created);
      },
    );

  overrides
    .command('list')
    .description('list the overrides in force (with --all: removed and expired ones too)')
    .option('--all', 'include removed and expired overrides, with who removed them and when')
    .option('--json', 'print JSON')
    .action(async (options: { all?: boolean; json?: boolean }) => {
      const list = await withStore((store) => store.overrides.listOverrides());
      const now = systemClock.now();
      const shown =
        options.all === true ? list : list.filter((o) => overrideState(o, now) === 'active');
      if (options.json === true) {
        console.log(
          JSON.stringify(
            shown.map((o) => overrideView(o, now)),
            null,
            2,
          ),
        );
        return;
      }
      const all = options.all === true;
      const headers = ['id', 'action', 'scope', 'target', 'reason', 'created', 'by', 'expires'];
      if (all) headers.push('state');
      printTable(
        headers,
        shown.map((o) => {
          const row = [
            o.id,
            o.action === 'allow' ? pc.green('allow') : pc.red('deny'),
            o.scope,
            o.target,
            o.reason,
            isoOrEmpty(o.createdAt).slice(0, 16),
            o.createdBy,
            o.expiresAt === null ? '-' : isoOrEmpty(o.expiresAt).slice(0, 16),
          ];
          if (all) row.push(stateText(o, now));
          return row;
        }),
        {
          maxWidth: outputColumns(),
          shrink: [
            { column: 4, min: 16 },
            { column: 3, min: 24 },
          ],
        },
      );
    });

  overrides
    .command('remove')
    .description('remove an override; it stops applying on the next request (the record stays)')
    .argument('<id>', 'override id (ovr_…)')
    .option('--by <name>', BY_HELP)
    .action(async (id: string, options: { by?: string }) => {
      const by = operatorName(options.by);
      // A malformed id cannot exist: answered like an unknown one, without opening the store.
      if (!isOverrideId(id)) {
        notFound('override', id);
        return;
      }
      const removed = await operatorAction(() =>
        withStore((store) => removeOverride(store, systemClock, id, by)),
      );
      if (removed === null) return;
      console.log(
        `Removed override ${pc.bold(removed.id)} (${removed.action} ${overrideScopeText(removed)}) ` +
          `by ${removed.removedBy ?? by}, ${isoOrEmpty(removed.removedAt)}. ` +
          'It stops applying from the next request.',
      );
    });

  return overrides;
}

/** `active`, `expired`, or `removed 2026-11-27T09:12 by alice`. */
function stateText(override: OverrideRecord, now: number): string {
  const state = overrideState(override, now);
  if (state === 'active') return pc.green('active');
  if (state === 'expired') return pc.yellow('expired');
  return pc.red(
    `removed ${isoOrEmpty(override.removedAt).slice(0, 16)} by ${override.removedBy ?? ''}`,
  );
}
