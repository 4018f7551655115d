import { Alert } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { SLACK_INSTALL_ERRORS, type SlackInstallError } from '@vexil/core';

export const SLACK_INSTALLED_MESSAGE =
  'Slack is connected: Vexil posts every change to its channel until you choose which ones with Configure.';
/** A reason the callback did not name (an older server, an edited address). */
export const SLACK_INSTALL_UNKNOWN_ERROR = 'Slack could not be added. Try again.';

function isKnownError(error: string): error is SlackInstallError {
  return Object.hasOwn(SLACK_INSTALL_ERRORS, error);
}

/** What the server's OAuth callback reports (`?error={reason}`), in words. */
export function installErrorMessage(error: string): string {
  return isKnownError(error) ? SLACK_INSTALL_ERRORS[error] : SLACK_INSTALL_UNKNOWN_ERROR;
}

/**
 * Coming back from Slack: /admin/integrations?installed=slack says it worked, ?error=… why it did not.
 * Closing it takes the report out of the address, so a reload does not show it again.
 */
export function InstallResult({
  installed,
  error,
  onClose,
}: {
  installed: string | null;
  error: string | null;
  onClose: () => void;
}) {
  if (error) {
    return (
      <Alert
        color="red"
        variant="light"
        role="alert"
        icon={<IconAlertCircle size={18} aria-hidden="true" />}
        withCloseButton
        closeButtonLabel="Dismiss"
        onClose={onClose}
      >
        {installErrorMessage(error)}
      </Alert>
    );
  }
  if (installed === 'slack') {
    return (
      <Alert
        color="teal"
        variant="light"
        role="status"
        icon={<IconCircleCheck size={18} aria-hidden="true" />}
        title="Slack added"
        withCloseButton
        closeButtonLabel="Dismiss"
        onClose={onClose}
      >
        {SLACK_INSTALLED_MESSAGE}
      </Alert>
    );
  }
  return null;
}
