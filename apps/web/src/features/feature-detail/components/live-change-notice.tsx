import { useState, type RefObject } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useLiveChanges, type LiveChange } from '../../../lib/live';
import { useSession } from '../../../lib/session';
import { unsavedEditsIn } from './unsaved-edits';

/** What someone did to the feature, in words. */
function whatChanged(change: LiveChange): string {
  const where = change.environmentKey ? ` in ${change.environmentKey}` : '';
  switch (change.kind) {
    case 'feature.toggled':
      return `switched it${where}`;
    case 'feature.targeting':
      return `changed its targeting${where}`;
    case 'feature.deleted':
      return 'deleted it';
    default:
      return 'changed its settings';
  }
}

/**
 * On the feature page, when someone else changes this feature while the user holds unsaved edits
 * (docs/product.md "Live updates"): the edits are kept (each editor keeps its draft over a newer
 * version, and saving it asks to reload first), and this says what happened and offers to reload.
 * Without unsaved edits the page simply shows the change. A switch or targeting saved in the page's
 * own environment is left to the Targeting form, which takes it in beside the edit and says so itself.
 */
export function LiveChangeNotice({
  root,
  projectKey,
  featureKey,
  environmentKey,
}: {
  root: RefObject<HTMLElement | null>;
  projectKey: string;
  featureKey: string;
  /** The page's environment, whose switch and targeting the Targeting form reports. */
  environmentKey?: string;
}) {
  const me = useSession().principalUser.id;
  const [notice, setNotice] = useState<{ feature: string; text: string } | null>(null);
  useLiveChanges((change) => {
    if (change.projectKey !== projectKey || change.featureKey !== featureKey) return;
    if (!change.actor || change.actor.id === me) return;
    // None of these changes the feature itself (a schedule's own writes come as `feature.targeting`).
    if (['feature.seen', 'experiment.changed', 'schedule.changed'].includes(change.kind)) return;
    const targeting = change.kind === 'feature.toggled' || change.kind === 'feature.targeting';
    if (targeting && environmentKey !== undefined && change.environmentKey === environmentKey) return;
    if (unsavedEditsIn(root.current).length === 0) return;
    setNotice({ feature: featureKey, text: `${change.actor.name} ${whatChanged(change)}` });
  });
  if (!notice || notice.feature !== featureKey) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      role="status"
      title="This feature was changed while you were editing"
    >
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          {notice.text}. Your unsaved edits are kept; to see the change, reload (your edits will be lost).
        </Text>
        <Group gap="xs">
          <Button variant="subtle" size="xs" onClick={() => setNotice(null)}>
            Dismiss
          </Button>
          <Button
            size="xs"
            leftSection={<IconRefresh size={14} aria-hidden="true" />}
            onClick={() => window.location.reload()}
          >
            Reload
          </Button>
        </Group>
      </Group>
    </Alert>
  );
}
