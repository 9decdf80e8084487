import { forwardRef } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { navigate, useLocationProperty, useSearch } from 'wouter/use-browser-location';
import type { ScreenLinkProps, ScreenRouting } from './screenRouting';

// The logged-out bundle's side of ScreenRouting (screenRouting.tsx): wouter on the browser's
// history. The console (App.tsx) supplies react-router's.

const currentHash = () => window.location.hash;

const LoggedOutLink = forwardRef<HTMLAnchorElement, ScreenLinkProps>(function LoggedOutLink({ to, ...props }, ref) {
  return <Link ref={ref} href={to} {...props} />;
});

export const loggedOutRouting: ScreenRouting = {
  Link: LoggedOutLink,
  useLocation: () => {
    const [pathname] = useLocation();
    const search = useSearch();
    const hash = useLocationProperty(currentHash);
    return { pathname, search, hash };
  },
  // wouter's own useLocation hands out the same function; this one needs no router context.
  useNavigate: () => navigate,
  useParams: () => useParams(),
};
