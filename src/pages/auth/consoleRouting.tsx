import { forwardRef } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import type { ScreenLinkProps, ScreenRouting } from './screenRouting';

// The console's side of ScreenRouting (screenRouting.tsx): react-admin's router, react-router,
// for the logged-out screens the console shows when a session ends or a link is opened in it.

const ConsoleLink = forwardRef<HTMLAnchorElement, ScreenLinkProps>(function ConsoleLink(props, ref) {
  return <Link ref={ref} {...props} />;
});

export const consoleRouting: ScreenRouting = {
  Link: ConsoleLink,
  useLocation: () => {
    const { pathname, search, hash } = useLocation();
    return { pathname, search, hash };
  },
  useNavigate: () => {
    const navigate = useNavigate();
    return (to, options) => void navigate(to, options);
  },
  useParams: () => useParams(),
};
