import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_RATE_LIMITS, loadConfig } from '../src/config/config.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'testbed-console-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const load = (env: Record<string, string>, envFile: string | null = null) => loadConfig({ STORAGE_DIR: join(dir, 'storage'), ...env }, { envFile });

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = load({});
    expect(config).toMatchObject({
      port: 8000,
      host: '127.0.0.1',
      // The address it listens on: the one address printed, mailed and opened.
      appUrl: 'http://127.0.0.1:8000',
      databaseUrl: `sqlite:${join(dir, 'storage', 'console.sqlite')}`,
      storageDir: join(dir, 'storage'),
      mailUrl: null,
      mailFrom: 'console@localhost',
      cluster: 'sandbox',
      kubeconfig: null,
      clusterServerUrl: null,
      sandboxClusterPort: 0,
      realtime: { port: 8080, host: '127.0.0.1', key: 'testbed', publicPort: 8080, scheme: 'http' },
      rateLimits: DEFAULT_RATE_LIMITS,
      staticDir: resolve('dist'),
    });
  });

  it('derives APP_URL from PORT and the realtime host from APP_URL', () => {
    expect(load({ PORT: '9000' }).appUrl).toBe('http://127.0.0.1:9000');
    expect(load({ HOST: '0.0.0.0' }).appUrl).toBe('http://localhost:8000');
    expect(load({ HOST: '::1' }).appUrl).toBe('http://[::1]:8000');
    const config = load({ APP_URL: 'https://testbed.example.org/' });
    expect(config.appUrl).toBe('https://testbed.example.org');
    expect(config.realtime.host).toBe('testbed.example.org');
  });

  it('reads every variable', () => {
    const config = load({
      PORT: '8123',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u:p@db/testbed',
      MAIL_URL: 'smtps://u:p@mail.example.org:465',
      MAIL_FROM: 'Testbed <testbed@example.org>',
      APP_KEY: 'k'.repeat(32),
      CLUSTER: 'kubernetes',
      KUBECONFIG: '/etc/kube/config',
      CLUSTER_SERVER_URL: 'https://k8s.example.org:6443/',
      SANDBOX_CLUSTER_PORT: '6443',
      REVERB_PORT: '6001',
      REVERB_HOST: 'ws.example.org',
      REVERB_APP_KEY: 'app-key',
      RATE_LIMITS: 'off',
      STATIC_DIR: '/srv/console',
    });
    expect(config).toMatchObject({
      port: 8123,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u:p@db/testbed',
      mailUrl: 'smtps://u:p@mail.example.org:465',
      mailFrom: 'Testbed <testbed@example.org>',
      appKey: 'k'.repeat(32),
      cluster: 'kubernetes',
      kubeconfig: '/etc/kube/config',
      clusterServerUrl: 'https://k8s.example.org:6443',
      sandboxClusterPort: 6443,
      realtime: { port: 6001, host: 'ws.example.org', key: 'app-key' },
      rateLimits: null,
      staticDir: '/srv/console',
    });
  });

  const productionEnv = {
    NODE_ENV: 'production',
    APP_KEY: 'a-production-key-0123456789abcdef',
    APP_URL: 'https://console.example.org',
    MAIL_URL: 'smtp://mail.example.org:587',
  };

  it('has no cluster by default in production', () => {
    expect(load(productionEnv).cluster).toBe('none');
    expect(load({ ...productionEnv, CLUSTER: 'sandbox' }).cluster).toBe('sandbox');
    expect(load(productionEnv).production).toBe(true);
    expect(load({}).production).toBe(false);
  });

  it('refuses to start in production without APP_KEY, APP_URL and MAIL_URL, naming each', () => {
    const problem = (env: Record<string, string>) => {
      try {
        load(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('loadConfig accepted the configuration');
    };
    const all = problem({ NODE_ENV: 'production' });
    for (const name of ['APP_KEY', 'APP_URL', 'MAIL_URL']) expect(all).toContain(`${name} is required when NODE_ENV=production`);
    const { MAIL_URL: _mail, ...withoutMail } = productionEnv;
    const one = problem(withoutMail);
    expect(one).toContain('MAIL_URL is required');
    expect(one).not.toContain('APP_KEY is required');
    // An empty value (a .env template's `APP_KEY=`) is as good as missing.
    expect(problem({ ...productionEnv, APP_KEY: '' })).toContain('APP_KEY is required');
    // No key file is written when the configuration is refused.
    expect(() => statSync(join(dir, 'storage', 'app-key'))).toThrow();
  });

  it('tells browsers where realtime is, which behind an Ingress is not where it listens', () => {
    expect(load({ APP_URL: 'https://console.example.org' }).realtime).toMatchObject({ port: 8080, publicPort: 8080, scheme: 'https' });
    expect(load({ REVERB_PORT: '8080', REVERB_PUBLIC_PORT: '443', REVERB_SCHEME: 'https' }).realtime).toMatchObject({
      port: 8080,
      publicPort: 443,
      scheme: 'https',
    });
    expect(() => load({ REVERB_SCHEME: 'ws' })).toThrow(/REVERB_SCHEME must be http or https/);
  });

  it('reads LOG_LEVEL and DATABASE_POOL_SIZE', () => {
    expect(load({})).toMatchObject({ logLevel: 'info', databasePoolSize: 10 });
    expect(load({ LOG_LEVEL: 'warn', DATABASE_POOL_SIZE: '25' })).toMatchObject({ logLevel: 'warn', databasePoolSize: 25 });
    expect(() => load({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/);
    expect(() => load({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE must be at least 1/);
  });

  it('reads USAGE_SAMPLE_SECONDS: 60 by default, a whole number of seconds from 1', () => {
    expect(load({}).usageSampleSeconds).toBe(60);
    expect(load({ USAGE_SAMPLE_SECONDS: '15' }).usageSampleSeconds).toBe(15);
    expect(() => load({ USAGE_SAMPLE_SECONDS: '0' })).toThrow(/USAGE_SAMPLE_SECONDS must be at least 1/);
    expect(() => load({ USAGE_SAMPLE_SECONDS: '1.5' })).toThrow(/USAGE_SAMPLE_SECONDS must be a whole number/);
    expect(() => load({ USAGE_SAMPLE_SECONDS: 'often' })).toThrow(/USAGE_SAMPLE_SECONDS must be a number/);
  });

  it('generates APP_KEY once into STORAGE_DIR/app-key and reuses it', () => {
    const first = load({});
    const keyFile = join(dir, 'storage', 'app-key');
    expect(first.appKey).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(keyFile, 'utf8').trim()).toBe(first.appKey);
    expect(statSync(keyFile).mode & 0o077).toBe(0);
    expect(load({}).appKey).toBe(first.appKey);
  });

  it('reads a .env file, with the environment taking precedence, and treats empty values as unset', () => {
    const envFile = join(dir, '.env');
    writeFileSync(envFile, 'PORT=9100\nMAIL_FROM=from-file@example.org\nMAIL_URL=\n');
    const config = load({ PORT: '9200' }, envFile);
    expect(config.port).toBe(9200);
    expect(config.mailFrom).toBe('from-file@example.org');
    expect(config.mailUrl).toBeNull();
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a port number.*"eighty"/],
    [{ PORT: '70000' }, /PORT must be between 0 and 65535/],
    [{ APP_URL: 'ftp://example.org' }, /APP_URL must be an http/],
    [{ DATABASE_URL: 'mysql://db/x' }, /DATABASE_URL must be sqlite:<file> or postgres:/],
    [{ MAIL_URL: 'mail.example.org' }, /MAIL_URL must be smtp:/],
    [{ APP_KEY: 'short' }, /APP_KEY must be at least 16 characters/],
    [{ CLUSTER: 'docker' }, /CLUSTER must be kubernetes, sandbox or none/],
    [{ RATE_LIMITS: 'maybe' }, /RATE_LIMITS must be on or off/],
  ])('refuses %j with a clear message', (env, message) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(message);
  });

  it('wants an https:// public API server address and a port for the sandbox', () => {
    expect(() => load({ CLUSTER_SERVER_URL: 'http://k8s.example.org' })).toThrow(/CLUSTER_SERVER_URL must be an https:\/\/ URL/);
    expect(() => load({ SANDBOX_CLUSTER_PORT: '70000' })).toThrow(/SANDBOX_CLUSTER_PORT must be between 0 and 65535/);
  });

  it('trusts no proxy unless TRUST_PROXY says which', () => {
    expect(load({}).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(load({ TRUST_PROXY: ' 10.0.0.1, 192.168.0.0/16 ,loopback,::1' }).trustProxy).toEqual(['10.0.0.1', '192.168.0.0/16', 'loopback', '::1']);
  });

  it.each([
    ['2', /TRUST_PROXY takes the addresses or CIDR ranges of the proxies, not a hop count/],
    ['proxy.example.org', /TRUST_PROXY must be true, false, or a comma-separated list of IP addresses or CIDR ranges \("proxy.example.org" is neither\)/],
    ['10.0.0.0/33', /"10.0.0.0\/33" is neither/],
  ])('refuses TRUST_PROXY=%s', (value, message) => {
    expect(() => load({ TRUST_PROXY: value })).toThrow(ConfigError);
    expect(() => load({ TRUST_PROXY: value })).toThrow(message);
  });

  it('names every bad variable at once', () => {
    try {
      load({ PORT: 'x', CLUSTER: 'y' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toMatch(/^Invalid configuration:\n {2}- PORT.*\n {2}- CLUSTER/);
    }
  });
});
