import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { createTestContext, type TestContext } from './helpers.js';

// Avatars: initials drawn in the browser unless AVATAR_URL names a service. By default nothing
// leaves the testbed (no email hash sent to a third party) and the CSP allows no outside image.

const cspImages = (headers: Record<string, unknown>) =>
  String(headers['content-security-policy'])
    .split(';')
    .map((directive) => directive.trim())
    .find((directive) => directive.startsWith('img-src'));

describe('without AVATAR_URL', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx?.close());

  it('tells the console to draw initials, and lets no outside image in', async () => {
    const settings = await ctx.app.inject({ method: 'GET', url: '/api/settings' });
    expect(settings.json().avatarUrl).toBeNull();
    expect(cspImages(settings.headers)).toBe("img-src 'self' data:");
  });
});

describe('with AVATAR_URL', () => {
  let ctx: TestContext;
  const avatarUrl = 'https://www.gravatar.com/avatar/{hash}?s={size}&d=identicon';
  beforeAll(async () => {
    ctx = await createTestContext({ config: { avatarUrl } });
  });
  afterAll(() => ctx?.close());

  it('hands the service to the console and allows its origin for images', async () => {
    const settings = await ctx.app.inject({ method: 'GET', url: '/api/settings' });
    expect(settings.json().avatarUrl).toBe(avatarUrl);
    expect(cspImages(settings.headers)).toBe("img-src 'self' data: https://www.gravatar.com");
  });
});

describe('AVATAR_URL in the environment', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'testbed-avatars-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const load = (env: Record<string, string>) => loadConfig({ STORAGE_DIR: join(dir, 'storage'), ...env }, { envFile: null });

  it('is off unless set, and must be https with {hash}', () => {
    expect(load({}).avatarUrl).toBeNull();
    expect(load({ AVATAR_URL: 'https://avatars.example.org/{hash}.png' }).avatarUrl).toBe('https://avatars.example.org/{hash}.png');
    for (const bad of ['http://avatars.example.org/{hash}', 'https://avatars.example.org/fixed.png', 'not a url']) {
      expect(() => load({ AVATAR_URL: bad })).toThrow(ConfigError);
    }
  });
});
