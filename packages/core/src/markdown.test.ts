import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { escapeMarkdown, markdownCode } from './markdown';

function unescape(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

describe('escapeMarkdown', () => {
  it('neutralises links, images, emphasis and HTML', () => {
    expect(escapeMarkdown('[click](http://evil)')).toBe('\\[click\\]\\(http://evil\\)');
    expect(escapeMarkdown('![x](y)')).toBe('\\!\\[x\\]\\(y\\)');
    expect(escapeMarkdown('**bold** _it_')).toBe('\\*\\*bold\\*\\* \\_it\\_');
    expect(escapeMarkdown('<img src=x onerror=alert(1)>')).toBe('\\<img src=x onerror=alert\\(1\\)\\>');
  });

  it('keeps one value on one line', () => {
    expect(escapeMarkdown('a\n# heading\r\nb')).toBe('a \\# heading b');
  });

  it('loses nothing but line breaks: unescaping gives the text back', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const oneLine = text.replace(/[\r\n\t]+/g, ' ');
        expect(unescape(escapeMarkdown(text))).toBe(oneLine);
      }),
    );
  });

  it('leaves no unescaped markdown bracket or angle bracket', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(escapeMarkdown(text)).not.toMatch(/(^|[^\\])[[\]<>`]/);
      }),
    );
  });
});

describe('markdownCode', () => {
  it('wraps a key in one code span that cannot be closed early', () => {
    expect(markdownCode('web')).toBe('`web`');
    expect(markdownCode('a`b')).toBe("`a'b`");
    fc.assert(
      fc.property(fc.string(), (text) => {
        const code = markdownCode(text);
        expect(code.slice(1, -1)).not.toContain('`');
      }),
    );
  });
});
