/** The team domain's cache keys. */
export const teamKeys = {
  all: ['team'] as const,
  /** The organisation's members matching `query`. */
  members: (query: string) => [...teamKeys.all, 'members', query] as const,
  /** Team Management's list: members and pending invitations. */
  users: ['team', 'users'] as const,
};
