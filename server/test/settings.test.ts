import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeSettings } from '../src/settings/routes.js';
import { createTestContext, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('GET /api/settings', () => {
  it('answers the runtime settings without authentication', async () => {
    const response = await ctx.inject('GET', '/api/settings');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      appName: 'Testbed Console',
      apiUrl: '',
      sandbox: true,
      cluster: 'sandbox',
      realtime: { key: 'testbed', host: 'console.test', port: 8080, forceTLS: false },
      nodeInstall: { scriptUrl: `${ctx.config.appUrl}/agent/install`, imageUrl: `${ctx.config.appUrl}/agent/image` },
      oidcProviders: [],
      // No avatar service unless AVATAR_URL names one: initials, nothing asked of a third party.
      avatarUrl: null,
    });
  });

  it('follows the configuration', () => {
    const settings = runtimeSettings({ ...ctx.config, cluster: 'none', realtime: { key: 'k', host: 'rt.example.org', port: 6001, publicPort: 443, scheme: 'https' } });
    expect(settings.sandbox).toBe(false);
    expect(settings.cluster).toBe('none');
    expect(settings.realtime).toEqual({ key: 'k', host: 'rt.example.org', port: 443, forceTLS: true });
    expect(runtimeSettings({ ...ctx.config, appUrl: 'https://testbed.example.org' }).nodeInstall).toEqual({
      scriptUrl: 'https://testbed.example.org/agent/install',
      imageUrl: 'https://testbed.example.org/agent/image',
    });
  });
});
