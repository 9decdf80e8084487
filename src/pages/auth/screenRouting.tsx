import { type AnchorHTMLAttributes, createContext, forwardRef, type ReactNode, useContext } from 'react';

// The screens a visitor meets before signing in (login, registration, password reset, email
// verification, invitations, the institution's callback) run under two routers: the logged-out
// bundle's (wouter, about 2 kB, so that /login does not load react-router's 47 kB) and the
// console's (react-router, which react-admin needs), where the same screens show once a session
// ends. They reach the router through this context only, and each side supplies its own.

export interface ScreenLocation {
  pathname: string;
  /** With its '?', or '' (as window.location.search). */
  search: string;
  /** With its '#', or ''. */
  hash: string;
}

export type ScreenNavigate = (to: string, options?: { replace?: boolean }) => void;

export type ScreenLinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string; children?: ReactNode };

export interface ScreenRouting {
  /** A link within the app; MUI's `component` prop takes it. */
  Link: React.ForwardRefExoticComponent<ScreenLinkProps & React.RefAttributes<HTMLAnchorElement>>;
  useLocation: () => ScreenLocation;
  useNavigate: () => ScreenNavigate;
  /** The matched route's parameters (`:id` and the like). */
  useParams: () => Readonly<Record<string, string | undefined>>;
}

export const ScreenRoutingContext = createContext<ScreenRouting | null>(null);

const useScreenRouting = (): ScreenRouting => {
  const routing = useContext(ScreenRoutingContext);
  if (!routing) throw new Error('A logged-out screen rendered outside ScreenRoutingContext (LoggedOutApp and ConsoleApp supply it)');
  return routing;
};

// Each hook calls the same router's hook on every render: the context is set once per app.
export const useScreenLocation = (): ScreenLocation => useScreenRouting().useLocation();
export const useScreenNavigate = (): ScreenNavigate => useScreenRouting().useNavigate();
export const useScreenParams = (): Readonly<Record<string, string | undefined>> => useScreenRouting().useParams();

/** A link to a path of the app, through whichever router the screen runs under. */
export const ScreenLink = forwardRef<HTMLAnchorElement, ScreenLinkProps>(function ScreenLink(props, ref) {
  const { Link } = useScreenRouting();
  return <Link ref={ref} {...props} />;
});
