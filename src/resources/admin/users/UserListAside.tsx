import AdminPanelSettingsOutlinedIcon from '@mui/icons-material/AdminPanelSettingsOutlined';
import GavelOutlinedIcon from '@mui/icons-material/GavelOutlined';
import MailOutlineIcon from '@mui/icons-material/MailOutline';
import ToggleOnOutlinedIcon from '@mui/icons-material/ToggleOnOutlined';
import { Card, CardContent } from '@mui/material';
import { FilterList, FilterListItem, useTranslate } from 'react-admin';

// The users list's filter sidebar, as react-admin's demo (VisitorListAside): hidden below the
// md breakpoint, where the same filters are offered by the list's filter button instead.

const FLAGS = [
  { source: 'admin', icon: <AdminPanelSettingsOutlinedIcon />, yes: 'adminUsers.filters.yes', no: 'adminUsers.filters.no' },
  { source: 'enabled', icon: <ToggleOnOutlinedIcon />, yes: 'adminUsers.filters.is_enabled', no: 'adminUsers.filters.is_disabled' },
  { source: 'verified', icon: <MailOutlineIcon />, yes: 'adminUsers.filters.is_verified', no: 'adminUsers.filters.not_verified' },
  { source: 'policy', icon: <GavelOutlinedIcon />, yes: 'adminUsers.filters.accepted', no: 'adminUsers.filters.not_accepted' },
] as const;

export const UserListAside = () => {
  const translate = useTranslate();
  return (
  <Card
    component="aside"
    aria-label={translate('admin_filters.title')}
    sx={{ display: { xs: 'none', md: 'block' }, order: -1, flex: '0 0 14em', mr: 2, mt: 8, alignSelf: 'flex-start' }}
  >
    <CardContent sx={{ pt: 1 }}>
      {FLAGS.map((flag) => (
        <FilterList key={flag.source} label={`adminUsers.filters.${flag.source}`} icon={flag.icon}>
          <FilterListItem label={flag.yes} value={{ [flag.source]: true }} />
          <FilterListItem label={flag.no} value={{ [flag.source]: false }} />
        </FilterList>
      ))}
    </CardContent>
  </Card>
  );
};
