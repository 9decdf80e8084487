import CheckIcon from '@mui/icons-material/Check';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Button, type ButtonProps } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';

/** How long 'Copied' shows after a copy (2 seconds, a product constant). */
export const COPIED_DURATION_MS = 2000;

const legacyCopy = (text: string): boolean => {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  let ok: boolean;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
};

export const copyText = async (text: string): Promise<boolean> => {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the legacy way (insecure context, denied permission)
  }
  return legacyCopy(text);
};

export interface CopyButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  text: string;
}

/** 'Copy' button that says 'Copied' for two seconds after copying `text`. */
export const CopyButton = ({ text, ...rest }: CopyButtonProps) => {
  const translate = useTranslate();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const onClick = async () => {
    if (!(await copyText(text))) return;
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_DURATION_MS);
  };

  return (
    <Button
      variant="outlined"
      onClick={onClick}
      startIcon={copied ? <CheckIcon /> : <ContentCopyIcon />}
      color={copied ? 'success' : 'primary'}
      {...rest}
    >
      {translate(copied ? 'app.action.copied' : 'app.action.copy')}
    </Button>
  );
};
