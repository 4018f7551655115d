import { escapeMarkdown } from '@vexil/core';
import type { MemberRecord } from './members.types';

/** "**Ada Lovelace** (ada@example.com)", or the e-mail alone for someone without a name. */
export function describeMember(member: Pick<MemberRecord, 'firstName' | 'lastName' | 'email'>): string {
  const name = `${member.firstName} ${member.lastName}`.trim();
  return name
    ? `**${escapeMarkdown(name)}** (${escapeMarkdown(member.email)})`
    : `**${escapeMarkdown(member.email)}**`;
}
