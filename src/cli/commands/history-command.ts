/**
 * @module cli/commands/history-command
 * `linkguard history DOMAIN`: what this service has seen of a registrable domain — its non-safe
 * verdicts and feed hits (first and last seen, count, worst verdict, threat types, sources).
 * No record does not mean safe: the domain was only never judged unsafe here.
 */
import { Command } from 'commander';
import pc from 'picocolors';

import { normalizeUrl } from '../../engine/url/normalize-url.js';
import { defaultEngine } from '../../engine-data/load-engine-data.js';
import { historyKey } from '../../intel/history-key.js';
import { UsageError } from '../usage-error.js';
import { withStore } from '../with-store.js';

export function historyCommand(): Command {
  return new Command('history')
    .description('what this service has recorded about a domain')
    .argument(
      '<domain>',
      'a domain or URL; its registrable domain (a hosting tenant: its own name) is looked up',
    )
    .option('--json', 'print JSON')
    .action(async (input: string, options: { json?: boolean }) => {
      const parsed = normalizeUrl(input);
      const domain = parsed.ok ? historyKey(defaultEngine(), parsed.url) : null;
      if (domain === null) throw new UsageError(`${input} has no domain the history records`);
      const history = await withStore((store) => store.intel.domainHistory(domain));
      if (options.json === true) {
        console.log(JSON.stringify({ domain, history }));
        return;
      }
      if (history === null) {
        console.log(
          `No record for ${domain}. That does not mean it is safe: it was never judged unsafe here.`,
        );
        return;
      }
      const paint = history.worstVerdict === 'danger' ? pc.red : pc.yellow;
      console.log(`${pc.bold(domain)}: worst verdict ${paint(history.worstVerdict)}`);
      console.log(
        `  seen ${history.count} times, first ${new Date(history.firstSeen).toISOString()}`,
      );
      console.log(`  last ${new Date(history.lastSeen).toISOString()}`);
      if (history.threatTypes.length > 0)
        console.log(`  threat types: ${history.threatTypes.join(', ')}`);
      if (history.sources.length > 0) console.log(`  listed by: ${history.sources.join(', ')}`);
    });
}
