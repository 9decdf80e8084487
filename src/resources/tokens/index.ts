import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import type { ResourceProps } from 'react-admin';
import { lazyNamed } from '../../utils/lazyNamed';

// Pages load with their resource (code splitting keeps the first load small).
const TokenList = lazyNamed(() => import('./TokenList'), 'TokenList');
const TokenCreate = lazyNamed(() => import('./TokenCreate'), 'TokenCreate');

/** Personal access tokens: GET/POST /api/tokens, DELETE /api/tokens/{name}. */
const tokens: ResourceProps = {
  name: 'tokens',
  list: TokenList,
  create: TokenCreate,
  icon: KeyOutlinedIcon,
  recordRepresentation: 'name',
};

export default tokens;
