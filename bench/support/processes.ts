/**
 * @module bench/support/processes
 * Child processes of the benchmark: free ports, CPU pinning with `taskset`, starting a server and
 * waiting until it answers, stopping it, and a registry so every exit path can kill what is left.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';

/** Children that are still running; killed synchronously on any exit. */
const live = new Set<ChildProcess>();

/** Kill every child still running (SIGKILL). Safe to call from a process `exit` handler. */
export function killAllChildren(): void {
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  live.clear();
}

/** A TCP port that was free a moment ago (the kernel picks it for a listener on port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        if (port === 0) reject(new Error('could not find a free port'));
        else resolve(port);
      });
    });
  });
}

/** CPUs this process may run on, from `/proc/self/status` (null where that file does not exist). */
export function allowedCpus(): number[] | null {
  let status: string;
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    return null;
  }
  const line = /^Cpus_allowed_list:\s*(\S+)$/m.exec(status);
  if (line?.[1] === undefined) return null;
  const cpus: number[] = [];
  for (const part of line[1].split(',')) {
    const [from, to] = part.split('-').map(Number);
    if (from === undefined || Number.isNaN(from)) continue;
    for (let cpu = from; cpu <= (to ?? from); cpu++) cpus.push(cpu);
  }
  return cpus;
}

/** Where the server and the load generator run. */
export interface Pinning {
  /** CPU for the server, or null when running unpinned. */
  serverCpu: number | null;
  /** CPU for this process (load generator and engine-alone loop), or null when unpinned. */
  loadCpu: number | null;
  /** Human explanation for the report. */
  note: string;
}

/** Pin the server to the first allowed CPU and this process to the second, when possible. */
export function choosePinning(): Pinning {
  const taskset = spawnSync('taskset', ['--version'], { encoding: 'utf8' });
  if (taskset.error !== undefined || taskset.status !== 0) {
    return {
      serverCpu: null,
      loadCpu: null,
      note: '`taskset` is not available: server and load generator ran UNPINNED and shared all CPUs',
    };
  }
  const cpus = allowedCpus();
  if (cpus === null || cpus.length < 2 || cpus[0] === undefined || cpus[1] === undefined) {
    return {
      serverCpu: null,
      loadCpu: null,
      note: 'fewer than two CPUs are available: server and load generator ran UNPINNED',
    };
  }
  const [serverCpu, loadCpu] = [cpus[0], cpus[1]];
  // Move every thread of this process (main, libuv pool, V8 helpers) to the load CPU. Threads
  // created later inherit it; children get their own CPU through `taskset -c`.
  const pinned = spawnSync('taskset', ['-a', '-p', '-c', String(loadCpu), String(process.pid)], {
    encoding: 'utf8',
  });
  if (pinned.status !== 0) {
    return {
      serverCpu,
      loadCpu: null,
      note: `server pinned to CPU ${serverCpu}; pinning the load generator failed (${pinned.stderr.trim()}), it ran unpinned`,
    };
  }
  return {
    serverCpu,
    loadCpu,
    note: `server pinned to CPU ${serverCpu} (\`taskset -c ${serverCpu}\`), load generator and engine-alone loop pinned to CPU ${loadCpu} (\`taskset -a -p -c ${loadCpu}\` on the bench process)`,
  };
}

/** Response of {@link httpPost}. */
export interface HttpAnswer {
  status: number;
  body: string;
}

/** One POST over a fresh connection (no keep-alive), for readiness and sanity checks. */
export function httpPost(
  port: number,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
        timeout: 5000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

/** A running server child. */
export interface ServerProcess {
  readonly name: string;
  readonly pid: number;
  readonly port: number;
  /** The last few kilobytes of its stdout and stderr, for error messages. */
  output(): string;
  /** SIGTERM, wait for the exit (SIGKILL after `graceMs`). Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

export interface StartServerOptions {
  name: string;
  /** Arguments after `node` (flags, script, subcommand). */
  nodeArgs: string[];
  env: NodeJS.ProcessEnv;
  port: number;
  cpu: number | null;
  /** Called repeatedly until it returns true (the server answers as expected). */
  ready: () => Promise<boolean>;
  timeoutMs?: number;
}

const OUTPUT_LIMIT = 16 * 1024;

/** Start a node server (pinned with `taskset -c` when `cpu` is set) and wait until it is ready. */
export async function startServer(options: StartServerOptions): Promise<ServerProcess> {
  const [command, args] =
    options.cpu === null
      ? [process.execPath, options.nodeArgs]
      : ['taskset', ['-c', String(options.cpu), process.execPath, ...options.nodeArgs]];
  const child = spawn(command, args, { env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      live.delete(child);
      resolve();
    });
  });
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));

  const server: ServerProcess = {
    name: options.name,
    // `taskset` execs node, so the child's pid is the server's pid.
    pid: child.pid ?? -1,
    port: options.port,
    output: () => output,
    stop: async (graceMs = 10_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };

  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${options.name} exited before it was ready (code ${child.exitCode ?? child.signalCode}):\n${output}`,
      );
    }
    const failure = await Promise.race([
      spawnError,
      new Promise<null>((resolve) =>
        setTimeout(() => {
          resolve(null);
        }, 50),
      ),
    ]);
    if (failure !== null) throw new Error(`could not start ${options.name}: ${failure.message}`);
    if (await options.ready().catch(() => false)) return server;
    if (Date.now() > deadline) {
      await server.stop(1000);
      throw new Error(`${options.name} was not ready within the time limit:\n${output}`);
    }
  }
}
