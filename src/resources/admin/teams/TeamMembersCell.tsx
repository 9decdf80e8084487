import { Avatar, Box, Stack, Typography } from '@mui/material';
import { Link, useTranslate } from 'react-admin';
import { RoleChip } from '../../../components/RoleChip';
import { initials } from '../../../utils/avatar';
import { countInWords, useFormatCount } from '../bulk';

/** A member as a row of GET /api/admin/teams carries it (the first few, owners first). */
export interface TeamRowMember {
  id: number;
  name: string;
  role?: string | null;
}

/** Members named in a row; the server sends up to five, three keep the row short. */
export const MEMBERS_SHOWN = 3;

/**
 * The admin teams list's Members column (and its phone card's line): the first members with
 * a small avatar, their name (cut with an ellipsis, never widening the table) and their role,
 * then "+N more" linking to the team's page, which lists them all. The count of the rest comes
 * from `member_count`, since the row carries only the first members.
 */
export const TeamMembersCell = ({ teamId, users, memberCount }: { teamId: number; users?: TeamRowMember[] | null; memberCount?: number }) => {
  const translate = useTranslate();
  const format = useFormatCount();
  const shown = (users ?? []).slice(0, MEMBERS_SHOWN);
  const more = Math.max(0, (memberCount ?? shown.length) - shown.length);
  if (shown.length === 0 && more === 0) {
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {translate('teamAdmin.members_none')}
      </Typography>
    );
  }
  return (
    <Stack component="ul" spacing={0.25} sx={{ listStyle: 'none', m: 0, p: 0, minWidth: 0 }}>
      {shown.map((member) => (
        <Stack component="li" key={member.id} direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
          <Avatar aria-hidden sx={{ width: 20, height: 20, fontSize: '0.6rem', bgcolor: 'primary.main', flexShrink: 0 }}>
            {initials(member.name)}
          </Avatar>
          <Box
            component="span"
            title={member.name}
            sx={{ minWidth: 0, maxWidth: { xs: 200, sm: 84 }, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', fontSize: '0.875rem' }}
          >
            <Link to={`/admin/users/${member.id}`}>{member.name}</Link>
          </Box>
          <Box sx={{ flexShrink: 0, '& .MuiChip-root': { height: 20, fontSize: '0.7rem' }, '& .MuiChip-label': { px: 0.75 } }}>
            <RoleChip role={member.role} />
          </Box>
        </Stack>
      ))}
      {more > 0 && (
        <Box component="li" sx={{ pl: '24px', fontSize: '0.8125rem' }}>
          <Link to={`/admin/teams/${teamId}`}>{countInWords(translate, format, 'teamAdmin.members_more', more)}</Link>
        </Box>
      )}
    </Stack>
  );
};
