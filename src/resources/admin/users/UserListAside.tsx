import AdminPanelSettingsOutlinedIcon from '@mui/icons-material/AdminPanelSettingsOutlined';
import GavelOutlinedIcon from '@mui/icons-material/GavelOutlined';
import HowToRegOutlinedIcon from '@mui/icons-material/HowToRegOutlined';
import MailOutlineIcon from '@mui/icons-material/MailOutline';
import ToggleOnOutlinedIcon from '@mui/icons-material/ToggleOnOutlined';
import { FilterList, FilterListItem } from 'react-admin';
import { FilterSidebar } from '../FilterSidebar';

// The users list's filter sidebar, as react-admin's demo (VisitorListAside): beside the list
// on wide screens, a folded panel above it below md (FilterSidebar), as on the other admin lists.
// "Active" is who signed in or out or used a token in the last day, week or month (the server's
// filter[active_within_days]).

const FLAGS = [
  { source: 'admin', icon: <AdminPanelSettingsOutlinedIcon />, yes: 'adminUsers.filters.yes', no: 'adminUsers.filters.no' },
  { source: 'enabled', icon: <ToggleOnOutlinedIcon />, yes: 'adminUsers.filters.is_enabled', no: 'adminUsers.filters.is_disabled' },
  { source: 'verified', icon: <MailOutlineIcon />, yes: 'adminUsers.filters.is_verified', no: 'adminUsers.filters.not_verified' },
  { source: 'policy', icon: <GavelOutlinedIcon />, yes: 'adminUsers.filters.accepted', no: 'adminUsers.filters.not_accepted' },
] as const;

export const UserListAside = () => (
  <FilterSidebar>
    {FLAGS.map((flag) => (
      <FilterList key={flag.source} label={`adminUsers.filters.${flag.source}`} icon={flag.icon}>
        <FilterListItem label={flag.yes} value={{ [flag.source]: true }} />
        <FilterListItem label={flag.no} value={{ [flag.source]: false }} />
      </FilterList>
    ))}
    {/* filter[active_within_days]: the dashboard's "active people" link here. */}
    <FilterList label="dashboard.active.filter" icon={<HowToRegOutlinedIcon />}>
      <FilterListItem label="dashboard.active.day" value={{ active_within_days: 1 }} />
      <FilterListItem label="dashboard.active.week" value={{ active_within_days: 7 }} />
      <FilterListItem label="dashboard.active.month" value={{ active_within_days: 30 }} />
    </FilterList>
  </FilterSidebar>
);
