import AddIcon from '@mui/icons-material/Add';
import { Box, Button } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { NodeRecord } from './types';

// Node pieces shared by the home page, the node list and the node pages (a module of their own:
// the home does not load the list's DataTable machinery with them).

/** 'Add a Node' → /nodes/create. */
export const AddNodeButton = ({ variant = 'contained' }: { variant?: 'contained' | 'outlined' | 'text' }) => {
  const translate = useTranslate();
  return (
    <Button component={Link} to="/nodes/create" variant={variant} startIcon={<AddIcon />} size="small">
      {translate('nodes.add')}
    </Button>
  );
};

/** The readable label of a node type ('raspberry-pi' → 'Raspberry Pi'); unknown types as they are. */
export const useNodeTypeLabel = () => {
  const translate = useTranslate();
  return (type: string | null | undefined) => (type ? translate(`nodes.types.${type}`, { _: type }) : '');
};

/**
 * The node's name; before the cluster has named it, the hostname its owner typed (the status
 * badge beside it says it is not installed yet); 'awaiting installation' only when neither is known.
 */
export const NodeName = ({ node }: { node: Pick<NodeRecord, 'name' | 'hostname'> }) => {
  const translate = useTranslate();
  const label = nodeLabel(node);
  return label ? (
    <>{label}</>
  ) : (
    <Box component="span" sx={{ fontStyle: 'italic', color: 'text.secondary' }}>
      {translate('nodes.awaiting_installation')}
    </Box>
  );
};

/** What names a node for people: its cluster name, else its hostname, else nothing yet. */
export const nodeLabel = (node: Pick<NodeRecord, 'name' | 'hostname'>): string => node.name || node.hostname || '';
