import HistoryOutlinedIcon from '@mui/icons-material/HistoryOutlined';
import type { ResourceProps } from 'react-admin';
import { lazyNamed } from '../../../utils/lazyNamed';

// The page loads with its resource (code splitting); non-admins never load it.
const AdminActivityList = lazyNamed(() => import('./AdminActivityList'), 'AdminActivityList');

/** /admin/activity: the platform's activity log. */
const adminActivity: ResourceProps = { name: 'admin/activity', list: AdminActivityList, icon: HistoryOutlinedIcon };

export default adminActivity;
