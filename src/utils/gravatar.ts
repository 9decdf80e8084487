/** Gravatar URL of an email: SHA-256 of the trimmed, lowercased address (WebCrypto). */
export const GRAVATAR_SIZE = 200;

const hex = (buffer: ArrayBuffer): string =>
  Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');

export const emailHash = async (email: string): Promise<string | undefined> => {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined; // insecure context: no avatar, initials instead
  const data = new TextEncoder().encode(email.trim().toLowerCase());
  return hex(await subtle.digest('SHA-256', data));
};

export const gravatarUrl = async (email: string | undefined | null, size = GRAVATAR_SIZE): Promise<string | undefined> => {
  if (!email) return undefined;
  try {
    const hash = await emailHash(email);
    return hash ? `https://www.gravatar.com/avatar/${hash}?s=${size}&d=identicon` : undefined;
  } catch {
    return undefined;
  }
};

/** Up to two initials, for the avatar fallback. */
export const initials = (name: string): string =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
