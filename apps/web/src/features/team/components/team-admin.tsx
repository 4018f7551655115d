import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import {
  AUTHORITY_LABELS,
  TEAM_ADMIN_ONLY,
  invitationStatus,
  isOrganisationAdmin,
  type Authority,
  type TeamMember,
} from '@vexil/core';
import { LoadError } from '../../../components/load-error';
import { PlanLimitNotice } from '../../../components/plan-limit-notice';
import { TruncatedText } from '../../../components/truncated-text';
import { useFlag } from '../../../lib/flags';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { useSession } from '../../../lib/session';
import { rolesQueryOptions } from '../../../entities/roles/api/get-roles';
import { useTeamMembers } from '../../../entities/team/api/get-team-members';
import { useSeats, type Seats } from '../hooks/use-seats';
import { openInviteUsersForm } from './invite-users-form';
import { MemberActions } from './member-actions';

const SEAT_LIMIT_ID = 'seat-limit';

const ROLE_COLORS: Readonly<Record<Authority, string>> = {
  ROLE_ADMIN: 'grape',
  ROLE_ORGANISATION_ADMIN: 'violet',
  ROLE_ORGANISATION_PROD_EDITOR: 'red',
  ROLE_ORGANISATION_EDITOR: 'blue',
  ROLE_ORGANISATION_READONLY_USER: 'gray',
};

/** The names of the custom roles each member holds, by member id, in the roles' order (by name). */
type CustomRoles = ReadonlyMap<string, readonly string[]>;

/**
 * Who holds which custom role (docs/product.md §6), from GET /api/v1/roles while roles are on. A
 * failure leaves the built-in badges alone: Admin › Roles says why it cannot load.
 */
function useCustomRoles(): CustomRoles {
  const enabled = useFlag('roles-admin');
  const roles = useQuery({ ...rolesQueryOptions(), enabled });
  const byMember = new Map<string, string[]>();
  for (const role of enabled ? (roles.data ?? []) : []) {
    for (const holder of role.members)
      byMember.set(holder.id, [...(byMember.get(holder.id) ?? []), role.name]);
  }
  return byMember;
}

/** The built-in role's badge with docs/product.md §6's label, and beside it each custom role held. */
function RoleBadges({ member, customRoles }: { member: TeamMember; customRoles: CustomRoles }) {
  const custom = customRoles.get(member.id) ?? [];
  return (
    <Group gap={6} wrap="wrap" miw={0}>
      {member.authority ? (
        <Badge variant="light" radius="sm" color={ROLE_COLORS[member.authority]} miw="max-content">
          {AUTHORITY_LABELS[member.authority]}
        </Badge>
      ) : (
        <Text size="sm" c="dimmed">
          No role
        </Text>
      )}
      {custom.map((name) => (
        <Badge
          key={name}
          variant="outline"
          radius="sm"
          color="gray"
          tt="none"
          maw="100%"
          title={`Custom role: ${name}`}
          aria-label={`Custom role: ${name}`}
        >
          {name}
        </Badge>
      ))}
    </Group>
  );
}

/** docs/product.md §4: "Invitation Pending" until the invitee has joined, then "Active". */
function StatusBadge({ member }: { member: TeamMember }) {
  const status = invitationStatus(member);
  return (
    <Badge variant="dot" radius="sm" color={member.activated ? 'teal' : 'yellow'} miw="max-content">
      {status}
    </Badge>
  );
}

/** The e-mail, with "(You)" for the signed-in user. */
function MemberEmail({ member, self }: { member: TeamMember; self: boolean }) {
  return (
    <Group gap={6} wrap="nowrap" miw={0}>
      <TruncatedText text={member.email} size="sm" fw={500} />
      {self ? (
        <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
          (You)
        </Text>
      ) : null}
    </Group>
  );
}

function MemberName({ member }: { member: TeamMember }) {
  return member.fullName ? (
    <TruncatedText text={member.fullName} size="sm" />
  ) : (
    <Text size="sm" c="dimmed">
      —
    </Text>
  );
}

type MemberListProps = { members: TeamMember[]; selfId: string; customRoles: CustomRoles };

function MemberTable({ members, selfId, customRoles }: MemberListProps) {
  return (
    <Table.ScrollContainer minWidth={1000}>
      <Table layout="fixed" verticalSpacing="sm" highlightOnHover aria-label="Members">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="26%">Email</Table.Th>
            <Table.Th>Full name</Table.Th>
            <Table.Th w={280}>Role</Table.Th>
            <Table.Th w={190}>Status</Table.Th>
            <Table.Th w={290} ta="right">
              Actions
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {members.map((member) => (
            <Table.Tr key={member.id}>
              <Table.Td>
                <MemberEmail member={member} self={member.id === selfId} />
              </Table.Td>
              <Table.Td>
                <MemberName member={member} />
              </Table.Td>
              <Table.Td>
                <RoleBadges member={member} customRoles={customRoles} />
              </Table.Td>
              <Table.Td>
                <StatusBadge member={member} />
              </Table.Td>
              <Table.Td>
                <MemberActions member={member} selfId={selfId} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** On a phone, a card per member: the row's e-mail, name, badges and buttons, stacked. */
function MemberCards({ members, selfId, customRoles }: MemberListProps) {
  return (
    <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Members">
      {members.map((member) => (
        <Paper component="li" key={member.id} withBorder radius="md" p="sm">
          <Stack gap={6}>
            <MemberEmail member={member} self={member.id === selfId} />
            {member.fullName ? <TruncatedText text={member.fullName} size="sm" c="dimmed" /> : null}
            <Group gap="xs">
              <RoleBadges member={member} customRoles={customRoles} />
              <StatusBadge member={member} />
            </Group>
            <MemberActions member={member} selfId={selfId} wrap />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** "3 seats", or "3 of 5 seats" when the plan limits them: members and pending invitations. */
function seatUsage(seats: Seats): string {
  if (seats.limit !== null) return `${seats.used} of ${seats.limit} seats`;
  return `${seats.used} ${seats.used === 1 ? 'seat' : 'seats'}`;
}

/** The title, the seat usage, and Invite Users (once the team is loaded). */
function TeamHeader({ seats, loaded }: { seats: Seats; loaded: boolean }) {
  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4}>
          <Title order={2}>Team Management</Title>
          {loaded ? (
            <Text size="sm" c="dimmed">
              {seatUsage(seats)}
            </Text>
          ) : null}
        </Stack>
        <Button
          leftSection={<IconUserPlus size={16} aria-hidden="true" />}
          disabled={!loaded || !seats.canInvite}
          aria-describedby={seats.canInvite ? undefined : SEAT_LIMIT_ID}
          onClick={() => openInviteUsersForm({ remainingSeats: seats.remaining })}
        >
          Invite Users
        </Button>
      </Group>
      {loaded && seats.limitMessage ? (
        <PlanLimitNotice id={SEAT_LIMIT_ID} message={seats.limitMessage} />
      ) : null}
    </Stack>
  );
}

function TeamSkeleton() {
  return (
    <Stack gap="md" role="status" aria-busy="true" aria-label="Loading the team">
      <Skeleton height={200} />
    </Stack>
  );
}

function TeamScreen() {
  const { principalUser } = useSession();
  const narrow = useNarrowScreen();
  const query = useTeamMembers();
  const members = query.data ?? [];
  const seats = useSeats(members.length);
  const customRoles = useCustomRoles();

  let content;
  if (query.isPending) content = <TeamSkeleton />;
  else if (query.isError)
    content = (
      <LoadError
        title="We could not load the team."
        error={query.error}
        retrying={query.isFetching}
        onRetry={() => void query.refetch()}
      />
    );
  else if (narrow)
    // Below `sm` the table would scroll sideways, its buttons out of sight: cards instead.
    content = <MemberCards members={members} selfId={principalUser.id} customRoles={customRoles} />;
  else content = <MemberTable members={members} selfId={principalUser.id} customRoles={customRoles} />;
  return (
    <Stack gap="md">
      <TeamHeader seats={seats} loaded={query.isSuccess} />
      {content}
    </Stack>
  );
}

/**
 * docs/product.md §2 "Team Management", /admin/users: seat usage, Invite Users, and the members with
 * their role and status. Organisation admins only.
 */
export function TeamAdmin() {
  const { principalUser } = useSession();
  if (isOrganisationAdmin(principalUser)) return <TeamScreen />;
  return (
    <Stack gap="md">
      <Title order={2}>Team Management</Title>
      <Text>{TEAM_ADMIN_ONLY}</Text>
    </Stack>
  );
}
