import type { Environment, Feature, Project } from '@vexil/core';
import type { Caller } from './api';
import { controlBody, createFeature } from './features';

/** A project `web` with a feature `checkout` (variants on/off) and the development environment's keys. */
export async function sdkFixture(call: Caller) {
  const project = (await call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' })).json<Project>();
  const development = project.environments.find((e) => e.key === 'development')!;
  const production = project.environments.find((e) => e.key === 'production')!;
  const checkout = await createFeature(call, 'web', { name: 'Checkout', key: 'checkout' });
  return { project, development, production, checkout };
}

/** Saves a control change through the dashboard API. */
export async function saveControl(
  call: Caller,
  feature: Feature,
  environment: Environment,
  changes: Parameters<typeof controlBody>[1],
) {
  const res = await call(
    'PUT',
    '/api/v1/feature-controls/',
    controlBody(feature.controls[environment.key]!, changes),
  );
  if (res.statusCode !== 200) throw new Error(`save control: ${res.statusCode} ${res.body}`);
}

/** Reads server-sent events from a fetch response body, one parsed event at a time. */
export function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<{ event: string; data: string }> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length === 0) continue;
          return { event, data: data.join('\n') };
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('The stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

export function base64User(user: unknown, alphabet: 'base64' | 'base64url' = 'base64'): string {
  return Buffer.from(JSON.stringify(user), 'utf8').toString(alphabet);
}
