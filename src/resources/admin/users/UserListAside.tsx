import AdminPanelSettingsOutlinedIcon from '@mui/icons-material/AdminPanelSettingsOutlined';
import GavelOutlinedIcon from '@mui/icons-material/GavelOutlined';
import MailOutlineIcon from '@mui/icons-material/MailOutline';
import ToggleOnOutlinedIcon from '@mui/icons-material/ToggleOnOutlined';
import { FilterList, FilterListItem } from 'react-admin';
import { FilterSidebar } from '../FilterSidebar';

// The users list's filter sidebar, as react-admin's demo (VisitorListAside): beside the list
// on wide screens, a folded panel above it below md (FilterSidebar), as on the other admin lists.

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
  </FilterSidebar>
);
