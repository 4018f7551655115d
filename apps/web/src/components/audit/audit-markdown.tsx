import { Code, List, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/*
 * Audit descriptions are markdown written by the server (escapeMarkdown and markdownCode in core), of
 * which this renders only what the server writes: paragraphs, "- " list items, **bold**, `code` and
 * backslash escapes. Everything else (links, images, HTML) stays text, and everything is rendered as
 * React elements, so no description can inject markup, a link or a script.
 */

export type InlineNode =
  | { type: 'text'; value: string }
  | { type: 'code'; value: string }
  | { type: 'strong'; children: InlineNode[] };

export type MarkdownBlock = { type: 'paragraph'; lines: string[] } | { type: 'list'; items: string[] };

/** CommonMark: any ASCII punctuation may be backslash-escaped. */
const ESCAPABLE = /^[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]$/;
const LIST_ITEM = /^\s{0,3}[-*+]\s+(.*)$/;

function closingBackticks(text: string, from: number, length: number): number {
  let i = from;
  while (i < text.length) {
    if (text[i] !== '`') {
      i += 1;
      continue;
    }
    let run = 0;
    while (text[i + run] === '`') run += 1;
    if (run === length) return i;
    i += run;
  }
  return -1;
}

function codeContent(raw: string): string {
  const value = raw.replace(/\n/g, ' ');
  return value.length > 1 && value.startsWith(' ') && value.endsWith(' ') && value.trim() !== ''
    ? value.slice(1, -1)
    : value;
}

/** Parses from `start`; inside bold it stops at the closing `**` and says whether it found one. */
function parseFrom(text: string, start: number, inStrong: boolean): [InlineNode[], number, boolean] {
  const nodes: InlineNode[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer) nodes.push({ type: 'text', value: buffer });
    buffer = '';
  };
  let i = start;
  while (i < text.length) {
    const char = text[i]!;
    const next = text[i + 1];
    if (char === '\\' && next !== undefined && ESCAPABLE.test(next)) {
      buffer += next;
      i += 2;
    } else if (char === '`') {
      let run = 0;
      while (text[i + run] === '`') run += 1;
      const end = closingBackticks(text, i + run, run);
      if (end === -1) {
        buffer += '`'.repeat(run);
      } else {
        flush();
        nodes.push({ type: 'code', value: codeContent(text.slice(i + run, end)) });
      }
      i = end === -1 ? i + run : end + run;
    } else if (char === '*' && next === '*') {
      if (inStrong) {
        flush();
        return [nodes, i + 2, true];
      }
      const [children, after, closed] = parseFrom(text, i + 2, true);
      if (closed && children.length > 0) {
        flush();
        nodes.push({ type: 'strong', children });
        i = after;
      } else {
        buffer += '**';
        i += 2;
      }
    } else {
      buffer += char;
      i += 1;
    }
  }
  flush();
  return [nodes, i, false];
}

/** The inline markdown of one line or paragraph. */
export function parseInline(text: string): InlineNode[] {
  return parseFrom(text, 0, false)[0];
}

/** Paragraphs (separated by blank lines) and lists (consecutive "- " lines). */
export function parseBlocks(markdown: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  let current: MarkdownBlock | null = null;
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const item = LIST_ITEM.exec(line);
    if (line.trim() === '') {
      current = null;
    } else if (item) {
      if (current?.type !== 'list') {
        current = { type: 'list', items: [] };
        blocks.push(current);
      }
      current.items.push(item[1]!);
    } else {
      if (current?.type !== 'paragraph') {
        current = { type: 'paragraph', lines: [] };
        blocks.push(current);
      }
      current.lines.push(line.trim());
    }
  }
  return blocks;
}

function renderInline(nodes: InlineNode[]): ReactNode[] {
  return nodes.map((node, index) => {
    switch (node.type) {
      case 'text':
        return node.value;
      case 'code':
        return <Code key={index}>{node.value}</Code>;
      case 'strong':
        return <strong key={index}>{renderInline(node.children)}</strong>;
    }
  });
}

/** Renders the server's audit markdown safely (see the note at the top of this file). */
export function AuditMarkdown({ markdown }: { markdown: string }) {
  const blocks = parseBlocks(markdown);
  return (
    <Stack gap={6}>
      {blocks.map((block, index) =>
        block.type === 'paragraph' ? (
          <Text key={index} size="sm" component="p" m={0}>
            {renderInline(parseInline(block.lines.join(' ')))}
          </Text>
        ) : (
          <List key={index} size="sm" spacing={2} withPadding>
            {block.items.map((item, i) => (
              <List.Item key={i}>{renderInline(parseInline(item))}</List.Item>
            ))}
          </List>
        ),
      )}
    </Stack>
  );
}
