/**
 * Debian's Prometheus (`apt-get install prometheus`: /usr/bin/prometheus and /usr/bin/promtool)
 * for the metrics test: `promtool check metrics` lints an exposition with the official parser,
 * and a real Prometheus server on loopback scrapes the running app and answers PromQL queries
 * over its HTTP API (https://prometheus.io/docs/prometheus/latest/querying/api/).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** Where Debian's `prometheus` package installs the two programs. */
export const PROMETHEUS = '/usr/bin/prometheus';
export const PROMTOOL = '/usr/bin/promtool';

/** True when both programs are installed. */
export function hasPrometheus(): boolean {
  return existsSync(PROMETHEUS) && existsSync(PROMTOOL);
}

/** What `promtool check metrics` said about an exposition: its exit code and its output. */
export async function promtoolCheckMetrics(
  exposition: string,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(PROMTOOL, ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdin.end(exposition);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  return { code, output };
}

/** A free TCP port on loopback (asked of the kernel, then released for the server to bind). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** GET `url` on loopback; resolves with the status and body. */
export function httpGet(url: string, timeoutMs = 2000): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = get(url, { timeout: timeoutMs }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, body });
      });
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`GET ${url} timed out`)));
    request.on('error', reject);
  });
}

/** A running Prometheus server. */
export interface PrometheusServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Evaluate an instant PromQL query; each sample's labels and value. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: number }[]>;
  /** Its log (stderr), for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

interface QueryAnswer {
  status: string;
  data?: {
    resultType: string;
    result: { metric: Record<string, string>; value: [number, string] }[];
  };
  error?: string;
}

/**
 * Start Prometheus with `config` (YAML) in `dir` (its config file and TSDB go there), listening on
 * a free loopback port, and wait until it is ready.
 *
 * @throws when it does not become ready within `readyTimeoutMs`.
 */
export async function startPrometheus(
  dir: string,
  config: string,
  readyTimeoutMs = 10_000,
): Promise<PrometheusServer> {
  const configFile = join(dir, 'prometheus.yml');
  writeFileSync(configFile, config);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${join(dir, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) =>
    child.on('exit', () => {
      resolve();
    }),
  );
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    const ready = await httpGet(`${origin}/-/ready`, 500).catch(() => null);
    if (ready?.status === 200) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`Prometheus did not become ready on ${origin}:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    origin,
    log: () => log,
    stop,
    query: async (promql) => {
      const answer = await httpGet(`${origin}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const parsed = JSON.parse(answer.body) as QueryAnswer;
      if (parsed.status !== 'success' || parsed.data === undefined) {
        throw new Error(`query ${promql} failed: ${parsed.error ?? answer.body}`);
      }
      return parsed.data.result.map((sample) => ({
        metric: sample.metric,
        value: Number(sample.value[1]),
      }));
    },
  };
}
