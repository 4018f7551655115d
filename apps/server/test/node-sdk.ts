import { createRequire } from 'node:module';

/*
 * featureflow-node-sdk, the published server SDK the counting tests drive, with the types of the parts
 * they use (the package ships none).
 */

export type FeatureflowClient = {
  evaluate(key: string, user: unknown): { value(): string; is(variant: string): boolean };
  close?: () => void;
  eventsClient: { sendQueue(): void; close(): void };
};

export type FeatureflowUserBuilder = {
  withAttribute(key: string, value: unknown): FeatureflowUserBuilder;
  build(): unknown;
};

export type FeatureflowModule = {
  Client: new (
    config: Record<string, unknown>,
    callback: (error: unknown, client: FeatureflowClient) => void,
  ) => FeatureflowClient;
  UserBuilder: new (id: string) => FeatureflowUserBuilder;
  Feature: new (key: string, failover?: string) => { build(): unknown };
};

export const Featureflow = createRequire(import.meta.url)('featureflow-node-sdk') as FeatureflowModule;

/** A client of the environment whose key this is, at `address`, once it has read the payload. */
export function nodeSdkClient(address: string, apiKey: string, config: Record<string, unknown> = {}) {
  return new Promise<FeatureflowClient>((resolve, reject) => {
    new Featureflow.Client(
      { apiKey, baseUrl: address, eventsUrl: address, interval: 0, streaming: false, ...config },
      (error, client) => (error ? reject(error as Error) : resolve(client)),
    );
  });
}
