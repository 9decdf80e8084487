import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installAddressRisk } from '../src/resources/nodes/InstallAddressNotice';
import { db, requestsTo } from './mocks/db';
import { makeUser } from './mocks/fixtures';
import { makeNode, nodesDb } from './mocks/nodes';
import { errorUnder, field, findField } from './queries';
import { renderApp } from './render';

// Before anyone pastes an install command on a machine: the address it downloads from (the
// server's APP_URL) must be one that machine reaches, and should not be plain http in
// production (InstallAddressNotice.tsx). And a node's name is its own (the server refuses a
// hostname another node goes by, on the hostname field).

const LOOPBACK = 'This address only works on this machine';
const PLAIN_HTTP = 'Not encrypted';

describe('installAddressRisk', () => {
  it('calls loopback what a machine resolves to itself', () => {
    for (const url of [
      'http://localhost/agent/install/tbn_x',
      'http://LOCALHOST:8000/agent/install',
      'https://localhost/agent/install',
      'http://console.localhost:8000/agent/install',
      'http://127.0.0.1:8000/agent/install',
      'http://127.10.20.30/agent/install',
      'http://[::1]:8000/agent/install',
      'http://[::ffff:127.0.0.1]/agent/install',
      'http://0.0.0.0:8000/agent/install',
    ]) {
      expect(installAddressRisk(url), url).toBe('loopback');
    }
  });

  it('calls plain http any other http address, and finds nothing to say about https', () => {
    expect(installAddressRisk('http://192.168.1.10:8000/agent/install')).toBe('plain-http');
    expect(installAddressRisk('http://console.lab.example/agent/install')).toBe('plain-http');
    expect(installAddressRisk('http://128.0.0.1/agent/install')).toBe('plain-http');
    expect(installAddressRisk('http://localhost.example.org/agent/install')).toBe('plain-http');
    expect(installAddressRisk('https://console.lab.example/agent/install/tbn_x')).toBeNull();
    expect(installAddressRisk('https://[2001:db8::1]/agent/install')).toBeNull();
    expect(installAddressRisk('')).toBeNull();
    expect(installAddressRisk('not a url')).toBeNull();
  });
});

describe('the install command on the node page', () => {
  const openNode = async (installationUrl: string) => {
    nodesDb.nodes = [makeNode({ id: 41, name: null, status: 'to install', info: {}, installation_url: installationUrl })];
    renderApp({ path: '/nodes/41', loggedIn: true });
    return screen.findByRole('region', { name: 'Install from terminal' });
  };

  it('on a loopback address, says that only a node on this very machine reaches it, and what to set instead', async () => {
    const terminal = await openNode('http://127.0.0.1:8000/agent/install/tbn_secret41');
    const notice = within(terminal).getByTestId('install-address-notice');
    expect(notice).toHaveTextContent(LOOPBACK);
    expect(notice).toHaveTextContent('downloads the installer from http://127.0.0.1:8000, a loopback address');
    expect(notice).toHaveTextContent('only a node on the very machine that runs the console can reach it');
    expect(notice).toHaveTextContent(/set APP_URL to an address that machine can reach \(with https in production\)/);
    expect(notice).not.toHaveTextContent('tbn_secret41');
  });

  it('on plain http elsewhere, says that the secret and the script travel in clear, and that production needs https', async () => {
    const terminal = await openNode('http://console.lab.example:8000/agent/install/tbn_secret41');
    const notice = within(terminal).getByTestId('install-address-notice');
    expect(notice).toHaveTextContent(PLAIN_HTTP);
    expect(notice).toHaveTextContent('from http://console.lab.example:8000 over plain http');
    expect(notice).toHaveTextContent('the node’s secret token and the install script travel in clear');
    expect(notice).toHaveTextContent('In production, the console must be served over https');
  });

  it('on https, says nothing', async () => {
    const terminal = await openNode('https://console.lab.example/agent/install/tbn_secret41');
    expect(within(terminal).getByText(/^curl -fsSL 'https:/)).toBeInTheDocument();
    expect(screen.queryByTestId('install-address-notice')).not.toBeInTheDocument();
  });

  it('says it in French', async () => {
    db.user = makeUser({ locale: 'fr' });
    nodesDb.nodes = [makeNode({ id: 41, name: null, status: 'to install', info: {}, installation_url: 'http://localhost:8000/agent/install/tbn_secret41' })];
    renderApp({ path: '/nodes/41', loggedIn: true });
    // The console turns French once it has the person's locale.
    const notice = (await screen.findByText('Cette adresse ne fonctionne que sur cette machine')).closest<HTMLElement>('[data-testid="install-address-notice"]')!;
    expect(notice).toHaveTextContent('depuis http://localhost:8000, une adresse de bouclage');
  });
});

describe('the generic install command on /nodes/create', () => {
  const openHelp = async (scriptUrl: string) => {
    const { user } = renderApp({ path: '/nodes/create', loggedIn: true, settings: { nodeInstall: { scriptUrl, imageUrl: scriptUrl.replace(/install$/, 'image') } } });
    await user.click(await screen.findByRole('button', { name: 'No code yet? Prepare the machine first' }));
    return screen.getByTestId('generic-install-command').closest('[id="machine-first-help"]') as HTMLElement;
  };

  it('warns the same way about a loopback address', async () => {
    const help = await openHelp('http://localhost:8000/agent/install');
    expect(within(help).getByTestId('install-address-notice')).toHaveTextContent(LOOPBACK);
  });

  it('and about plain http, in French too', async () => {
    db.user = makeUser({ locale: 'fr' });
    const { user } = renderApp({
      path: '/nodes/create',
      loggedIn: true,
      settings: { nodeInstall: { scriptUrl: 'http://console.lab.example/agent/install', imageUrl: 'http://console.lab.example/agent/image' } },
    });
    await user.click(await screen.findByRole('button', { name: 'Pas encore de code ? Préparez d’abord la machine' }));
    const notice = (await screen.findByText('Connexion non chiffrée')).closest<HTMLElement>('[data-testid="install-address-notice"]')!;
    expect(notice).toHaveTextContent('le jeton secret du nœud et le script d’installation circulent en clair');
  });
});

describe('a name another node goes by', () => {
  it('is refused under the Hostname field; the form keeps what was typed and stays on the page', async () => {
    nodesDb.nodes = [makeNode({ id: 41, name: 'lab-pi-01', hostname: 'lab-pi-01', owner: { id: 2, name: 'Grace Hopper' } })];
    const { user } = renderApp({ path: '/nodes/create', loggedIn: true });
    await user.click(await findField('Type'));
    await user.click(await screen.findByRole('option', { name: 'Raspberry Pi' }));
    await user.type(field('Hostname'), 'lab-pi-01');
    await user.click(screen.getByRole('button', { name: 'Add a new node' }));

    await waitFor(() => expect(errorUnder('Hostname')).toBe('This name is already used by another node. Choose another hostname.'));
    expect(screen.getByRole('alert')).toHaveTextContent('Registration error');
    expect(field('Hostname')).toHaveValue('lab-pi-01');
    expect(requestsTo('POST', '/api/nodes')).toHaveLength(1);
    expect(nodesDb.nodes).toHaveLength(1);
  });
});
