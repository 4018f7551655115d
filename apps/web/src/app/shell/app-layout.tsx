import { Container } from '@mantine/core';
import { Outlet } from 'react-router';
import { QuickSearch } from '../../features/quick-search/components/quick-search';
import { TopNav } from './top-nav';
import { TrialBanner } from './trial-banner';
import { WalkthroughSlot } from './walkthrough-slot';
import classes from './shell.module.css';

/**
 * The frame of the authenticated area: banners and top navigation over the page, the quick search, and
 * the welcome walkthrough.
 */
export function AppLayout() {
  return (
    <>
      <a href="#main-content" className={classes.skipLink}>
        Skip to content
      </a>
      <header className={classes.header}>
        <TrialBanner />
        <TopNav />
      </header>
      <Container size="xl" component="main" id="main-content" tabIndex={-1} className={classes.main}>
        <Outlet />
      </Container>
      <QuickSearch />
      <WalkthroughSlot />
    </>
  );
}
