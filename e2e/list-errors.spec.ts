import { describe, expect, it } from 'vitest';
import { signIn, useFreshPage, watchRequests } from './support/browser';

const t = useFreshPage();

const REASON = 'Something went wrong on our side. Please try again.';

/** The lists of an environment whose load can fail, with what they say when it does. */
const lists = [
  {
    screen: 'feature list',
    path: '/projects/sp/environments/development/features',
    call: '**/api/v1/projects/sp/environments/development/features?**',
    title: 'We could not load the features.',
  },
  {
    screen: 'segments',
    path: '/projects/sp/environments/development/segments',
    call: '**/api/v2/segments/sp/development**',
    title: 'We could not load the segments.',
  },
  {
    screen: 'users',
    path: '/projects/sp/environments/development/users',
    call: '**/api/v1/projects/sp/environments/development/users?**',
    title: 'We could not load the users.',
  },
];

describe('a list that fails to load', () => {
  for (const list of lists) {
    it(`says so once, at once, in place on the ${list.screen}, and loads on Retry`, async () => {
      const { page } = t;
      // The page's timers on a clock the test can run ahead: time passes as usual until then.
      await page.clock.install();
      const requests = watchRequests(page);
      await signIn(page);
      await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
      let failing = true;
      let asked = 0;
      await page.route(list.call, async (route) => {
        asked += 1;
        if (!failing) return route.continue();
        return route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ title: REASON }),
        });
      });
      await page.goto(list.path);
      const alert = page.getByRole('alert').filter({ hasText: list.title });
      // At once: said after the one failed call, with no retries behind a skeleton first.
      await alert.waitFor();
      expect(asked).toBe(1);
      await expect.poll(() => alert.innerText()).toContain(REASON);
      // A retry (the client's comes 300 ms after a call that got no answer) or a toast would come
      // within the next second: the page's clock runs them at once, and what they asked is answered.
      await page.clock.runFor(1000);
      await requests.settled();
      expect(asked).toBe(1);
      expect(await page.getByText(REASON).count()).toBe(1);
      expect(await page.locator('.mantine-Notification-root').count()).toBe(0);

      failing = false;
      await alert.getByRole('button', { name: 'Retry' }).click();
      await expect.poll(() => alert.count()).toBe(0);
      expect(asked).toBe(2);
    });
  }
});
