import { describe, expect, it } from 'vitest';
import { signIn, useFreshPage } from './support/browser';

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
      // At once: no retries behind a skeleton first.
      await alert.waitFor({ timeout: 1500 });
      await expect.poll(() => alert.innerText()).toContain(REASON);
      // Give a retry or a toast the time to show up, then count what the user sees.
      await page.waitForTimeout(1000);
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
