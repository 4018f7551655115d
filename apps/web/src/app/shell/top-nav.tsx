import { Fragment } from 'react';
import { Anchor, Burger, Container, Drawer, Group, NavLink as MantineNavLink, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBook, IconExternalLink } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { Logo } from '../../components/logo';
import { EnvironmentSlot } from './environment-slot';
import { useNavItems } from './nav-items';
import { ProfileMenu } from './profile-menu';
import classes from './shell.module.css';

export const DOCS_URL = '/api/docs';

/** docs/product.md §2 "Top navigation": the logo, the gated items, the docs link and the profile menu. */
export function TopNav() {
  const items = useNavItems();
  const { pathname } = useLocation();
  const [drawerOpened, drawer] = useDisclosure(false);
  const hasEnvironmentAnchor = items.some((item) => item.beforeEnvironment);

  return (
    <>
      <Container size="xl" className={classes.bar}>
        <Group h="100%" justify="space-between" wrap="nowrap" gap="md">
          <Group gap="lg" wrap="nowrap" h="100%">
            <Burger
              opened={drawerOpened}
              onClick={drawer.toggle}
              hiddenFrom="md"
              size="sm"
              aria-label={drawerOpened ? 'Close navigation' : 'Open navigation'}
            />
            <Link to="/" className={classes.logoLink} aria-label="Vexil home">
              <Logo size={28} />
            </Link>
            <Group component="nav" aria-label="Main" gap={4} wrap="nowrap" visibleFrom="md">
              {hasEnvironmentAnchor ? null : <EnvironmentSlot />}
              {items.map((item) => (
                <Fragment key={item.to}>
                  <Link
                    to={item.to}
                    className={classes.navLink}
                    aria-current={item.isActive(pathname) ? 'page' : undefined}
                  >
                    {item.label}
                  </Link>
                  {item.beforeEnvironment ? <EnvironmentSlot /> : null}
                </Fragment>
              ))}
            </Group>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Anchor
              href={DOCS_URL}
              target="_blank"
              rel="noopener"
              className={classes.navLink}
              visibleFrom="sm"
              underline="never"
            >
              <Group gap={6} wrap="nowrap" component="span">
                <IconBook size={16} aria-hidden="true" />
                Docs
                <IconExternalLink size={12} aria-hidden="true" />
              </Group>
            </Anchor>
            <ProfileMenu />
          </Group>
        </Group>
      </Container>
      <Drawer
        opened={drawerOpened}
        onClose={drawer.close}
        size="xs"
        title={<Logo size={24} />}
        hiddenFrom="md"
      >
        <Stack component="nav" aria-label="Main" gap={2}>
          <EnvironmentSlot fullWidth onChoose={drawer.close} />
          {items.map((item) => (
            <MantineNavLink
              key={item.to}
              component={Link}
              to={item.to}
              label={item.label}
              leftSection={<item.icon size={18} aria-hidden="true" />}
              active={item.isActive(pathname)}
              onClick={drawer.close}
            />
          ))}
          <MantineNavLink
            component="a"
            href={DOCS_URL}
            target="_blank"
            rel="noopener"
            label="Docs"
            leftSection={<IconBook size={18} aria-hidden="true" />}
            rightSection={<IconExternalLink size={14} aria-hidden="true" />}
          />
        </Stack>
      </Drawer>
    </>
  );
}
