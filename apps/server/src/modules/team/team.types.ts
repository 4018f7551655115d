import type { User } from '@vexil/core';

/** A member's name and address, as other records show who maintains or changed them. */
export type MemberName = Pick<User, 'id' | 'email' | 'firstName' | 'lastName'>;
