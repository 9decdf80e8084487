import { Alert, AlertTitle } from '@mui/material';
import { useTranslate } from 'react-admin';

// The install commands download the script from the console's public address (the server's
// APP_URL, inside installation_url and the settings' nodeInstall.scriptUrl), then run it as
// root. Two addresses deserve a word before anyone pastes the command on a machine:
// - a loopback address (localhost, 127.x, ::1): the machine reaches itself, not the console,
//   so it only works for a node on the very machine the console runs on (the default APP_URL
//   of a local `npm start`);
// - plain http elsewhere: the node's secret and the script that runs as root cross the network
//   in clear, where anyone on the way can read or change them.

export type InstallAddressRisk = 'loopback' | 'plain-http';

/** Host names a machine resolves to itself (RFC 6761 `localhost`, 127.0.0.0/8, ::1, unspecified). */
const isLoopbackHost = (hostname: string): boolean => {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === '0.0.0.0' ||
    host === '[::1]' ||
    host === '[::]' ||
    // ::ffff:127.x.y.z, as the URL parser writes it.
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host)
  );
};

/** What is wrong with the address a command downloads from, if anything. */
export function installAddressRisk(url: string | null | undefined): InstallAddressRisk | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (isLoopbackHost(parsed.hostname)) return 'loopback';
  if (parsed.protocol === 'http:') return 'plain-http';
  return null;
}

/** The warning under an install command, for the address `url` it downloads from; nothing when it is fine. */
export const InstallAddressNotice = ({ url }: { url: string | null | undefined }) => {
  const translate = useTranslate();
  const risk = installAddressRisk(url);
  if (!risk) return null;
  const address = new URL(url!).origin;
  const key = risk === 'loopback' ? 'loopback' : 'http';
  return (
    // A note, not an alert: it is there when the page opens, nothing happened to announce.
    <Alert severity="warning" role="note" sx={{ mt: 1.5 }} data-testid="install-address-notice" data-risk={risk}>
      <AlertTitle>{translate(`nodes.install.address_${key}_title`)}</AlertTitle>
      {translate(`nodes.install.address_${key}`, { address })}
    </Alert>
  );
};
