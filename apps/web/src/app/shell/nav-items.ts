import {
  IconCalendarTime,
  IconFlag,
  IconFlask,
  IconGitPullRequest,
  IconHome,
  IconSchool,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import type { TablerIcon } from '@tabler/icons-react';
import { useFlag } from '../../lib/flags';
import { environmentSectionPath } from '../../lib/paths';
import { TOUR_TARGETS, type TourTarget } from '../../lib/tour-targets';
import { useCurrentEnvironment } from './use-current-environment';

export type NavItem = {
  label: string;
  to: string;
  icon: TablerIcon;
  isActive: (pathname: string) => boolean;
  /** The environment dropdown goes right after this item. */
  beforeEnvironment?: boolean;
  /** What the welcome walkthrough calls this item, when it points at it. */
  tour?: TourTarget;
  /** The desktop bar shows its icon, named by a tooltip and its label (the bar's width is taken). */
  iconOnly?: boolean;
  /** The desktop bar counts on its icon the change requests waiting for the user's review. */
  countsWaiting?: boolean;
};

const startsWith = (prefix: string) => (pathname: string) =>
  pathname === prefix || pathname.startsWith(`${prefix}/`);

/**
 * docs/product.md §2 "Top navigation": each item gated by its UI flag; environment items need an
 * environment. Change requests (docs/adr/0024-change-requests.md) and the Schedule
 * (docs/adr/0025-scheduler.md) have no flag of their own; both show as icons on the desktop bar.
 */
export function useNavItems(): NavItem[] {
  const home = useFlag('home');
  const traffic = useFlag('traffic');
  const experiments = useFlag('experiments');
  const segments = useFlag('segments');
  const tutorial = useFlag('tutorial-tab');
  const current = useCurrentEnvironment();

  const items: NavItem[] = [];
  if (home) {
    items.push({
      label: 'Home',
      to: '/',
      icon: IconHome,
      isActive: (pathname) => pathname === '/' || pathname === '/home',
      beforeEnvironment: true,
      tour: TOUR_TARGETS.home,
    });
  }
  if (current) {
    const environmentItem = (label: string, section: string, icon: NavItem['icon']): NavItem => {
      const to = environmentSectionPath(current.project.key, current.environment.key, section);
      return { label, to, icon, isActive: startsWith(to) };
    };
    items.push({ ...environmentItem('Features', 'features', IconFlag), tour: TOUR_TARGETS.projectMenu });
    if (traffic) items.push(environmentItem('Users', 'users', IconUsers));
    if (experiments) items.push(environmentItem('Experiments', 'experiments', IconFlask));
    if (segments) items.push(environmentItem('Segments', 'segments', IconUsersGroup));
    items.push({
      ...environmentItem('Change requests', 'change-requests', IconGitPullRequest),
      iconOnly: true,
      countsWaiting: true,
    });
    items.push({ ...environmentItem('Schedule', 'schedule', IconCalendarTime), iconOnly: true });
    if (tutorial) items.push(environmentItem('Tutorial', 'tutorial', IconSchool));
  }
  return items;
}
