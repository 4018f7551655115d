import { Fragment, lazy, Suspense, useState } from 'react';
import { Anchor, Box, Burger, Container, Group, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconApi, IconExternalLink, IconHelp } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { Logo } from '../../components/logo';
import { QuickSearchButton } from '../../features/quick-search/components/quick-search-button';
import { API_REFERENCE_PATH, HELP_PATH } from '../../lib/paths';
import { TOUR_TARGETS } from '../../lib/tour-targets';
import { LiveStatusBadge } from '../live/live-status';
import { ChangeRequestsWaiting, WaitingBadge, useWaiting } from './change-requests-waiting';
import { EnvironmentSlot } from './environment-slot';
import { useNavItems, type NavItem } from './nav-items';
import { ProfileMenu } from './profile-menu';

const loadDrawer = () => import('./navigation-drawer');
const NavigationDrawer = lazy(() => loadDrawer().then((module) => ({ default: module.NavigationDrawer })));
import classes from './shell.module.css';

/**
 * An item the desktop bar shows as its icon, named by its tooltip and label; the Change requests icon
 * carries the count of those waiting for the user's review, and then leads to them.
 */
function IconItem(props: {
  item: NavItem;
  active: boolean;
  waiting: { count: number; label: string; to: string } | null;
}) {
  const { item, active, waiting } = props;
  const label = waiting?.label ?? item.label;
  return (
    <Tooltip label={label} withArrow>
      <Link
        to={waiting?.to ?? item.to}
        className={`${classes.navLink} ${classes.navIcon}`}
        aria-current={active ? 'page' : undefined}
        aria-label={label}
        data-tour={item.tour}
      >
        <Group gap={4} wrap="nowrap" component="span">
          <item.icon size={18} aria-hidden="true" style={{ display: 'block' }} />
          {waiting ? <WaitingBadge count={waiting.count} /> : null}
        </Group>
      </Link>
    </Tooltip>
  );
}

/**
 * docs/product.md §2 "Top navigation": the logo, the gated items, the change requests waiting for the
 * user's review, the quick search's button, Help, the API reference and the profile menu. The API
 * reference stays one click away from every page; its label gives way to its icon below 1600 px, and
 * the member's name to their initials below the `xl` breakpoint, so that the whole bar fits from
 * 1200 px (e2e/navigation.spec.ts).
 */
export function TopNav() {
  const items = useNavItems();
  const { pathname } = useLocation();
  const [drawerOpened, drawer] = useDisclosure(false);
  // The drawer is fetched the first time it is asked for (or the pointer reaches its button).
  const [drawerLoaded, setDrawerLoaded] = useState(false);
  const hasEnvironmentAnchor = items.some((item) => item.beforeEnvironment);
  const waiting = useWaiting();

  return (
    <>
      <Container size="xl" className={classes.bar}>
        <Group h="100%" justify="space-between" wrap="nowrap" gap="md">
          <Group gap="md" wrap="nowrap" h="100%">
            <Burger
              opened={drawerOpened}
              onClick={() => {
                setDrawerLoaded(true);
                drawer.toggle();
              }}
              onPointerEnter={() => void loadDrawer()}
              hiddenFrom="lg"
              size="sm"
              aria-label={drawerOpened ? 'Close navigation' : 'Open navigation'}
            />
            <Link to="/" className={classes.logoLink} aria-label="Vexil home">
              <Logo size={28} />
            </Link>
            <Group component="nav" aria-label="Main" gap={4} wrap="nowrap" visibleFrom="lg">
              {hasEnvironmentAnchor ? null : <EnvironmentSlot />}
              {items.map((item) => (
                <Fragment key={item.to}>
                  {item.iconOnly ? (
                    <IconItem
                      item={item}
                      active={item.isActive(pathname)}
                      waiting={item.countsWaiting ? waiting : null}
                    />
                  ) : (
                    <Link
                      to={item.to}
                      className={classes.navLink}
                      aria-current={item.isActive(pathname) ? 'page' : undefined}
                      data-tour={item.tour}
                    >
                      {item.label}
                    </Link>
                  )}
                  {item.beforeEnvironment ? <EnvironmentSlot /> : null}
                </Fragment>
              ))}
            </Group>
          </Group>
          <Group gap={8} wrap="nowrap">
            <LiveStatusBadge />
            {/* On the desktop bar the Change requests icon counts them; below it, this badge does. */}
            <Box hiddenFrom="lg">
              <ChangeRequestsWaiting />
            </Box>
            <QuickSearchButton />
            <Box visibleFrom="sm">
              <Link
                to={HELP_PATH}
                className={classes.navLink}
                aria-current={pathname === HELP_PATH ? 'page' : undefined}
                data-tour={TOUR_TARGETS.help}
              >
                <Group gap={6} wrap="nowrap" component="span">
                  <IconHelp size={16} aria-hidden="true" />
                  Help
                </Group>
              </Link>
            </Box>
            <Anchor
              href={API_REFERENCE_PATH}
              target="_blank"
              rel="noopener"
              className={classes.navLink}
              visibleFrom="sm"
              underline="never"
              aria-label="API reference (opens in a new tab)"
              title="API reference"
            >
              <Group gap={6} wrap="nowrap" component="span">
                <IconApi size={16} aria-hidden="true" />
                <span className={classes.wideOnly}>API reference</span>
                <IconExternalLink size={12} aria-hidden="true" />
              </Group>
            </Anchor>
            <ProfileMenu />
          </Group>
        </Group>
      </Container>
      {drawerLoaded ? (
        <Suspense fallback={null}>
          <NavigationDrawer opened={drawerOpened} onClose={drawer.close} />
        </Suspense>
      ) : null}
    </>
  );
}
