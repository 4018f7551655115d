import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TUTORIAL_LANGUAGE,
  SERVER_KEY_PLACEHOLDER,
  TUTORIAL_LANGUAGES,
  goSnippet,
  javaSnippet,
  nodeSnippet,
  tutorialSnippet,
  type SnippetValues,
} from './snippets';

const VALUES: SnippetValues = {
  baseUrl: 'https://flags.example.com',
  serverKey: 'sdk-srv-env-0123456789abcdef0123456789abcdef',
  featureKey: 'my-first-feature',
};

/*
 * What each SDK really calls its package and options. Node: the package installed in this repository
 * (node_modules/featureflow-node-sdk, 0.6.7: dist/index.js exports Client and UserBuilder; dist/Client.js
 * reads config.apiKey, config.baseUrl + '/api/sdk/v1/features' and config.eventsUrl). Java and Go, from
 * the SDKs' published sources: Java's Maven coordinates io.featureflow:featureflow-java-sdk (1.4.1 the
 * latest in its change log), its classes in package io.featureflow.client, FeatureflowClient.builder(apiKey)
 * .withConfig(config).build(), FeatureflowConfig.builder() with withPollingUri, withFeatureEventUri and
 * withRegisterFeatureUri (full URLs, as docs/sdk-protocol.md §1 says), and new FeatureflowUser(id)
 * .withAttribute(name, value); Go's module github.com/featureflow/featureflow-go-sdk with its client in
 * the featureflow package: featureflow.Client(apiKey, featureflow.Config{BaseURL: ...}),
 * featureflow.NewUserBuilder(id).WithAttribute(name, value).Build() and client.Evaluate(key, user).IsOn().
 */

describe('the Node snippet', () => {
  const snippet = nodeSnippet(VALUES);

  it('installs and requires the published featureflow-node-sdk', () => {
    expect(snippet.install.code).toBe('npm install featureflow-node-sdk');
    expect(snippet.program.code).toContain("const Featureflow = require('featureflow-node-sdk');");
  });

  it('gives the client the server key and this Vexil as its base and events URL', () => {
    expect(snippet.program.code).toContain('new Featureflow.Client({');
    expect(snippet.program.code).toContain(`apiKey: '${VALUES.serverKey!}',`);
    expect(snippet.program.code).toContain("baseUrl: 'https://flags.example.com',");
    expect(snippet.program.code).toContain("eventsUrl: 'https://flags.example.com',");
  });

  it('evaluates the feature for a built user once the features have loaded', () => {
    expect(snippet.program.code).toContain("new Featureflow.UserBuilder('user-1')");
    expect(snippet.program.code).toContain("featureflow.evaluate('my-first-feature', user).isOn()");
    expect(snippet.program.code).toContain('featureflow.ready(() => {');
    expect(snippet.run).toBe('node tutorial.js');
  });

  it('shows where the key goes when the user may not see it', () => {
    const hidden = nodeSnippet({ ...VALUES, serverKey: null });
    expect(hidden.program.code).toContain(`apiKey: '${SERVER_KEY_PLACEHOLDER}',`);
    expect(hidden.program.code).not.toContain('sdk-srv-env-');
  });

  it('quotes what it fills in, so that no value can end the string it is in', () => {
    const odd = nodeSnippet({ ...VALUES, baseUrl: "https://x.example/'a\\", featureKey: 'a' });
    expect(odd.program.code).toContain("baseUrl: 'https://x.example/\\'a\\\\',");
  });
});

describe('the Java snippet', () => {
  const snippet = javaSnippet(VALUES);

  it('adds io.featureflow:featureflow-java-sdk to the Maven project', () => {
    expect(snippet.install.title).toBe('pom.xml');
    expect(snippet.install.code).toContain('<groupId>io.featureflow</groupId>');
    expect(snippet.install.code).toContain('<artifactId>featureflow-java-sdk</artifactId>');
    expect(snippet.install.code).toMatch(/<version>\d+\.\d+\.\d+<\/version>/);
  });

  it('imports the SDK’s client, configuration and user classes', () => {
    for (const name of ['FeatureflowClient', 'FeatureflowConfig', 'FeatureflowUser']) {
      expect(snippet.program.code).toContain(`import io.featureflow.client.${name};`);
    }
  });

  it('points polling, events and registration at this Vexil with full URLs', () => {
    const code = snippet.program.code;
    expect(code).toContain('String vexil = "https://flags.example.com";');
    expect(code).toContain('FeatureflowConfig.builder()');
    expect(code).toContain('.withPollingUri(vexil + "/api/sdk/v1/features")');
    expect(code).toContain('.withFeatureEventUri(vexil + "/api/sdk/v1/events")');
    expect(code).toContain('.withRegisterFeatureUri(vexil + "/api/sdk/v1/register")');
    expect(code).toContain(`FeatureflowClient.builder("${VALUES.serverKey!}")`);
    expect(code).toContain('.withConfig(config)');
  });

  it('evaluates the feature for a user', () => {
    expect(snippet.program.code).toContain('new FeatureflowUser("user-1")');
    expect(snippet.program.code).toContain('.withAttribute("tier", "gold");');
    expect(snippet.program.code).toContain('featureflow.evaluate("my-first-feature", user).isOn()');
    expect(snippet.program.fileName).toBe('src/main/java/Tutorial.java');
    expect(snippet.program.code).toContain('public class Tutorial {');
    expect(snippet.run).toContain('-Dexec.mainClass=Tutorial');
  });

  it('shows where the key goes when the user may not see it', () => {
    expect(javaSnippet({ ...VALUES, serverKey: null }).program.code).toContain(
      `FeatureflowClient.builder("${SERVER_KEY_PLACEHOLDER}")`,
    );
  });
});

describe('the Go snippet', () => {
  const snippet = goSnippet(VALUES);

  it('adds the github.com/featureflow/featureflow-go-sdk module and imports its featureflow package', () => {
    expect(snippet.install.code).toContain('go get github.com/featureflow/featureflow-go-sdk');
    expect(snippet.program.code).toContain('\t"github.com/featureflow/featureflow-go-sdk/featureflow"');
  });

  it('gives the client the server key and this Vexil as its BaseURL', () => {
    expect(snippet.program.code).toContain(`featureflow.Client("${VALUES.serverKey!}", featureflow.Config{`);
    expect(snippet.program.code).toContain('BaseURL: "https://flags.example.com",');
  });

  it('evaluates the feature for a built user', () => {
    expect(snippet.program.code).toContain('featureflow.NewUserBuilder("user-1").');
    expect(snippet.program.code).toContain('WithAttribute("tier", "gold").');
    expect(snippet.program.code).toContain('Build()');
    expect(snippet.program.code).toContain('client.Evaluate("my-first-feature", user).IsOn()');
    expect(snippet.program.code).toMatch(/^package main\n/);
    expect(snippet.run).toBe('go run main.go');
  });
});

describe('tutorialSnippet', () => {
  it('starts with Java, and offers NodeJS, Java and Go', () => {
    expect(DEFAULT_TUTORIAL_LANGUAGE).toBe('java');
    expect(TUTORIAL_LANGUAGES).toEqual(['nodejs', 'java', 'go']);
    for (const language of TUTORIAL_LANGUAGES) {
      expect(tutorialSnippet(language, VALUES).language).toBe(language);
    }
  });

  it('joins paths with one slash whatever the origin ends with', () => {
    const code = javaSnippet({ ...VALUES, baseUrl: 'https://flags.example.com/' }).program.code;
    expect(code).toContain('String vexil = "https://flags.example.com";');
  });
});
