import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithModals } from '../testing/test-utils';
import { TruncatedText } from './truncated-text';

const LONG = 'Supercalifragilistic'.repeat(12);

/** jsdom lays nothing out: texts longer than `fits` characters are made to measure wider than their box. */
function layOut(fits: number) {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(fits * 8);
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return (this.textContent ?? '').length * 8;
  });
}

describe('TruncatedText', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows the whole of a cut name in a tooltip on hover', async () => {
    layOut(40);
    renderWithModals(<TruncatedText text={LONG} />);
    const user = userEvent.setup();
    await user.hover(screen.getByText(LONG));
    expect((await screen.findByRole('tooltip')).textContent).toBe(LONG);
  });

  it('lets the keyboard reach a cut plain name, and shows it whole on focus', async () => {
    layOut(40);
    renderWithModals(<TruncatedText text={LONG} />);
    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement?.textContent).toBe(LONG);
    expect((await screen.findByRole('tooltip')).textContent).toBe(LONG);
  });

  it('gives a name that fits neither a tooltip nor a tab stop', async () => {
    layOut(40);
    renderWithModals(<TruncatedText text="Short one" />);
    const user = userEvent.setup();
    await user.hover(screen.getByText('Short one'));
    await user.tab();
    expect(document.activeElement).toBe(document.body);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('cuts the element it is given, a link keeping its own focus', async () => {
    layOut(40);
    renderWithModals(
      <TruncatedText
        text={LONG}
        render={(target) => (
          <a href="/feature" {...target}>
            {LONG}
          </a>
        )}
      />,
    );
    const user = userEvent.setup();
    await user.tab();
    const link = screen.getByRole('link', { name: LONG });
    expect(document.activeElement).toBe(link);
    expect(link.getAttribute('tabindex')).toBeNull();
    expect((await screen.findByRole('tooltip')).textContent).toBe(LONG);
  });
});
