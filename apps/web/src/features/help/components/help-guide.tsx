import { Anchor, List, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { EnvironmentChoice } from '../../../lib/current-environment';
import { featureListPath } from '../../../lib/paths';
import { EXAMPLE_FEATURE_KEY } from '../snippets';
import { Heading } from './help-heading';

/*
 * The guide sections of the Help page (help-page.tsx): how features, environments, targeting, splits
 * and segments work, in product words.
 */

export function GettingStarted({ current }: { current: EnvironmentChoice | null }) {
  return (
    <section aria-labelledby="getting-started">
      <Heading id="getting-started">Getting started</Heading>
      <Stack gap="sm" mt="sm">
        <Text>
          Your organisation&apos;s work is organised in <strong>projects</strong>. Each project has{' '}
          <strong>environments</strong>, such as Development and Production, one for each place your
          application runs. A feature belongs to a project and exists in every one of its environments, where
          it is on or off, and targeted, separately: turning it on in Development changes nothing in
          Production.
        </Text>
        <List type="ordered" spacing="xs">
          <List.Item>
            <strong>Create a feature.</strong> Choose New Feature in an environment&apos;s feature list, or
            open the{' '}
            <Anchor component={Link} to="/features/create">
              Create feature page
            </Anchor>
            . Give it a name; its key (for example <code>{EXAMPLE_FEATURE_KEY}</code>) is what your code asks
            for.
          </List.Item>
          <List.Item>
            <strong>Turn it on in an environment.</strong> Use the feature&apos;s switch in that
            environment&apos;s feature list
            {current ? (
              <>
                {' '}
                (for example in{' '}
                <Anchor component={Link} to={featureListPath(current.project.key, current.environment.key)}>
                  {current.environment.name}
                </Anchor>
                )
              </>
            ) : null}
            . A production environment asks before the change; elsewhere it applies at once.
          </List.Item>
          <List.Item>
            <strong>Evaluate it in your application</strong> with an SDK connected to that environment (see{' '}
            <Anchor href="#connect-an-sdk">Connecting an SDK</Anchor>), and decide who gets it with{' '}
            <Anchor href="#targeting">targeting</Anchor>.
          </List.Item>
        </List>
        <Text>
          The environment you work in is chosen in the top navigation. A banner marks a production environment
          (changes there reach live users straight away) and a local one (used on a developer&apos;s machine).
        </Text>
      </Stack>
    </section>
  );
}

export function Targeting() {
  return (
    <section aria-labelledby="targeting">
      <Heading id="targeting">Targeting</Heading>
      <Stack gap="sm" mt="sm">
        <Text>
          A feature&apos;s Targeting tab decides, in one environment, which variant each user gets. When the
          feature is off, everyone gets its <strong>off variant</strong>. When it is on, its rules apply:
        </Text>
        <List spacing="xs">
          <List.Item>
            A <strong>rule</strong> has one or more <strong>conditions</strong> and a variant (or a split
            between variants). A condition compares one attribute of the user, such as <code>tier</code> or{' '}
            <code>email</code>, with values: equals, contains, starts with, greater than, before a date, in a
            list and so on. A rule matches when <em>all</em> its conditions hold; a user without the attribute
            does not match it.
          </List.Item>
          <List.Item>
            Rules are tried <strong>in order</strong>, from the top: the first rule that matches decides, and
            the ones below it are not looked at. Move the most specific rules up with the arrows beside each
            rule.
          </List.Item>
          <List.Item>
            The last rule, <strong>Everyone else</strong> (the default rule), has no conditions and serves
            every user no other rule matched. It is always there and always last.
          </List.Item>
        </List>
        <Text>
          Your application sends the attributes with each user (<code>withAttribute</code> in the Node SDK,{' '}
          <code>attributes</code> in the browser client, the context in OFREP). Vexil also knows{' '}
          <code>featureflow.user.id</code>, <code>featureflow.date</code> and{' '}
          <code>featureflow.hourofday</code> for every user. Before saving, &quot;Try a user&quot; on the
          Targeting tab shows which variant a user would get from the rules on screen. Saving in a production
          environment asks first.
        </Text>
      </Stack>
    </section>
  );
}

export function Splits() {
  return (
    <section aria-labelledby="splits">
      <Heading id="splits">Splits</Heading>
      <Stack gap="sm" mt="sm">
        <Text>
          Instead of one variant, a rule can <strong>split</strong> its users between variants by percentage,
          for example 10 % on and 90 % off to try a change on a few users first. The percentages are whole
          numbers that add up to 100; when you change one, the others adjust.
        </Text>
        <Text>
          Splits are <strong>sticky</strong>: the variant depends only on the feature&apos;s key and the
          user&apos;s id (the user key), never on chance, so the same user gets the same variant on every
          call, on every server, in the browser and in every SDK, for as long as the percentages stay the
          same. Give every user a stable id: users without one all count as the same &quot;anonymous&quot;
          user, and OFREP refuses to split without a <code>targetingKey</code>.
        </Text>
      </Stack>
    </section>
  );
}

export function Segments() {
  return (
    <section aria-labelledby="segments">
      <Heading id="segments">Segments</Heading>
      <Stack gap="sm" mt="sm">
        <Text>
          A <strong>segment</strong> is a named group of users, such as beta testers or internal staff, listed
          on an environment&apos;s Segments page with a key, a name and a description. Rules target a segment
          instead of repeating the same conditions in every feature.
        </Text>
        <Text>
          Your application tells Vexil which segments a user belongs to: it sends their segment keys in a user
          attribute, and a target of type segment names that attribute. A condition on it is &quot;in&quot; or
          &quot;not in&quot; the segments you choose. A segment that a rule uses cannot be deleted.
        </Text>
      </Stack>
    </section>
  );
}
