import { Avatar, type AvatarProps } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { useSettings } from '../settings';
import { avatarImageUrl, initials } from '../utils/avatar';

export interface UserAvatarProps extends Omit<AvatarProps, 'src' | 'alt' | 'children'> {
  email: string;
  name: string;
  size?: number;
}

/**
 * The user's initials; or, when the server names an avatar service (AVATAR_URL), its image of
 * the email's SHA-256, falling back to the initials when the hash cannot be computed or the
 * image does not load: the external service never breaks the page.
 */
export const UserAvatar = ({ email, name, size = 40, sx, ...rest }: UserAvatarProps) => {
  const translate = useTranslate();
  const { avatarUrl } = useSettings();
  const [src, setSrc] = useState<string | undefined>(undefined);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let active = true;
    setFailed(false);
    avatarImageUrl(avatarUrl, email, Math.max(200, size)).then((url) => {
      if (active) setSrc(url);
    });
    return () => {
      active = false;
    };
  }, [avatarUrl, email, size]);

  return (
    <Avatar
      src={failed ? undefined : src}
      alt={translate('profile.avatar_alt', { name })}
      slotProps={{ img: { onError: () => setFailed(true), referrerPolicy: 'no-referrer' } }}
      sx={{ width: size, height: size, fontSize: size / 2.6, bgcolor: 'primary.main', ...sx }}
      {...rest}
    >
      {initials(name)}
    </Avatar>
  );
};
