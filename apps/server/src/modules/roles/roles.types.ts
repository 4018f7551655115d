import type { RoleGrant } from '@vexil/core';

/** A stored custom role. */
export type RoleRecord = {
  id: string;
  name: string;
  description: string;
  grants: RoleGrant[];
  createdAt: Date;
};

/** A live member holding a role, named for lists and messages. */
export type RoleHolder = {
  roleId: string;
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
};

/** A live member of the organisation, as member assignment checks them. */
export type MemberRecord = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  activated: boolean;
};
