/**
 * Markdown helpers for audit descriptions: user text (names, keys, urls) is escaped so that it is
 * shown as typed and can never inject links, images or HTML into the audit log.
 */

const MARKDOWN_SPECIAL = /[\\`*_{}[\]()<>#+\-.!|~"'&]/g;

/**
 * Escapes `text` for inline markdown: every character markdown (or inline HTML) could give a
 * meaning is backslash-escaped, and line breaks become spaces so one value stays on one line.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').replace(MARKDOWN_SPECIAL, (char) => `\\${char}`);
}

/** `value` as inline code: backticks inside are replaced so the span cannot be closed early. */
export function markdownCode(value: string): string {
  const safe = value.replace(/[\r\n\t]+/g, ' ').replace(/`/g, "'");
  return `\`${safe}\``;
}
