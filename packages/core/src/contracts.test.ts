/// <reference types="vite/client" />
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DENIAL_MESSAGES } from './denials';
import * as messages from './messages';

/*
 * Contracts live once, in core: the server and the dashboard import the sentences of ./messages
 * (and the denials) instead of writing them out again, so the two cannot drift apart. This reads
 * every source file of the apps (tests and test helpers aside) and fails, naming the file, when one
 * of those sentences appears there as a string literal or as JSX text.
 */

/** Source of every app file, by path relative to the repository (`apps/web/src/…`). */
const sources = import.meta.glob(
  [
    '../../../apps/*/src/**/*.{ts,tsx}',
    '!../../../apps/*/src/**/*.test.{ts,tsx}',
    '!../../../apps/*/src/**/*-test-server.{ts,tsx}',
    '!../../../apps/*/src/testing/**',
  ],
  { query: '?raw', import: 'default', eager: true },
) as Record<string, string>;

const files = Object.entries(sources).map(([path, text]) => ({ path: path.replace(/^(\.\.\/)+/, ''), text }));

/** Every sentence core words once: the string exports of ./messages and the denials. */
const sentences = [
  ...Object.values(messages as Record<string, unknown>).filter(
    (value): value is string => typeof value === 'string',
  ),
  ...Object.values(DENIAL_MESSAGES),
];

/**
 * Fragments of the sentences core builds from parts (`limitMessage`): written out elsewhere, they
 * mean the sentence is built a second time.
 */
const fragments = ['(s) allowed.'];

/** The text of every string literal, template part and JSX text of a file; comments are not read. */
function literalsOf(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    )
      found.push(node.text);
    else if (ts.isJsxText(node)) found.push(node.text.replace(/\s+/g, ' '));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Where each of `needles` is written out in the apps, as `file: "needle"`. */
function copiesOf(needles: readonly string[]): string[] {
  const copies: string[] = [];
  for (const { path, text } of files) {
    // Parse only the files that mention a needle at all: most do not.
    const mentioned = needles.filter((needle) => text.includes(needle));
    if (mentioned.length === 0) continue;
    const literals = literalsOf(path, text);
    for (const needle of mentioned)
      if (literals.some((literal) => literal.includes(needle)))
        copies.push(`${path}: ${JSON.stringify(needle)}`);
  }
  return copies;
}

describe('contracts live once, in core', () => {
  it('reads the apps’ sources', () => {
    const paths = files.map((file) => file.path);
    expect(paths).toContain('apps/server/src/app.ts');
    expect(paths).toContain('apps/web/src/main.tsx');
    expect(paths.some((path) => path.includes('.test.'))).toBe(false);
  });

  it('finds a sentence written out again, in a literal or in JSX, but not in a comment', () => {
    const sentence = messages.INACTIVE_ACCOUNT;
    const literals = literalsOf(
      'example.tsx',
      `// ${sentence}\nconst a = '${sentence}';\nconst b = <p>\n  ${sentence}\n</p>;\nconst c = \`\${x}${sentence}\`;`,
    );
    expect(literals.filter((literal) => literal.includes(sentence))).toHaveLength(3);
    expect(literalsOf('comment.ts', `/** "${sentence}" */ const a = 1;`)).toEqual([]);
  });

  it('no app writes out a sentence of core’s messages or denials: they import it', () => {
    expect(sentences.length).toBeGreaterThan(5);
    expect(copiesOf(sentences)).toEqual([]);
  });

  it('no app builds the feature-limit sentence again: they call limitMessage', () => {
    expect(messages.limitMessage('maxProjects', 1)).toBe('Only 1 project(s) allowed.');
    expect(copiesOf(fragments)).toEqual([]);
  });
});
