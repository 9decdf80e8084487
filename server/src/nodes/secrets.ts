import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';

// Node secrets and claim codes.
//
// A node secret (`tbn_…`) authenticates the node's agent, and it must be shown again to the
// node's owner (inside installation_url) every time they open the node page. Storing it in
// clear would let a database leak impersonate every node, so it is *derived* instead:
// secret = 'tbn_' + base64url(HMAC-SHA256(APP_KEY, 'node-secret:' + salt)), with a random
// salt stored in the row. The row alone (salt + SHA-256 of the secret, used for look-ups)
// yields nothing without APP_KEY, and the server can always recompute the secret for the
// owner. This was preferred to storing the secret encrypted: no cipher, nonce or key
// versioning to get right, and the same key (APP_KEY) already signs every other link.
// Changing APP_KEY changes the secrets shown for existing nodes (their agents keep working
// with the old one, which still matches the stored hash); a new salt rotates one node's secret.

export const NODE_SECRET_PREFIX = 'tbn_';
const SECRET_PATTERN = /^tbn_[A-Za-z0-9_-]{43}$/;

export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

export const newSecretSalt = () => randomBytes(16).toString('hex');

export function deriveNodeSecret(appKey: string, salt: string): string {
  return NODE_SECRET_PREFIX + createHmac('sha256', appKey).update(`node-secret:${salt}`).digest('base64url');
}

/** A fresh salt, its secret and the secret's hash as stored. */
export function newNodeSecret(appKey: string): { salt: string; secret: string; hash: string } {
  const salt = newSecretSalt();
  const secret = deriveNodeSecret(appKey, salt);
  return { salt, secret, hash: sha256Hex(secret) };
}

/** Whether a string can be a node secret at all (checked before any database look-up). */
export const isWellFormedSecret = (value: string) => SECRET_PATTERN.test(value);

/** Claim codes: 6 letters A–Z, shown on the machine's console, typed into /nodes/create. */
export const CLAIM_CODE_LENGTH = 6;
export const CLAIM_CODE_TTL_MS = 15 * 60_000;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export const newClaimCode = () => Array.from({ length: CLAIM_CODE_LENGTH }, () => LETTERS[randomInt(LETTERS.length)]).join('');
