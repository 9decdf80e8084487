import { startTestProvider } from '../server/test/oidcProvider.js';

// npm run oidc:dev: a local OpenID provider to try institutional sign-in (docs/configuration.md, "Institutional
// sign-in"). oidc-provider on http://127.0.0.1:9400 (OIDC_DEV_PORT) with a client for the console
// at APP_URL (http://localhost:8000 by default) and three accounts to choose from on its page.

const port = Number(process.env.OIDC_DEV_PORT ?? 9400);
const appUrl = (process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 8000}`).replace(/\/+$/, '');
const redirectUris = [...new Set([`${appUrl}/auth/oidc/callback`, `http://127.0.0.1:${process.env.PORT ?? 8000}/auth/oidc/callback`])];

const provider = await startTestProvider({
  port,
  redirectUris,
  interactive: true,
  accounts: {
    'ada-1815': { email: 'ada@uni.example', email_verified: true, given_name: 'Ada', family_name: 'Lovelace' },
    'alan-1912': { email: 'alan@uni.example', email_verified: true, given_name: 'Alan', family_name: 'Turing' },
    'grace-1906': { email: 'grace@lab.example', email_verified: false, given_name: 'Grace', family_name: 'Hopper' },
  },
});

console.log(`Test OpenID provider at ${provider.issuer} (redirect URIs: ${redirectUris.join(', ')})`);
console.log('Start the console with:');
console.log(`  OIDC_ISSUER=${provider.issuer} OIDC_CLIENT_ID=${provider.clientId} OIDC_CLIENT_SECRET=${provider.clientSecret} OIDC_NAME="Test University" npm start`);
console.log('Accounts: ada@uni.example and alan@uni.example (verified), grace@lab.example (email_verified false). Ctrl-C stops it.');

const stop = () => void provider.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
