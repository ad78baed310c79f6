/**
 * The deployment files (README "Running several instances (PostgreSQL + Redis)"): no Docker engine
 * runs where the tests run, so these tests read the files instead. `docker-compose.yml` must name
 * every service the README describes, each with its health check; the linkguard instances get
 * only variables the README's configuration table documents and `src/config/config.ts` reads, with
 * values the config loader accepts; only the balancer's address is trusted for X-Forwarded-For;
 * `deploy/haproxy.cfg` checks and names both instances; the `Dockerfile` is multi-stage, pinned,
 * non-root and health-checked on `/v1/status`; `.dockerignore` lets in what the Dockerfile copies.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import { loadConfig } from '../../src/config/config.js';
import { FEED_KEY_ENVS } from '../../src/intel/feed-keys.js';

const root = join(import.meta.dirname, '..', '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');

interface Healthcheck {
  test?: string | string[];
}
interface Service {
  build?: unknown;
  image?: string;
  environment?: Record<string, string | number | boolean | null>;
  depends_on?: Record<string, { condition?: string }>;
  healthcheck?: Healthcheck;
  ports?: unknown[];
  volumes?: string[];
  networks?: string[] | Record<string, { ipv4_address?: string } | null>;
}
interface ComposeFile {
  services: Record<string, Service>;
  networks?: Record<string, { ipam?: { config?: { subnet?: string }[] } } | null>;
  volumes?: Record<string, unknown>;
}

// `merge: true`: the instances share one definition through a YAML merge key (`<<: *linkguard`),
// which Compose resolves as YAML 1.1 does.
const compose = parse(read('docker-compose.yml'), { merge: true }) as ComposeFile;
const services = compose.services;
const INSTANCES = ['linkguard-1', 'linkguard-2'];
const FEED_KEYS: readonly string[] = FEED_KEY_ENVS;
const EXPECTED_SERVICES = [...INSTANCES, 'balancer', 'postgres', 'redis'];

function service(name: string): Service {
  const found = services[name];
  if (found === undefined) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
}

function healthcheckText(name: string): string {
  const test = service(name).healthcheck?.test;
  return Array.isArray(test) ? test.join(' ') : (test ?? '');
}

/** The environment an instance gets, as written (interpolations not resolved). */
function instanceEnvironment(name: string): Record<string, string> {
  const env = service(name).environment ?? {};
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v ?? '')]));
}

/** Compose's `${VAR}`, `${VAR:-default}` and `${VAR:?message}` against `env`, as `up` would. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replaceAll(
    /\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g,
    (_match, name: string, op?: string, arg?: string) => {
      const set = env[name];
      if (set !== undefined && set !== '') return set;
      if (op === '?') throw new Error(`${name} is required: ${arg ?? ''}`);
      return op === '-' ? (arg ?? '') : '';
    },
  );
}

/** A section of the README, from its `## ` heading to the next one. */
function readmeSection(heading: string): string {
  const readme = read('README.md');
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`README has no section "## ${heading}"`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

/** The variables of the README's configuration table (its first column). */
function readmeVariables(): Set<string> {
  const names = [...readmeSection('Configuration').matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\|/gm)];
  return new Set(names.map((m) => m[1] ?? ''));
}

describe('docker-compose.yml', () => {
  it('names every service the README describes, and the README names every service', () => {
    expect(Object.keys(services).sort()).toEqual([...EXPECTED_SERVICES].sort());
    const section = readmeSection('Running several instances (PostgreSQL + Redis)');
    for (const name of EXPECTED_SERVICES) expect(section).toContain(`\`${name}\``);
    expect(section).toContain('docker compose up');
  });

  it('builds both instances from the Dockerfile', () => {
    for (const name of INSTANCES) expect(service(name).build).toBe('.');
  });

  it('health-checks the instances on /v1/status, PostgreSQL with pg_isready, Redis with ping', () => {
    for (const name of INSTANCES) {
      expect(healthcheckText(name)).toContain('/v1/status');
      // The check calls the port the instance listens on.
      const port = instanceEnvironment(name).PORT ?? '8402';
      expect(healthcheckText(name)).toContain(`127.0.0.1:${port}/v1/status`);
    }
    expect(healthcheckText('postgres')).toContain('pg_isready');
    expect(healthcheckText('redis')).toContain('redis-cli ping');
  });

  it('starts the instances after healthy PostgreSQL and Redis, the balancer after healthy instances', () => {
    for (const name of INSTANCES) {
      expect(service(name).depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
    }
    for (const name of INSTANCES) {
      expect(service('balancer').depends_on?.[name]).toEqual({ condition: 'service_healthy' });
    }
  });

  it('pins every image by a version tag', () => {
    for (const [name, s] of Object.entries(services)) {
      if (s.build !== undefined) continue;
      expect(s.image, name).toMatch(/^[a-z0-9./-]+:\d[\w.-]*$/);
    }
  });

  it('gives the instances only variables the README documents and config.ts reads', () => {
    const documented = readmeVariables();
    const loader = read('src/config/config.ts');
    expect(documented.size).toBeGreaterThan(30); // the table was found
    for (const name of INSTANCES) {
      for (const variable of Object.keys(instanceEnvironment(name))) {
        expect(documented, `${variable} in the README table`).toContain(variable);
        // Feed keys are read by config.ts through the list of their names in intel/feed-keys.ts.
        const readByConfig = loader.includes(`'${variable}'`) || FEED_KEYS.includes(variable);
        expect(readByConfig, `${variable} read by config.ts`).toBe(true);
      }
    }
  });

  it('gives the instances values the config loader accepts, on PostgreSQL', () => {
    const env = { POSTGRES_PASSWORD: 'test0password' };
    for (const name of INSTANCES) {
      const resolved = Object.fromEntries(
        Object.entries(instanceEnvironment(name)).map(([k, v]) => [k, interpolate(v, env)]),
      );
      const config = loadConfig(resolved);
      expect(config.store).toEqual({
        kind: 'postgres',
        url: 'postgres://linkguard:test0password@postgres:5432/linkguard',
      });
      expect(config.host).toBe('0.0.0.0');
      expect(config.trustProxy).toEqual([balancerAddress()]);
      expect(resolved.REDIS_URL).toMatch(/^redis:\/\/redis:\d+$/);
      // Empty pass-throughs keep the defaults: no chain offered without a recipient.
      expect(config.payments.solanaRecipient).toBeNull();
      expect(config.llm).toBeNull();
    }
  });

  it('refuses to start without POSTGRES_PASSWORD and writes no secret in the file', () => {
    const url = instanceEnvironment('linkguard-1').DATABASE_URL ?? '';
    expect(() => interpolate(url, {})).toThrow(/POSTGRES_PASSWORD/);
    expect(String(service('postgres').environment?.POSTGRES_PASSWORD)).toMatch(
      /^\$\{POSTGRES_PASSWORD:\?/,
    );
    // Secrets and payment settings only ever come from the environment or `.env`.
    for (const [variable, value] of Object.entries(instanceEnvironment('linkguard-1'))) {
      if (/KEY|SECRET|PASSWORD|RECIPIENT|RPC_URL/.test(variable)) {
        expect(value, variable).toBe(`\${${variable}:-}`);
      }
    }
    expect(read('.gitignore')).toMatch(/^\.env$/m);
  });

  it('trusts X-Forwarded-For from the balancer only, and publishes only the balancer', () => {
    const address = balancerAddress();
    for (const name of INSTANCES) {
      const trust = instanceEnvironment(name).TRUST_PROXY;
      expect(trust).toBe(address); // not `true`, not a hop count, not a whole subnet
    }
    const subnet = compose.networks?.backend?.ipam?.config?.[0]?.subnet ?? '';
    const [network = '', bits = ''] = subnet.split('/');
    expect(bits).toBe('24');
    expect(address.split('.').slice(0, 3)).toEqual(network.split('.').slice(0, 3));
    for (const [name, s] of Object.entries(services)) {
      if (name === 'balancer') expect(s.ports).toEqual(['8402:8402']);
      else expect(s.ports, name).toBeUndefined();
    }
  });

  it('keeps PostgreSQL data in a named volume', () => {
    expect(service('postgres').volumes).toContain('postgres-data:/var/lib/postgresql/data');
    expect(Object.keys(compose.volumes ?? {})).toContain('postgres-data');
  });
});

function balancerAddress(): string {
  const networks = service('balancer').networks;
  const address =
    networks !== undefined && !Array.isArray(networks) ? networks.backend?.ipv4_address : undefined;
  if (address === undefined) throw new Error('the balancer has no fixed address');
  return address;
}

describe('deploy/haproxy.cfg', () => {
  const mount = service('balancer').volumes?.find((v) => v.endsWith(':ro')) ?? '';
  const [source = '', target = ''] = mount.split(':');
  const text = read(source);

  /** Sections (`global`, `frontend http`, …) with their directives, comments dropped. */
  function sections(): Map<string, string[]> {
    const result = new Map<string, string[]>();
    let current: string[] | undefined;
    for (const [index, raw] of text.split('\n').entries()) {
      const line = raw.replace(/\s*#.*$/, '');
      if (line.trim() === '') continue;
      if (/^\S/.test(line)) {
        expect(line, `line ${index + 1}`).toMatch(
          /^(global|defaults|(frontend|backend|listen|resolvers) [a-z0-9_-]+)$/,
        );
        current = [];
        result.set(line, current);
      } else {
        if (current === undefined) throw new Error(`line ${index + 1}: directive before a section`);
        current.push(line.trim());
      }
    }
    return result;
  }

  it('is mounted where the official image reads it', () => {
    expect(source).toBe('./deploy/haproxy.cfg');
    expect(existsSync(join(root, source))).toBe(true);
    expect(target).toBe('/usr/local/etc/haproxy/haproxy.cfg');
  });

  it('parses into known sections, and the frontend sends to a backend that exists', () => {
    const parsed = sections();
    expect([...parsed.keys()]).toEqual(
      expect.arrayContaining(['global', 'defaults', 'frontend http', 'backend linkguard']),
    );
    const frontend = parsed.get('frontend http') ?? [];
    expect(frontend).toContain('bind :8402');
    const backend = frontend.find((d) => d.startsWith('default_backend '))?.split(' ')[1];
    expect(parsed.has(`backend ${backend ?? ''}`)).toBe(true);
  });

  it('replaces X-Forwarded-For with the address the balancer sees', () => {
    expect(sections().get('frontend http')).toContain(
      'http-request set-header X-Forwarded-For %[src]',
    );
  });

  it('names both instances and health-checks them on /v1/status', () => {
    const backend = sections().get('backend linkguard') ?? [];
    const servers = backend
      .filter((d) => d.startsWith('server '))
      .map((d) => d.split(/\s+/).slice(1, 3).join(' '));
    expect(servers).toEqual(INSTANCES.map((name) => `${name} ${name}:8402`));
    expect(backend).toContain('option httpchk');
    expect(backend.find((d) => d.startsWith('http-check send '))).toContain('uri /v1/status');
    expect(backend.find((d) => d.startsWith('default-server '))?.split(/\s+/)).toContain('check');
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile')
    .replaceAll(/\\\n/g, ' ') // continuation lines
    .split('\n')
    .filter((line) => !/^\s*#/.test(line) && line.trim() !== '');
  const args = new Map(
    dockerfile
      .map((line) => /^ARG (\w+)=(\S+)$/.exec(line))
      .filter((m) => m !== null)
      .map((m) => [m[1] ?? '', m[2] ?? '']),
  );
  const froms = dockerfile.filter((line) => line.startsWith('FROM '));
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf(froms.at(-1) ?? ''));

  it('is multi-stage, every base pinned by a version tag', () => {
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) {
      const image = (from.split(/\s+/)[1] ?? '').replace(
        /^\$\{(\w+)\}$/,
        (_m, name: string) => args.get(name) ?? '',
      );
      expect(image, from).toMatch(/^node:20\.\d+\.\d+-bookworm-slim$/);
    }
  });

  it('runs as a user other than root in the final stage', () => {
    const users = finalStage.filter((line) => line.startsWith('USER '));
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^USER (root|0)(:|$)/);
  });

  it('health-checks /v1/status, exposes the port and starts the server', () => {
    const healthcheck = finalStage.find((line) => line.startsWith('HEALTHCHECK '));
    expect(healthcheck).toContain('/v1/status');
    expect(finalStage).toContain('EXPOSE 8402');
    expect(finalStage.find((line) => line.startsWith('CMD '))).toContain(
      '"dist/src/cli/main.js", "serve"',
    );
  });

  it('copies data/ into the image, which the engine reads at run time', () => {
    expect(finalStage).toContain('COPY data ./data');
  });

  it('has every file it copies from the build context let in by .dockerignore', () => {
    const allowed = read('.dockerignore')
      .split('\n')
      .filter((line) => line.startsWith('!'))
      .map((line) => line.slice(1).replace(/\/$/, ''));
    expect(read('.dockerignore').split('\n')).toContain('*'); // an allowlist: .env stays out
    const sources = dockerfile
      .filter((line) => line.startsWith('COPY ') && !line.includes('--from='))
      .flatMap((line) => line.split(/\s+/).slice(1, -1));
    expect(sources.length).toBeGreaterThan(3);
    for (const source of sources) expect(allowed, source).toContain(source.replace(/\/$/, ''));
  });
});
