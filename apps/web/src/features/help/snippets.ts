/*
 * The code snippets of the Help page (docs/product.md §2 "Help page"), filled in with this Vexil's
 * address and an environment's keys. Paths, headers and key kinds follow docs/sdk-protocol.md: the
 * server SDKs and OFREP send the secret server key, the browser client the public JS client key, and
 * every SDK's base and events URL is the dashboard's own origin (§1).
 */

/** Stands in for a server key the user may not see: the snippet still shows where it goes. */
export const SERVER_KEY_PLACEHOLDER = '<your server SDK key>';

/** The feature key the snippets evaluate; the page tells the reader to use their own. */
export const EXAMPLE_FEATURE_KEY = 'my-feature';

export type SnippetValues = {
  /** The dashboard's origin, e.g. `https://flags.example.com` (no trailing slash). */
  baseUrl: string;
  /** The environment's server key, or null when it is hidden from this user. */
  serverKey: string | null;
  jsKey: string;
};

/** A JavaScript string literal in single quotes. */
function quoted(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A shell word in single quotes. */
function shellQuoted(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The Featureflow Node SDK (`featureflow-node-sdk`), polling the server key's environment. */
export function nodeSnippet({ baseUrl, serverKey }: SnippetValues): string {
  return [
    '// npm install featureflow-node-sdk',
    "const Featureflow = require('featureflow-node-sdk');",
    '',
    'const featureflow = new Featureflow.Client({',
    `  apiKey: ${quoted(serverKey ?? SERVER_KEY_PLACEHOLDER)},`,
    `  baseUrl: ${quoted(baseUrl)},`,
    `  eventsUrl: ${quoted(baseUrl)},`,
    '});',
    '',
    'featureflow.ready(() => {',
    "  const user = new Featureflow.UserBuilder('user-1').withAttribute('tier', 'gold').build();",
    `  if (featureflow.evaluate(${quoted(EXAMPLE_FEATURE_KEY)}, user).isOn()) {`,
    '    // The new behaviour.',
    '  }',
    '});',
  ].join('\n');
}

/** The Featureflow browser client (`featureflow-client`), with the public JS client key. */
export function browserSnippet({ baseUrl, jsKey }: SnippetValues): string {
  return [
    '// npm install featureflow-client',
    "import { init } from 'featureflow-client';",
    '',
    'const featureflow = await init(',
    `  ${quoted(jsKey)},`,
    "  { id: 'user-1', attributes: { tier: 'gold' } },",
    `  { baseUrl: ${quoted(baseUrl)}, eventsUrl: ${quoted(baseUrl)} },`,
    ');',
    '',
    `if (featureflow.evaluate(${quoted(EXAMPLE_FEATURE_KEY)}).isOn()) {`,
    '  // The new behaviour.',
    '}',
  ].join('\n');
}

/** One flag through OFREP, the OpenFeature Remote Evaluation Protocol, with the server key. */
export function ofrepSnippet({ baseUrl, serverKey }: SnippetValues): string {
  const context = JSON.stringify({ context: { targetingKey: 'user-1', tier: 'gold' } });
  return [
    `curl -X POST ${shellQuoted(`${baseUrl}/ofrep/v1/evaluate/flags/${EXAMPLE_FEATURE_KEY}`)} \\`,
    `  -H ${shellQuoted(`Authorization: Bearer ${serverKey ?? SERVER_KEY_PLACEHOLDER}`)} \\`,
    "  -H 'Content-Type: application/json' \\",
    `  -d ${shellQuoted(context)}`,
  ].join('\n');
}
