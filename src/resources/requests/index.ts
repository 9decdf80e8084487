import AssignmentOutlinedIcon from '@mui/icons-material/AssignmentOutlined';
import type { ResourceProps } from 'react-admin';
import { lazyNamed } from '../../utils/lazyNamed';

const RequestList = lazyNamed(() => import('./RequestList'), 'RequestList');

/** Requests the user may decide: /requests (GET /api/requests, PATCH /api/requests/{id}). */
const requests: ResourceProps = {
  name: 'requests',
  list: RequestList,
  icon: AssignmentOutlinedIcon,
};

export default requests;
