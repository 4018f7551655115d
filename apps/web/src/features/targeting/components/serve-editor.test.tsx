import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithModals } from '../../../testing/test-utils';
import { ServeEditor } from './serve-editor';
import type { ServeDraft } from './targeting-draft';

const VARIANTS = [
  { key: 'red', name: 'Red' },
  { key: 'green', name: 'Green' },
  { key: 'blue', name: 'Blue' },
];

function Editor() {
  const [serve, setServe] = useState<ServeDraft>({
    split: true,
    variantKey: null,
    splits: [
      { variantKey: 'red', split: 34 },
      { variantKey: 'green', split: 33 },
      { variantKey: 'blue', split: 33 },
    ],
  });
  return <ServeEditor serve={serve} variants={VARIANTS} label="Rule 1" onChange={setServe} />;
}

const share = (name: string) => screen.getByRole<HTMLInputElement>('textbox', { name });
const shares = () => ['Red', 'Green', 'Blue'].map((name) => share(name).value);

async function typeShare(name: string, text: string) {
  const user = userEvent.setup();
  await user.clear(share(name));
  await user.type(share(name), text);
}

describe('ServeEditor split shares', { timeout: 30_000 }, () => {
  it('takes a decimal as its rounding, and keeps the share the user set before', async () => {
    renderWithModals(<Editor />);
    await typeShare('Green', '60');
    expect(shares()).toEqual(['20 %', '60 %', '20 %']);

    await typeShare('Red', '12.5');
    // The dot is kept (12.5, not 125 clamped to 100), and Green stays as the user set it.
    expect(share('Red').value).toBe('12.5 %');
    expect(screen.getByText('Counts as 13 %').textContent).toBe('Counts as 13 %');
    expect(share('Green').value).toBe('60 %');
    expect(share('Blue').value).toBe('27 %');
    expect(screen.getByText(/^Total:/).textContent).toBe('Total: 100 %');

    await userEvent.setup().tab();
    expect(shares()).toEqual(['13 %', '60 %', '27 %']);
    expect(screen.queryByText(/Counts as/)).toBeNull();
  });

  it('rounds a decimal down as well, and leaves 0.4 at 0', async () => {
    renderWithModals(<Editor />);
    await typeShare('Red', '20.4');
    expect(share('Green').value).toBe('40 %');
    await typeShare('Blue', '0.4');
    await userEvent.setup().tab();
    expect(shares()).toEqual(['20 %', '80 %', '0 %']);
  });
});
