import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { AuditMarkdown, parseBlocks, parseInline } from './audit-markdown';

function renderMarkdown(markdown: string) {
  return render(
    <MantineProvider env="test">
      <AuditMarkdown markdown={markdown} />
    </MantineProvider>,
  ).container;
}

describe('parseInline', () => {
  it('reads bold, code and backslash escapes', () => {
    expect(parseInline('a\\.b **New \\*checkout\\*** (`new-checkout`)')).toEqual([
      { type: 'text', value: 'a.b ' },
      { type: 'strong', children: [{ type: 'text', value: 'New *checkout*' }] },
      { type: 'text', value: ' (' },
      { type: 'code', value: 'new-checkout' },
      { type: 'text', value: ')' },
    ]);
  });

  it('keeps unclosed markers and escaped markers as text', () => {
    expect(parseInline('**open `tick \\*\\*no\\*\\*')).toEqual([
      { type: 'text', value: '**open `tick **no**' },
    ]);
  });

  it('does not read escapes inside code', () => {
    expect(parseInline('`a\\*b`')).toEqual([{ type: 'code', value: 'a\\*b' }]);
  });
});

describe('parseBlocks', () => {
  it('splits paragraphs on blank lines and groups "- " lines into a list', () => {
    expect(parseBlocks('Intro line\nsame paragraph:\n\n- before: Off\n- after: On\n\nEnd.')).toEqual([
      { type: 'paragraph', lines: ['Intro line', 'same paragraph:'] },
      { type: 'list', items: ['before: Off', 'after: On'] },
      { type: 'paragraph', lines: ['End.'] },
    ]);
  });
});

describe('AuditMarkdown', () => {
  it('renders paragraphs, lists, bold and code as elements', () => {
    const container = renderMarkdown(
      'admin@example\\.com updated **Checkout**:\n\n- name: `a` → `b`\n- tags changed',
    );
    expect(container.querySelector('p')?.textContent).toBe('admin@example.com updated Checkout:');
    expect(container.querySelector('strong')?.textContent).toBe('Checkout');
    expect([...container.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'name: a → b',
      'tags changed',
    ]);
    expect([...container.querySelectorAll('code')].map((code) => code.textContent)).toEqual(['a', 'b']);
  });

  it('shows HTML, images and links as text, never as markup', () => {
    const markdown =
      'Hi <img src=x onerror="alert(1)"> and [x](javascript:alert(1)) and ![i](https://evil.example/i.png) <script>alert(2)</script>';
    const container = renderMarkdown(markdown);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('a')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('p')?.textContent).toBe(markdown);
  });
});
