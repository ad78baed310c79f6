/**
 * @module cli/commands/licenses-command
 * `linkguard licenses create|list|revoke|usage`: Premium licenses of the MCP connector (spec §5
 * "Connector authentication", §8 "Connector monthly checks: 1,000 per month"). Like enterprise
 * keys, the raw license is printed once at creation and never again; listings show the id and
 * prefix, never the hash. Mistakes in how a subcommand is called (unknown or malformed flags, a
 * missing argument) exit 2; an unknown id exits 1.
 */
import { Command, CommanderError } from 'commander';
import pc from 'picocolors';

import { generateLicense, PREMIUM_MONTHLY_CHECKS } from '../../access/license.js';
import { monthOf, systemClock } from '../../clock.js';
import type { LicenseRecord } from '../../store/ports/license-store.js';
import { isoOrEmpty } from '../format-time.js';
import { parseMonth } from '../parse-month.js';
import { printTable } from '../print-table.js';
import { UsageError } from '../usage-error.js';
import { withStore } from '../with-store.js';

/** Commander's parse errors (printed already) become exit code 2; help and version stay 0. */
function exitAsUsageError(error: CommanderError): never {
  if (error.exitCode === 0) throw error;
  throw new CommanderError(2, error.code, error.message);
}

function publicView(license: LicenseRecord) {
  return {
    id: license.id,
    name: license.name,
    prefix: license.prefix,
    created_at: isoOrEmpty(license.createdAt),
    revoked_at: license.revokedAt === null ? null : isoOrEmpty(license.revokedAt),
  };
}

function notFound(id: string): void {
  console.error(pc.red(`No license with id ${id}`));
  process.exitCode = 1;
}

export function licensesCommand(): Command {
  // Set before the subcommands are made: they copy it from their parent.
  const licenses = new Command('licenses')
    .description('manage Premium licenses of the MCP connector')
    .exitOverride(exitAsUsageError);

  licenses
    .command('create')
    .description('create a license and print it once')
    .requiredOption('--name <name>', 'who the license is for')
    .option('--json', 'print JSON')
    .action(async (options: { name: string; json?: boolean }) => {
      if (options.name.trim() === '' || options.name.length > 200)
        throw new UsageError('--name must be 1–200 characters');
      const generated = generateLicense();
      const record: LicenseRecord = {
        id: generated.id,
        name: options.name.trim(),
        prefix: generated.prefix,
        hash: generated.hash,
        createdAt: systemClock.now(),
        revokedAt: null,
      };
      await withStore((store) => store.licenses.createLicense(record));
      if (options.json === true) {
        console.log(JSON.stringify({ ...publicView(record), license: generated.raw }));
        return;
      }
      console.log(`Created license ${pc.bold(record.id)} for ${record.name}.`);
      console.log(`\n  ${pc.green(generated.raw)}\n`);
      console.log(
        pc.yellow(
          'This is the only time the license is shown. Store it now; linkguard keeps only its hash.',
        ),
      );
    });

  licenses
    .command('list')
    .description('list licenses (never the license itself)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const list = await withStore((store) => store.licenses.listLicenses());
      if (options.json === true) {
        console.log(JSON.stringify(list.map(publicView), null, 2));
        return;
      }
      printTable(
        ['id', 'name', 'prefix', 'created', 'state'],
        list.map((license) => [
          license.id,
          license.name,
          `${license.prefix}…`,
          isoOrEmpty(license.createdAt).slice(0, 10),
          license.revokedAt === null
            ? pc.green('active')
            : pc.red(`revoked ${isoOrEmpty(license.revokedAt).slice(0, 10)}`),
        ]),
      );
    });

  licenses
    .command('revoke')
    .description('revoke a license; effective on its next use')
    .argument('<id>', 'license id (lk_…)')
    .action(async (id: string) => {
      const result = await withStore((store) =>
        store.licenses.revokeLicense(id, systemClock.now()),
      );
      if (result === 'not_found') {
        notFound(id);
        return;
      }
      console.log(result === 'revoked' ? `Revoked ${id}.` : `${id} was already revoked.`);
    });

  licenses
    .command('usage')
    .description(`connector checks per license in a month, of ${String(PREMIUM_MONTHLY_CHECKS)}`)
    .option('--month <YYYY-MM>', 'month (UTC), default: the current month', parseMonth)
    .option('--license <id>', 'only this license')
    .option('--json', 'print JSON')
    .action(async (options: { month?: string; license?: string; json?: boolean }) => {
      const month = options.month ?? monthOf(systemClock.now());
      const only = options.license ?? null;
      const { usage, list } = await withStore(async (store) => ({
        usage: await store.licenses.licenseUsage(month, only),
        list: await store.licenses.listLicenses(),
      }));
      const shown = only === null ? list : list.filter((license) => license.id === only);
      if (only !== null && shown.length === 0) {
        notFound(only);
        return;
      }
      const rows = shown.map((license) => {
        const checks = usage.find((u) => u.licenseId === license.id)?.checks ?? 0;
        return {
          id: license.id,
          name: license.name,
          month,
          checks,
          limit: PREMIUM_MONTHLY_CHECKS,
          remaining: Math.max(0, PREMIUM_MONTHLY_CHECKS - checks),
        };
      });
      if (options.json === true) {
        console.log(JSON.stringify(rows, null, 2));
        return;
      }
      printTable(
        ['id', 'name', 'month', 'checks', 'limit', 'remaining'],
        rows.map((row) => [
          row.id,
          row.name,
          row.month,
          String(row.checks),
          String(row.limit),
          String(row.remaining),
        ]),
      );
    });

  return licenses;
}
