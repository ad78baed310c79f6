/**
 * @module mcp/mcp-tools
 * The connector's five tools (README, "MCP connector"): their `tools/list` entries and their
 * implementations over the one detection service, the brand catalog, the domain history and the
 * report service (`report_url`: the agent files a dispute of a verdict its human disagrees with).
 *
 * Error model (2025-06-18): arguments that break the input schema (a missing `url`, 11 URLs) are
 * JSON-RPC -32602 errors; a URL the service refuses, a spent rate limit or allowance, or a failing
 * upstream is a tool result with `isError: true` telling the agent to ask a human, in its text and
 * in `structuredContent` ({@link ToolError}: the error and `agent_action: "ask_human"`). A
 * `danger` verdict is a successful check (`isError: false`). A Premium license's batch is
 * reserved whole before any URL is checked: one that does not fit the month's remaining checks is
 * refused whole and spends nothing (README "Premium licenses"). A report is free: it spends only
 * the credential's report budget (`REPORTS_PER_CREDENTIAL` an hour), never a check.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

import { PREMIUM_MONTHLY_CHECKS } from '../access/license.js';
import { reportBodyError, reportReceipt } from '../api/report-schemas.js';
import { type Clock, monthOf, secondsToNextMonth } from '../clock.js';
import { normalizeBrandName } from '../engine/brand/brand-index.js';
import { osaDistance } from '../engine/brand/osa-distance.js';
import type { Engine } from '../engine/create-engine.js';
import { normalizeUrl, type ParsedUrl } from '../engine/url/normalize-url.js';
import type { Verdict } from '../engine/verdict.js';
import { AppError, withRetryHint } from '../errors.js';
import { historyKey } from '../intel/history-key.js';
import { type RateLimits, REPORTS_PER_CREDENTIAL } from '../ratelimit/rate-limits.js';
import { reportBudgetRefusal } from '../ratelimit/report-budget.js';
import type { DetectionService } from '../service/detection-service.js';
import type { ReportService, ReportSubmission } from '../service/report-service.js';
import type { ReportRecord } from '../store/ports/correction-store.js';
import type { Store } from '../store/ports/store.js';
import type { McpGrant } from './mcp-grant.js';
import { checkUrlResult, checkUrlText } from './mcp-results.js';
import {
  CheckUrlInputSchema,
  type CheckUrlResult,
  CheckUrlResultSchema,
  CheckUrlsBatchInputSchema,
  type CheckUrlsBatchResult,
  CheckUrlsBatchResultSchema,
  DomainHistoryInputSchema,
  type DomainHistoryResult,
  DomainHistoryResultSchema,
  OfficialDomainInputSchema,
  type OfficialDomainResult,
  OfficialDomainResultSchema,
  orToolError,
  ReportUrlInputSchema,
  type ReportUrlResult,
  ReportUrlResultSchema,
  type ToolError,
} from './mcp-schemas.js';

/** What the tools need. */
export interface ToolDeps {
  service: DetectionService;
  /** Files `report_url`'s reports (the same service as `POST /v1/reports`). */
  reports: ReportService;
  engine: Engine;
  store: Store;
  clock: Clock;
  limits: RateLimits;
}

/** A JSON-RPC error with an exact code and message (the SDK's McpError prefixes its message). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** JSON-RPC "invalid params" (JSON-RPC 2.0 §5.1; MCP answers an unknown tool with it too). */
export const INVALID_PARAMS = -32602;

const json = (schema: TSchema): Tool['inputSchema'] =>
  JSON.parse(JSON.stringify(schema)) as Tool['inputSchema'];
const READ_ONLY = { readOnlyHint: true, openWorldHint: true } as const;

/** The `tools/list` entries. */
export const TOOLS: readonly Tool[] = [
  {
    name: 'check_url',
    title: 'Check a URL',
    description:
      'Verdict for one URL or bare domain before you open it, connect a wallet or enter data: ' +
      'safe / caution / danger, the impersonated brand, why, and agent_action (proceed / ' +
      'ask_human / block), which you must follow.',
    inputSchema: json(CheckUrlInputSchema),
    outputSchema: json(orToolError(CheckUrlResultSchema)),
    annotations: READ_ONLY,
  },
  {
    name: 'check_urls_batch',
    title: 'Check up to 10 URLs',
    description:
      'Verdicts for 1–10 URLs in one call, in input order; an invalid URL gets its own error ' +
      'entry. Each URL counts as one check.',
    inputSchema: json(CheckUrlsBatchInputSchema),
    outputSchema: json(orToolError(CheckUrlsBatchResultSchema)),
    annotations: READ_ONLY,
  },
  {
    name: 'official_domain',
    title: 'Official domains of a brand',
    description:
      "A brand's verified official domains from the brand catalog, to compare with a link you " +
      'were given. Unknown brands answer found: false with close matches.',
    inputSchema: json(OfficialDomainInputSchema),
    outputSchema: json(orToolError(OfficialDomainResultSchema)),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'domain_history',
    title: 'Threat history of a domain',
    description:
      'Past non-safe verdicts and threat-feed listings recorded for a domain. No record does ' +
      'not mean safe: use check_url for a verdict.',
    inputSchema: json(DomainHistoryInputSchema),
    outputSchema: json(orToolError(DomainHistoryResultSchema)),
    annotations: READ_ONLY,
  },
  {
    name: 'report_url',
    title: 'Report a wrong verdict',
    description:
      'Use when your human disputes a verdict: a site they know is legitimate was flagged ' +
      '(kind false_positive), or a site that scammed or phished them was judged safe (kind ' +
      "false_negative). Files a report for the service's operator with the current verdict; it " +
      'does not change the verdict now. Only report what your human disputes, never on your ' +
      'own guess; include their reason as comment. Free; at most ' +
      `${String(REPORTS_PER_CREDENTIAL)} reports per hour.`,
    inputSchema: json(ReportUrlInputSchema),
    outputSchema: json(orToolError(ReportUrlResultSchema)),
    // It writes (a report in the operator's queue) but changes and deletes nothing; each call
    // files one more report, and only into the service's own store.
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
  },
];

const checks = {
  check_url: Compile(CheckUrlInputSchema),
  check_urls_batch: Compile(CheckUrlsBatchInputSchema),
  official_domain: Compile(OfficialDomainInputSchema),
  domain_history: Compile(DomainHistoryInputSchema),
  report_url: Compile(ReportUrlInputSchema),
};

/** The tool names, for the unknown-tool check before authentication. */
export const TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((tool) => tool.name));

/**
 * Run a tool.
 *
 * @throws {RpcError} -32602 for an unknown tool or arguments that break the input schema.
 */
export async function callTool(
  deps: ToolDeps,
  grant: McpGrant,
  name: string,
  args: unknown,
): Promise<CallToolResult> {
  switch (name) {
    case 'check_url': {
      const { url } = valid(checks.check_url, args, name);
      const outcome = await checkOne(deps, grant, url);
      if ('error' in outcome) {
        return failure(`Could not check ${url}: ${outcome.error.message}`, outcome.error);
      }
      return success(checkUrlText(outcome), outcome);
    }
    case 'check_urls_batch': {
      const { urls } = valid(checks.check_urls_batch, args, name);
      let results: CheckUrlsBatchResult['results'];
      if (grant.kind === 'license') {
        const outcome = await licenseBatch(deps, grant.licenseId, urls);
        if ('error' in outcome) {
          return failure(`The batch was not checked: ${outcome.error.message}`, outcome.error);
        }
        results = outcome.results;
      } else {
        results = [];
        for (const url of urls) results.push(await checkOne(deps, grant, url));
      }
      const text = results
        .map((r) =>
          'error' in r ? `ERROR (ask_human) ${r.url}: ${r.error.message}` : checkUrlText(r),
        )
        .join('\n');
      return success(text, { results });
    }
    case 'official_domain': {
      const { brand } = valid(checks.official_domain, args, name);
      const result = officialDomain(deps.engine, brand);
      const text = result.found
        ? `${result.brand ?? brand}: ${result.official_domains.join(', ')}`
        : `"${brand}" is not in the brand catalog.` +
          (result.close_matches.length > 0
            ? ` Close matches: ${result.close_matches.map((m) => m.brand).join(', ')}.`
            : '');
      return success(text, result);
    }
    case 'domain_history': {
      const { domain } = valid(checks.domain_history, args, name);
      const result = await domainHistory(deps, domain);
      if (result === null) {
        const message = `"${domain}" is not a valid public domain.`;
        return failure(message, { code: 'invalid_url', message });
      }
      return success(`${result.domain}: ${result.note}`, result);
    }
    case 'report_url': {
      // Arguments outside the schema are -32602 like every tool's, with the same explanation
      // POST /v1/reports gives for that body.
      if (!checks.report_url.Check(args ?? {})) {
        throw new RpcError(
          INVALID_PARAMS,
          `Invalid arguments for tool ${name}: ${reportBodyError(args ?? {}).message}`,
        );
      }
      return reportUrl(deps, grant, args as ReportSubmission);
    }
    default:
      throw new RpcError(INVALID_PARAMS, `Unknown tool: ${name}`);
  }
}

function valid<T>(check: { Check(value: unknown): value is T }, args: unknown, tool: string): T {
  if (check.Check(args ?? {})) return (args ?? {}) as T;
  throw new RpcError(INVALID_PARAMS, `Invalid arguments for tool ${tool}`);
}

function success(text: string, structured: object): CallToolResult {
  return {
    content: [{ type: 'text', text }],
    structuredContent: structured as Record<string, unknown>,
    isError: false,
  };
}

/**
 * A tool execution error: the agent must ask a human (README, "MCP connector"), said in the text
 * and in
 * `structuredContent` ({@link ToolError}), so an agent that reads only the structured result is
 * told too.
 */
export function failure(text: string, error: ToolError['error']): CallToolResult {
  const structured: ToolError = { error, agent_action: 'ask_human' };
  return {
    content: [{ type: 'text', text: `${text} (agent_action: ask_human)` }],
    structuredContent: structured,
    isError: true,
  };
}

/** The structured error of a refusal: its code, message and, where set, reason and retry time. */
function errorOf(error: AppError): ToolError['error'] {
  return {
    code: error.code,
    message: withRetryHint(error.message, error.retryAfter),
    ...(error.reason === undefined ? {} : { reason: error.reason }),
    ...(error.retryAfter === undefined ? {} : { retry_after: error.retryAfter }),
  };
}

/**
 * One URL for the caller. An enterprise key's rate limit and monthly allowance count it like a
 * `/v1/detect` request; a Premium license spends one of its month's checks (README, "Premium
 * licenses": 1,000), given back when the check fails. Each URL of a batch counts one; a URL the
 * service refuses spends nothing.
 */
async function checkOne(
  deps: ToolDeps,
  grant: McpGrant,
  input: string,
): Promise<CheckUrlResult | CheckUrlsBatchResult['results'][number]> {
  try {
    const url = deps.service.parse(input);
    if (grant.kind === 'license') {
      return checkUrlResult(url.href, await judgeForLicense(deps, grant.licenseId, url));
    }
    const { key } = grant;
    const limit = await deps.limits.consumeKey(key.id, key.rateLimitPerMinute);
    if (!limit.allowed) {
      throw new AppError('rate_limited', 'The rate limit of this key is spent', {
        retryAfter: limit.resetSeconds,
      });
    }
    return checkUrlResult(url.href, await deps.service.judgeForKey(key, url));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { url: input, error: errorOf(error), agent_action: 'ask_human' };
  }
}

/**
 * A batch on a Premium license's monthly quota: the URLs the service accepts are reserved in one
 * step (one check each), so a batch that does not fit the month's remaining checks is refused
 * whole and spends nothing; a URL the service refuses spends nothing and gets its own error
 * entry; the check of a URL that then fails (an upstream outage) is given back.
 *
 * @returns one entry per input URL in input order, or the refusal of the whole batch
 *   (`rate_limited`, reason `monthly_allowance`).
 * @throws what the detection service throws unexpectedly (the unspent checks are given back first).
 */
async function licenseBatch(
  deps: ToolDeps,
  licenseId: string,
  inputs: readonly string[],
): Promise<{ results: CheckUrlsBatchResult['results'] } | { error: ToolError['error'] }> {
  const entries = inputs.map((input): { input: string; url: ParsedUrl } | BatchEntry => {
    try {
      return { input, url: deps.service.parse(input) };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { url: input, error: errorOf(error), agent_action: 'ask_human' };
    }
  });
  const toCheck = entries.filter((entry) => 'input' in entry).length;
  if (toCheck === 0) return { results: entries as BatchEntry[] };
  const now = deps.clock.now();
  const month = monthOf(now);
  try {
    await reserveLicenseChecks(deps, licenseId, month, toCheck, now);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { error: errorOf(error) };
  }
  let unspent = toCheck;
  const results: CheckUrlsBatchResult['results'] = [];
  try {
    for (const entry of entries) {
      if (!('input' in entry)) {
        results.push(entry);
        continue;
      }
      try {
        results.push(checkUrlResult(entry.url.href, await deps.service.judge(entry.url)));
        unspent -= 1;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        results.push({ url: entry.input, error: errorOf(error), agent_action: 'ask_human' });
      }
    }
  } finally {
    // Checks reserved for URLs that were not judged (a failure) are given back.
    if (unspent > 0) await deps.store.licenses.releaseChecks(licenseId, month, unspent);
  }
  return { results };
}

type BatchEntry = CheckUrlsBatchResult['results'][number];

/**
 * Spend `count` of a Premium license's checks of `month` at once (README, "Premium licenses":
 * 1,000 a month).
 *
 * @throws {AppError} `rate_limited` (reason `monthly_allowance`, retry at the next month) when
 *   they do not all fit; nothing is spent then.
 */
async function reserveLicenseChecks(
  deps: ToolDeps,
  licenseId: string,
  month: string,
  count: number,
  now: number,
): Promise<void> {
  const reserved = await deps.store.licenses.reserveChecks(
    licenseId,
    month,
    count,
    PREMIUM_MONTHLY_CHECKS,
  );
  if (reserved.ok) return;
  const left = Math.max(0, PREMIUM_MONTHLY_CHECKS - reserved.used);
  const total = PREMIUM_MONTHLY_CHECKS.toLocaleString('en-US');
  const message =
    count === 1 || left === 0
      ? `The Premium license's ${total} checks of ${month} are used up`
      : `The Premium license has ${String(left)} of its ${total} checks of ${month} left, fewer than the ${String(count)} URLs of this batch; nothing was checked or spent`;
  throw new AppError('rate_limited', message, {
    retryAfter: secondsToNextMonth(now),
    reason: 'monthly_allowance',
  });
}

/**
 * Judge one URL on a Premium license's monthly quota.
 *
 * @throws {AppError} `rate_limited` (reason `monthly_allowance`) when the month's checks are
 * used up.
 */
async function judgeForLicense(
  deps: ToolDeps,
  licenseId: string,
  url: ParsedUrl,
): Promise<Verdict> {
  const now = deps.clock.now();
  const month = monthOf(now);
  await reserveLicenseChecks(deps, licenseId, month, 1, now);
  try {
    return await deps.service.judge(url);
  } catch (error) {
    await deps.store.licenses.releaseChecks(licenseId, month, 1);
    throw error;
  }
}

/**
 * File a report for the caller (`report_url`): source `connector`, its id the key's or the
 * license's; counted against that credential's report budget, never a check or a usage row.
 * A submission the service refuses (an invalid URL, a contact that is not an email address) and
 * a spent budget are `isError` results; nothing is counted for a refused submission.
 */
async function reportUrl(
  deps: ToolDeps,
  grant: McpGrant,
  submission: ReportSubmission,
): Promise<CallToolResult> {
  const sourceId = grant.kind === 'enterprise' ? grant.key.id : grant.licenseId;
  let report: ReportRecord;
  try {
    // Refused submissions cost nothing: the service's checks run before the budget is counted.
    deps.reports.check(submission);
    const refusal = reportBudgetRefusal(await deps.limits.consumeReportFromCredential(sourceId));
    if (refusal !== null) throw refusal;
    report = await deps.reports.file(submission, { source: 'connector', sourceId });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const refused = errorOf(error);
    return failure(`The report was not filed: ${refused.message}`, refused);
  }
  const result: ReportUrlResult = {
    ...reportReceipt(report),
    note: REPORT_NOTE,
  };
  return success(
    `Report ${report.id} filed: ${report.kind} for ${report.url} (verdict at filing: ` +
      `${report.verdict.verdict}). ${REPORT_NOTE}`,
    result,
  );
}

/** What a reporter is told happens next. */
const REPORT_NOTE =
  "The service's operator reviews every report; the verdict stays as it is until they decide. " +
  'If they agree, they correct it for every user (check_url then shows the correction). Tell ' +
  'your human the report id in case they follow up.';

/** Close matches listed when a brand is unknown. */
const MAX_CLOSE_MATCHES = 5;

function officialDomain(engine: Engine, query: string): OfficialDomainResult {
  const brand = engine.brands.brandByName(query);
  if (brand !== undefined) {
    return {
      query,
      found: true,
      brand: brand.name,
      official_domains: [...brand.domains],
      category: brand.category,
      country: brand.country,
      close_matches: [],
    };
  }
  const wanted = normalizeBrandName(query);
  const scored = engine.brands.brands
    .map((candidate) => {
      // Names in other scripts normalize to '' and say nothing about a Latin query.
      const names = [candidate.name, ...candidate.aliases]
        .map(normalizeBrandName)
        .filter((name) => name.length >= 3);
      const distance = Math.min(
        3,
        ...names.map((name) =>
          wanted.length >= 3 && (name.startsWith(wanted) || wanted.startsWith(name))
            ? 0
            : osaDistance(name, wanted, 2),
        ),
      );
      return { candidate, distance };
    })
    .filter((s) => s.distance <= 2 && wanted !== '')
    .sort((a, b) => a.distance - b.distance || a.candidate.name.localeCompare(b.candidate.name))
    .slice(0, MAX_CLOSE_MATCHES);
  return {
    query,
    found: false,
    brand: null,
    official_domains: [],
    category: null,
    country: null,
    close_matches: scored.map((s) => ({
      brand: s.candidate.name,
      official_domain: s.candidate.primaryDomain,
    })),
  };
}

async function domainHistory(deps: ToolDeps, input: string): Promise<DomainHistoryResult | null> {
  const parsed = normalizeUrl(input);
  if (!parsed.ok) return null;
  const key = historyKey(deps.engine, parsed.url);
  if (key === null) return null;
  const history = await deps.store.intel.domainHistory(key);
  if (history === null) {
    return {
      domain: key,
      records: 0,
      first_seen: null,
      last_seen: null,
      worst_verdict: null,
      threat_types: [],
      sources: [],
      note: 'No threat record. That does not mean safe: check_url gives a verdict.',
    };
  }
  return {
    domain: history.domain,
    records: history.count,
    first_seen: new Date(history.firstSeen).toISOString(),
    last_seen: new Date(history.lastSeen).toISOString(),
    worst_verdict: history.worstVerdict,
    threat_types: history.threatTypes,
    sources: history.sources,
    note:
      `${String(history.count)} non-safe verdict(s) recorded, worst ${history.worstVerdict}` +
      (history.sources.length > 0 ? `, listed by ${history.sources.join(', ')}` : '') +
      '. A past record is history; check_url gives the current verdict.',
  };
}
