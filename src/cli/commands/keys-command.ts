/**
 * @module cli/commands/keys-command
 * `linkguard keys create|list|revoke|usage` (spec §5 "keys are provisioned on request; provisioning
 * is not an API", DESIGN §4.15–4.16). The raw key is printed once at creation and never again;
 * listings show the id and prefix, never the hash. The CLI reads the same configuration as the
 * server, so both use one store.
 */
import { Command, InvalidArgumentError } from 'commander';
import pc from 'picocolors';

import { generateApiKey } from '../../access/api-key.js';
import { monthOf, systemClock } from '../../clock.js';
import type { ApiKeyRecord } from '../../store/ports/key-store.js';
import { isoOrEmpty } from '../format-time.js';
import { parseMonth } from '../parse-month.js';
import { printTable } from '../print-table.js';
import { UsageError } from '../usage-error.js';
import { withStore } from '../with-store.js';

const positiveInt =
  (name: string) =>
  (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1)
      throw new InvalidArgumentError(`${name} must be a positive integer`);
    return Number(value);
  };

/** `YYYY-MM-DD` → the first instant after that day (UTC): the key works through the whole day. */
function parseExpiry(value: string, now: number): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const day =
    match === null
      ? Number.NaN
      : Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== value) {
    throw new InvalidArgumentError('expected a date as YYYY-MM-DD');
  }
  const end = day + 24 * 60 * 60 * 1000;
  if (end <= now) throw new InvalidArgumentError('the expiry date is in the past');
  return end;
}

function expiryOrUsageError(value: string, now: number): number {
  try {
    return parseExpiry(value, now);
  } catch (error) {
    throw new UsageError(`--expires: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function publicView(key: ApiKeyRecord) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    created_at: isoOrEmpty(key.createdAt),
    expires_at: key.expiresAt === null ? null : isoOrEmpty(key.expiresAt),
    revoked_at: key.revokedAt === null ? null : isoOrEmpty(key.revokedAt),
    rate_limit_per_minute: key.rateLimitPerMinute,
    monthly_allowance: key.monthlyAllowance,
    hard_cap: key.hardCap,
  };
}

export function keysCommand(): Command {
  const keys = new Command('keys').description('manage enterprise API keys');

  keys
    .command('create')
    .description('create a key and print it once')
    .requiredOption('--name <name>', 'who the key is for')
    .option(
      '--rate-limit <perMinute>',
      'requests per minute (default: RATE_LIMIT_KEY_PER_MINUTE, 10000)',
      positiveInt('--rate-limit'),
    )
    .option(
      '--monthly-allowance <n>',
      'agreed requests per month (reported by keys usage)',
      positiveInt('--monthly-allowance'),
    )
    .option('--hard-cap', 'refuse requests above the monthly allowance (default: report only)')
    .option('--expires <YYYY-MM-DD>', 'last day the key works (UTC)')
    .option('--json', 'print JSON')
    .action(
      async (options: {
        name: string;
        rateLimit?: number;
        monthlyAllowance?: number;
        hardCap?: boolean;
        expires?: string;
        json?: boolean;
      }) => {
        const now = systemClock.now();
        if (options.name.trim() === '' || options.name.length > 200)
          throw new UsageError('--name must be 1–200 characters');
        if (options.hardCap === true && options.monthlyAllowance === undefined) {
          throw new UsageError('--hard-cap needs --monthly-allowance');
        }
        const expiresAt =
          options.expires === undefined ? null : expiryOrUsageError(options.expires, now);
        const generated = generateApiKey();
        const record: ApiKeyRecord = {
          id: generated.id,
          name: options.name.trim(),
          prefix: generated.prefix,
          hash: generated.hash,
          createdAt: now,
          expiresAt,
          revokedAt: null,
          rateLimitPerMinute: options.rateLimit ?? null,
          monthlyAllowance: options.monthlyAllowance ?? null,
          hardCap: options.hardCap === true,
        };
        await withStore((store) => store.keys.createKey(record));
        if (options.json === true) {
          console.log(JSON.stringify({ ...publicView(record), key: generated.raw }));
          return;
        }
        console.log(`Created key ${pc.bold(record.id)} for ${record.name}.`);
        console.log(`\n  ${pc.green(generated.raw)}\n`);
        console.log(
          pc.yellow(
            'This is the only time the key is shown. Store it now; linkguard keeps only its hash.',
          ),
        );
      },
    );

  keys
    .command('list')
    .description('list keys (never the key itself)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const list = await withStore((store) => store.keys.listKeys());
      const now = systemClock.now();
      if (options.json === true) {
        console.log(JSON.stringify(list.map(publicView), null, 2));
        return;
      }
      printTable(
        ['id', 'name', 'prefix', 'created', 'expires', 'state', 'rate/min', 'allowance'],
        list.map((key) => [
          key.id,
          key.name,
          `${key.prefix}…`,
          isoOrEmpty(key.createdAt).slice(0, 10),
          key.expiresAt === null ? '-' : isoOrEmpty(key.expiresAt).slice(0, 10),
          key.revokedAt !== null
            ? pc.red('revoked')
            : key.expiresAt !== null && key.expiresAt <= now
              ? pc.yellow('expired')
              : pc.green('active'),
          key.rateLimitPerMinute === null ? 'default' : String(key.rateLimitPerMinute),
          key.monthlyAllowance === null
            ? '-'
            : `${key.monthlyAllowance}${key.hardCap ? ' (hard cap)' : ''}`,
        ]),
      );
    });

  keys
    .command('revoke')
    .description('revoke a key; effective on its next request')
    .argument('<id>', 'key id (key_…)')
    .action(async (id: string) => {
      const result = await withStore((store) => store.keys.revokeKey(id, systemClock.now()));
      if (result === 'not_found') {
        console.error(pc.red(`No key with id ${id}`));
        process.exitCode = 1;
        return;
      }
      console.log(result === 'revoked' ? `Revoked ${id}.` : `${id} was already revoked.`);
    });

  keys
    .command('usage')
    .description('requests per key in a month, by verdict, against the allowance')
    .argument('[id]', 'only this key')
    .option('--month <YYYY-MM>', 'month (UTC), default: the current month', parseMonth)
    .option('--json', 'print JSON')
    .action(async (id: string | undefined, options: { month?: string; json?: boolean }) => {
      const month = options.month ?? monthOf(systemClock.now());
      const { usage, list } = await withStore(async (store) => ({
        usage: await store.usage.usageByMonth(month, id ?? null),
        list: await store.keys.listKeys(),
      }));
      if (id !== undefined && !list.some((key) => key.id === id)) {
        console.error(pc.red(`No key with id ${id}`));
        process.exitCode = 1;
        return;
      }
      const byId = new Map(list.map((key) => [key.id, key]));
      const keysShown = id === undefined ? list : list.filter((key) => key.id === id);
      const rows = keysShown.map((key) => {
        const used = usage.find((u) => u.keyId === key.id);
        return {
          id: key.id,
          name: byId.get(key.id)?.name ?? '',
          month,
          requests: used?.requests ?? 0,
          safe: used?.safe ?? 0,
          caution: used?.caution ?? 0,
          danger: used?.danger ?? 0,
          monthly_allowance: key.monthlyAllowance,
        };
      });
      if (options.json === true) {
        console.log(JSON.stringify(rows, null, 2));
        return;
      }
      printTable(
        ['id', 'name', 'month', 'requests', 'safe', 'caution', 'danger', 'allowance', 'used'],
        rows.map((row) => [
          row.id,
          row.name,
          row.month,
          String(row.requests),
          String(row.safe),
          String(row.caution),
          String(row.danger),
          row.monthly_allowance === null ? '-' : String(row.monthly_allowance),
          row.monthly_allowance === null
            ? '-'
            : `${Math.round((100 * row.requests) / row.monthly_allowance)} %`,
        ]),
      );
    });

  return keys;
}
