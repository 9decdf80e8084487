import { Loading } from 'react-admin';

/** Full-page "Loading" while the session is read or a screen's chunk arrives. */
export const SessionLoading = () => (
  <div style={{ height: '100vh' }}>
    <Loading loadingPrimary="app.loading" loadingSecondary="" />
  </div>
);
