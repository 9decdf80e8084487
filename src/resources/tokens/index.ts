import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import type { ResourceProps } from 'react-admin';
import { TokenCreate } from './TokenCreate';
import { TokenList } from './TokenList';

/** Personal access tokens: GET/POST /api/tokens, DELETE /api/tokens/{name}. */
const tokens: ResourceProps = {
  name: 'tokens',
  list: TokenList,
  create: TokenCreate,
  icon: KeyOutlinedIcon,
  recordRepresentation: 'name',
};

export default tokens;
export { TokenCreate, TokenList };
