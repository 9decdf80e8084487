import { Avatar, type AvatarProps } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { gravatarUrl, initials } from '../utils/gravatar';

export interface UserAvatarProps extends Omit<AvatarProps, 'src' | 'alt' | 'children'> {
  email: string;
  name: string;
  size?: number;
}

/**
 * Gravatar of the user (SHA-256 of the email, identicon default), falling back to initials
 * when the hash cannot be computed or the image does not load: the external service never
 * breaks the page.
 */
export const UserAvatar = ({ email, name, size = 40, sx, ...rest }: UserAvatarProps) => {
  const translate = useTranslate();
  const [src, setSrc] = useState<string | undefined>(undefined);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let active = true;
    setFailed(false);
    gravatarUrl(email, Math.max(200, size)).then((url) => {
      if (active) setSrc(url);
    });
    return () => {
      active = false;
    };
  }, [email, size]);

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
