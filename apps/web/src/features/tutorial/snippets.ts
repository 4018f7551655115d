/*
 * The code of the Tutorial's "Evaluate it" step (docs/product.md §2 "Tutorial"): a small program in each
 * SDK language that connects the published Featureflow SDK of that language to this Vexil and evaluates
 * the tutorial's feature every few seconds. How each SDK is pointed at Vexil follows
 * docs/sdk-protocol.md §1: the server key in `Authorization`, and every URL the SDK calls on the
 * dashboard's own origin (Node: `baseUrl` and `eventsUrl`; Java: full URLs for polling, events and
 * registration; Go: `Config.BaseURL`, which it also sends its events to).
 */

export const TUTORIAL_LANGUAGES = ['nodejs', 'java', 'go'] as const;
export type TutorialLanguage = (typeof TUTORIAL_LANGUAGES)[number];

/** docs/product.md §9: Java is the language the tutorial starts with, and returns to on Reset. */
export const DEFAULT_TUTORIAL_LANGUAGE: TutorialLanguage = 'java';

export const LANGUAGE_LABELS: Record<TutorialLanguage, string> = { nodejs: 'NodeJS', java: 'Java', go: 'Go' };

export function isTutorialLanguage(value: unknown): value is TutorialLanguage {
  return (TUTORIAL_LANGUAGES as readonly unknown[]).includes(value);
}

/** Stands in for a server key the user may not see: the program still shows where it goes. */
export const SERVER_KEY_PLACEHOLDER = '<your server SDK key>';

/** The user the programs evaluate the feature for (targeting can pick them by id or attribute). */
export const TUTORIAL_USER_ID = 'user-1';
export const TUTORIAL_USER_ATTRIBUTE = { name: 'tier', value: 'gold' } as const;

/** How often the programs evaluate the feature, so that a change in Vexil shows in their output. */
export const EVALUATION_INTERVAL_SECONDS = 5;

/** The published SDK of each language, as its package manager names it. */
export const SDK_PACKAGES = {
  /** npm; the version docs/sdk-protocol.md is checked against is 0.6.7. */
  nodejs: { name: 'featureflow-node-sdk' },
  /** Maven Central. */
  java: { groupId: 'io.featureflow', artifactId: 'featureflow-java-sdk', version: '1.4.1' },
  /** A Go module; the client is its `featureflow` package. */
  go: {
    module: 'github.com/featureflow/featureflow-go-sdk',
    package: 'github.com/featureflow/featureflow-go-sdk/featureflow',
  },
} as const;

/** The Featureflow protocol's paths (docs/sdk-protocol.md §2, §4, §5), for the SDK that takes full URLs. */
export const SDK_PATHS = {
  features: '/api/sdk/v1/features',
  events: '/api/sdk/v1/events',
  register: '/api/sdk/v1/register',
} as const;

export type SnippetValues = {
  /** The dashboard's origin, e.g. `https://flags.example.com` (no trailing slash). */
  baseUrl: string;
  /** The environment's server key, or null when it is hidden from this user. */
  serverKey: string | null;
  /** The feature the program evaluates. */
  featureKey: string;
};

/** What the step shows for one language, top to bottom. */
export type TutorialSnippet = {
  language: TutorialLanguage;
  /** How to add the SDK to a project, and in what (shell, Maven's pom.xml). */
  install: { title: string; code: string };
  /** The program, and the file it goes in. */
  program: { fileName: string; code: string };
  /** How to run it. */
  run: string;
  /** How soon Vexil hears of the evaluations once the program runs. */
  reportsWithin: string;
};

/** A JavaScript string literal in single quotes. */
function jsString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

/** A Java or Go string literal in double quotes. */
function cString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** Strips what would make the origin end in a slash, so that paths join with exactly one. */
function origin(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

/** The Featureflow Node SDK (`featureflow-node-sdk`): polls every 10 s, sends evaluations every 5 s. */
export function nodeSnippet(values: SnippetValues): TutorialSnippet {
  const url = jsString(origin(values.baseUrl));
  const key = jsString(values.featureKey);
  const { name, value } = TUTORIAL_USER_ATTRIBUTE;
  return {
    language: 'nodejs',
    install: { title: 'Terminal', code: `npm install ${SDK_PACKAGES.nodejs.name}` },
    program: {
      fileName: 'tutorial.js',
      code: [
        `const Featureflow = require(${jsString(SDK_PACKAGES.nodejs.name)});`,
        '',
        'const featureflow = new Featureflow.Client({',
        `  apiKey: ${jsString(values.serverKey ?? SERVER_KEY_PLACEHOLDER)},`,
        `  baseUrl: ${url},`,
        `  eventsUrl: ${url},`,
        '});',
        '',
        `const user = new Featureflow.UserBuilder(${jsString(TUTORIAL_USER_ID)})`,
        `  .withAttribute(${jsString(name)}, ${jsString(value)})`,
        '  .build();',
        '',
        'function check() {',
        `  if (featureflow.evaluate(${key}, user).isOn()) {`,
        `    console.log(${jsString(`${values.featureKey} is on`)});`,
        '  } else {',
        `    console.log(${jsString(`${values.featureKey} is off`)});`,
        '  }',
        '}',
        '',
        `// Once the features have loaded, and every ${EVALUATION_INTERVAL_SECONDS} seconds after.`,
        'featureflow.ready(() => {',
        '  check();',
        `  setInterval(check, ${EVALUATION_INTERVAL_SECONDS * 1000});`,
        '});',
      ].join('\n'),
    },
    run: 'node tutorial.js',
    reportsWithin: 'a few seconds',
  };
}

/** The Featureflow Java SDK (`io.featureflow:featureflow-java-sdk`): polls every 60 s, sends evaluations every 60 s. */
export function javaSnippet(values: SnippetValues): TutorialSnippet {
  const { groupId, artifactId, version } = SDK_PACKAGES.java;
  const key = cString(values.featureKey);
  const { name, value } = TUTORIAL_USER_ATTRIBUTE;
  return {
    language: 'java',
    install: {
      title: 'pom.xml',
      code: [
        '<dependency>',
        `  <groupId>${groupId}</groupId>`,
        `  <artifactId>${artifactId}</artifactId>`,
        `  <version>${version}</version>`,
        '</dependency>',
      ].join('\n'),
    },
    program: {
      fileName: 'src/main/java/Tutorial.java',
      code: [
        'import io.featureflow.client.FeatureflowClient;',
        'import io.featureflow.client.FeatureflowConfig;',
        'import io.featureflow.client.FeatureflowUser;',
        '',
        'public class Tutorial {',
        '    public static void main(String[] args) throws InterruptedException {',
        `        String vexil = ${cString(origin(values.baseUrl))};`,
        '        FeatureflowConfig config = FeatureflowConfig.builder()',
        `                .withPollingUri(vexil + ${cString(SDK_PATHS.features)})`,
        `                .withFeatureEventUri(vexil + ${cString(SDK_PATHS.events)})`,
        `                .withRegisterFeatureUri(vexil + ${cString(SDK_PATHS.register)})`,
        '                .build();',
        `        FeatureflowClient featureflow = FeatureflowClient.builder(${cString(values.serverKey ?? SERVER_KEY_PLACEHOLDER)})`,
        '                .withConfig(config)',
        '                .build();',
        '',
        `        FeatureflowUser user = new FeatureflowUser(${cString(TUTORIAL_USER_ID)})`,
        `                .withAttribute(${cString(name)}, ${cString(value)});`,
        '',
        `        // Every ${EVALUATION_INTERVAL_SECONDS} seconds; the SDK reports the evaluations to Vexil once a minute.`,
        '        while (true) {',
        `            if (featureflow.evaluate(${key}, user).isOn()) {`,
        `                System.out.println(${cString(`${values.featureKey} is on`)});`,
        '            } else {',
        `                System.out.println(${cString(`${values.featureKey} is off`)});`,
        '            }',
        `            Thread.sleep(${EVALUATION_INTERVAL_SECONDS * 1000});`,
        '        }',
        '    }',
        '}',
      ].join('\n'),
    },
    run: 'mvn compile exec:java -Dexec.mainClass=Tutorial',
    reportsWithin: 'a minute',
  };
}

/** The Featureflow Go SDK (`github.com/featureflow/featureflow-go-sdk`): one event per evaluation. */
export function goSnippet(values: SnippetValues): TutorialSnippet {
  const key = cString(values.featureKey);
  const { name, value } = TUTORIAL_USER_ATTRIBUTE;
  return {
    language: 'go',
    install: {
      title: 'Terminal',
      code: ['go mod init tutorial', `go get ${SDK_PACKAGES.go.module}`].join('\n'),
    },
    program: {
      fileName: 'main.go',
      code: [
        'package main',
        '',
        'import (',
        '\t"fmt"',
        '\t"time"',
        '',
        `\t${cString(SDK_PACKAGES.go.package)}`,
        ')',
        '',
        'func main() {',
        `\tclient, err := featureflow.Client(${cString(values.serverKey ?? SERVER_KEY_PLACEHOLDER)}, featureflow.Config{`,
        `\t\tBaseURL: ${cString(origin(values.baseUrl))},`,
        '\t})',
        '\tif err != nil {',
        '\t\tpanic(err)',
        '\t}',
        `\tuser, _ := featureflow.NewUserBuilder(${cString(TUTORIAL_USER_ID)}).`,
        `\t\tWithAttribute(${cString(name)}, ${cString(value)}).`,
        '\t\tBuild()',
        '',
        `\t// Every ${EVALUATION_INTERVAL_SECONDS} seconds; each evaluation is reported to Vexil as it happens.`,
        '\tfor {',
        `\t\tif client.Evaluate(${key}, user).IsOn() {`,
        `\t\t\tfmt.Println(${cString(`${values.featureKey} is on`)})`,
        '\t\t} else {',
        `\t\t\tfmt.Println(${cString(`${values.featureKey} is off`)})`,
        '\t\t}',
        `\t\ttime.Sleep(${EVALUATION_INTERVAL_SECONDS} * time.Second)`,
        '\t}',
        '}',
      ].join('\n'),
    },
    run: 'go run main.go',
    reportsWithin: 'a few seconds',
  };
}

/** The snippet of `language`, filled in with `values`. */
export function tutorialSnippet(language: TutorialLanguage, values: SnippetValues): TutorialSnippet {
  switch (language) {
    case 'nodejs':
      return nodeSnippet(values);
    case 'java':
      return javaSnippet(values);
    case 'go':
      return goSnippet(values);
  }
}
