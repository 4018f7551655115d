import type { ReactNode } from 'react';
import { Anchor, Group, List, Text } from '@mantine/core';
import { IconApi, IconExternalLink, IconHelp } from '@tabler/icons-react';
import { Link } from 'react-router';
import { API_REFERENCE_PATH, HELP_PATH } from '../../lib/paths';
import { TOUR_TARGETS, type TourTarget } from '../../lib/tour-targets';

/** What a step may use: the user's first name, and closing the tour (a link that leaves it). */
export type StepContext = { firstName: string; close: () => void };

export type WalkthroughStep = {
  id: string;
  title: string;
  /** The navigation element the step is about, pointed at when it is on screen. */
  target?: TourTarget;
  body: (context: StepContext) => ReactNode;
};

/**
 * docs/product.md §2 "Onboarding walkthrough", in its order: welcome; projects and environments; home;
 * the project menu; creating features; key, name and description; the on/off switch; targeting; learn
 * more, with the docs link.
 */
export const WALKTHROUGH_STEPS: readonly WalkthroughStep[] = [
  {
    id: 'welcome',
    title: 'Welcome to Vexil',
    body: ({ firstName }) => (
      <>
        <Text>
          {firstName ? `Hello ${firstName}! ` : ''}Vexil turns the features of your applications on and off,
          for everyone or for the users you choose, without a new release.
        </Text>
        <Text>This short tour shows where things are. It takes a minute.</Text>
      </>
    ),
  },
  {
    id: 'projects-and-environments',
    title: 'Projects and environments',
    target: TOUR_TARGETS.environmentMenu,
    body: () => (
      <>
        <Text>
          Your organisation&apos;s work is organised in <strong>projects</strong>. Each project has{' '}
          <strong>environments</strong>, such as Development and Production: one for each place your
          application runs.
        </Text>
        <Text>
          Choose the environment you work in from the environment menu; the pages beside it show that one.
        </Text>
      </>
    ),
  },
  {
    id: 'home',
    title: 'Home',
    target: TOUR_TARGETS.home,
    body: () => (
      <Text>
        Home shows your projects with their environments, and the features you changed recently, bookmarked or
        maintain. Filter them by name, key or description.
      </Text>
    ),
  },
  {
    id: 'project-menu',
    title: 'The project menu',
    target: TOUR_TARGETS.projectMenu,
    body: () => (
      <Text>
        Features and the pages beside it (Users, Experiments, Segments, Tutorial) open the environment you
        chose. The Tutorial connects your first SDK in a few minutes.
      </Text>
    ),
  },
  {
    id: 'creating-features',
    title: 'Creating features',
    body: () => (
      <Text>
        New Feature, in an environment&apos;s feature list, creates a feature in its project. It exists in
        every environment of the project at once, and starts off in all of them.
      </Text>
    ),
  },
  {
    id: 'key-name-description',
    title: 'Key, name and description',
    body: () => (
      <List spacing={4} size="sm">
        <List.Item>
          The <strong>key</strong>, such as <code>new-checkout</code>, is what your code asks the SDK for.
        </List.Item>
        <List.Item>
          The <strong>name</strong> and <strong>description</strong> are for people: say what the feature does
          and why.
        </List.Item>
      </List>
    ),
  },
  {
    id: 'on-off',
    title: 'The on/off switch',
    body: () => (
      <Text>
        Each feature has a switch in each environment. Off, every user gets its off variant; on, its targeting
        decides. In a production environment Vexil asks before the change.
      </Text>
    ),
  },
  {
    id: 'targeting',
    title: 'Targeting',
    body: () => (
      <>
        <Text>
          Targeting gives a feature to some users only: by <strong>attribute</strong> (country equals NZ, plan
          is gold) or by <strong>percentage</strong> (10 % on, 90 % off), with rules tried from the top.
        </Text>
        <Text>Rules are saved per environment: Development can try what Production does not have yet.</Text>
      </>
    ),
  },
  {
    id: 'learn-more',
    title: 'Learn more',
    target: TOUR_TARGETS.help,
    body: ({ close }) => (
      <>
        <Text>
          Help explains features, targeting and how to connect an SDK; the API reference documents every call.
          Replay this tour from your account menu.
        </Text>
        <Group gap="lg">
          <Anchor component={Link} to={HELP_PATH} onClick={close}>
            <Group gap={6} wrap="nowrap" component="span">
              <IconHelp size={16} aria-hidden="true" />
              Read the docs
            </Group>
          </Anchor>
          <Anchor href={API_REFERENCE_PATH} target="_blank" rel="noopener">
            <Group gap={6} wrap="nowrap" component="span">
              <IconApi size={16} aria-hidden="true" />
              API reference
              <IconExternalLink size={12} aria-hidden="true" />
            </Group>
          </Anchor>
        </Group>
      </>
    ),
  },
];
