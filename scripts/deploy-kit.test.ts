import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// A dependency of @fastify/swagger (production), so always installed.
import { parse } from 'yaml';
import { ConfigError, loadConfig } from '../src/server/config';

/**
 * Issue #34's second guard: compose.yaml once set TRUST_PROXY: "true", which the app refuses at start, so
 * both instances crash-looped and no test noticed. Every service of compose.yaml that runs the Hiram server
 * gets the environment the container would see (the Dockerfile's ENV, then compose's `environment`, with
 * `${…}` filled in from deploy/env.example as an operator fills it in) and goes through the app's own
 * validation, loadConfig.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** deploy/env.example as KEY=value pairs (comments and blank lines left out). */
function readEnvFile(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) values.set(match[1]!, match[2]!);
  }
  return values;
}

/**
 * What an operator puts in the values env.example leaves blank (the secrets it tells them to generate). A new
 * blank value fails the test until it is added here, so the guard never runs on an empty secret.
 */
const operatorValues: Record<string, () => string> = {
  SESSION_SECRET: () => randomBytes(48).toString('base64'),
  POSTGRES_PASSWORD: () => randomBytes(24).toString('base64'),
  S3_SECRET_ACCESS_KEY: () => randomBytes(24).toString('base64'),
  SMS_WEBHOOK_URL: () => 'https://sms-gateway.example.ph/hiram?token=abc123',
  SUPPORT_EMAIL: () => 'help@lender.example.ph',
};

/** Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}, $VAR, $$. */
function interpolate(text: string, env: Map<string, string>, missing: Set<string>): string {
  return text.replace(
    /\$(?:\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (whole, braced?: string, op?: string, arg?: string, bare?: string) => {
      if (whole === '$$') return '$';
      const name = (braced ?? bare)!;
      const value = env.get(name);
      const unset = value === undefined || (op?.startsWith(':') && value === '');
      if (!unset) return value;
      if (op?.endsWith('-')) return arg ?? '';
      if (op?.endsWith('?')) missing.add(`${name} (${arg})`);
      return '';
    },
  );
}

/** The runtime stage's `ENV a=b c=d` of the Dockerfile (the last FROM). */
function dockerfileEnv(text: string): Record<string, string> {
  const joined = text.replace(/\\\n/g, ' ');
  const stage = joined.slice(joined.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const line of stage.split('\n').filter((l) => l.startsWith('ENV '))) {
    for (const [, key, value] of line.slice(4).matchAll(/([A-Z_][A-Z0-9_]*)=(\S*)/g)) env[key!] = value!;
  }
  return env;
}

interface ComposeService {
  image?: string;
  command?: unknown;
  environment?: Record<string, string | number | boolean | null> | string[];
}

function serviceEnv(service: ComposeService): Record<string, string> {
  const given = service.environment ?? {};
  if (Array.isArray(given)) {
    return Object.fromEntries(
      given.map((entry) => [entry.split('=')[0], entry.split('=').slice(1).join('=')]),
    );
  }
  return Object.fromEntries(Object.entries(given).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

const example = readEnvFile(read('deploy/env.example'));
const filled = new Map(
  [...example].map(([key, value]) => [
    key,
    value === '' && operatorValues[key] ? operatorValues[key]() : value,
  ]),
);
const missing = new Set<string>();
const compose = parse(interpolate(read('compose.yaml'), filled, missing), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const imageEnv = dockerfileEnv(read('Dockerfile'));
/** The services that run the Hiram server: its image and its own command. */
const servers = Object.entries(compose.services).filter(
  ([, service]) => service.image?.startsWith('hiram') && service.command === undefined,
);

const dataDir = mkdtempSync(join(tmpdir(), 'hiram-deploy-kit-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
/** The container's environment; DATA_DIR in a temporary folder (no secret file lands in the repository). */
const containerEnv = (service: ComposeService) => ({
  ...imageEnv,
  ...serviceEnv(service),
  DATA_DIR: dataDir,
});

describe('the deploy kit (compose.yaml, deploy/env.example, Dockerfile)', () => {
  it('env.example leaves blank only values an operator must choose, and gives every one compose requires', () => {
    expect([...example].filter(([key, value]) => value === '' && !operatorValues[key])).toEqual([]);
    expect([...missing]).toEqual([]);
  });

  it('runs the server in two instances at least', () => {
    expect(servers.map(([name]) => name)).toEqual(expect.arrayContaining(['app-a', 'app-b']));
  });

  it('gives every instance a configuration the app accepts, for production, on PostgreSQL and S3', () => {
    for (const [name, service] of servers) {
      let config: ReturnType<typeof loadConfig>;
      try {
        config = loadConfig(containerEnv(service));
      } catch (error) {
        throw new Error(`${name}: ${(error as Error).message}`);
      }
      expect(config.env, name).toBe('production');
      expect(config.databaseUrl, name).toMatch(/^postgres:\/\/hiram:.+@postgres:5432\/hiram$/);
      expect(config.storage.kind, name).toBe('s3');
      expect(config.trustProxy, name).not.toBe(false);
      expect(config.devOutbox, name).toBe(false);
      expect(config.secureCookies, name).toBe(true);
    }
  });

  it('gives every instance the same settings (one secret, one database, one bucket)', () => {
    const [first, ...others] = servers.map(([, service]) => serviceEnv(service));
    for (const other of others) expect(other).toEqual(first);
  });

  it('has the bucket step create the bucket the instances use, with their credentials', () => {
    const step = serviceEnv(compose.services['s3-bucket']!);
    const app = serviceEnv(servers[0]![1]);
    for (const key of [
      'S3_BUCKET',
      'S3_ENDPOINT',
      'S3_REGION',
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
    ]) {
      expect(step[key], key).toBe(app[key]);
    }
  });

  it('would refuse a setting the app refuses (TRUST_PROXY "true", as #34 found)', () => {
    const [, service] = servers[0]!;
    expect(() => loadConfig({ ...containerEnv(service), TRUST_PROXY: 'true' })).toThrow(ConfigError);
  });
});
