// The platform admins' lists. Each filters, sorts and paginates in SQL, then loads the
// relations of the rows it answers with one query per relation (in chunks of CHUNK ids for
// the unpaginated arrays), never one per row.
//
// The filters (filteredX), the selected columns and the presenters (presentX) are exported
// apart from the paging, so that the CSV exports (csvExport.ts) stream exactly the list's
// rows in keyset-paged batches instead of repeating its filters.
//
// Each list lives in its own module under lists/; this module gathers them.

export * from './lists/activity.js';
export * from './lists/common.js';
export * from './lists/teams.js';
export * from './lists/users.js';
export * from './lists/workspaces.js';
