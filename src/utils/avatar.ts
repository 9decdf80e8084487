/** The avatar size asked of the avatar service, in pixels. */
export const AVATAR_SIZE = 200;

const hex = (buffer: ArrayBuffer): string =>
  Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** SHA-256 of the trimmed, lowercased address (WebCrypto), as avatar services key their images. */
export const emailHash = async (email: string): Promise<string | undefined> => {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined; // insecure context: no avatar, initials instead
  const data = new TextEncoder().encode(email.trim().toLowerCase());
  return hex(await subtle.digest('SHA-256', data));
};

/**
 * The image of an email at the avatar service the server names (`avatarUrl` of GET
 * /api/settings, with `{hash}` and `{size}`), or undefined: no service (the default, so that no
 * third party learns who uses the testbed), no email, or no WebCrypto. Initials show instead.
 */
export const avatarImageUrl = async (template: string | null | undefined, email: string | undefined | null, size = AVATAR_SIZE): Promise<string | undefined> => {
  if (!template || !email) return undefined;
  try {
    const hash = await emailHash(email);
    return hash ? template.replaceAll('{hash}', hash).replaceAll('{size}', String(size)) : undefined;
  } catch {
    return undefined;
  }
};

/** Up to two initials, drawn as the avatar. */
export const initials = (name: string): string =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
