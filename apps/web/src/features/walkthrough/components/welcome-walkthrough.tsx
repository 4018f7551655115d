import { useLayoutEffect, useState } from 'react';
import { Box, Button, Group, Modal, Portal, Progress, Stack, Text } from '@mantine/core';
import { useMarkIntroRead } from '../../../entities/account/api/mark-intro-read';
import type { TourTarget } from '../../../lib/tour-targets';
import { WALKTHROUGH_STEPS } from '../steps';

export type WelcomeWalkthroughProps = {
  user: { id: string; firstName: string };
  /** Called once the walkthrough has been closed, whichever way. */
  onClose: () => void;
};

/** Width of the walkthrough's card, and its distance from the window's edges. */
const CARD_WIDTH = 400;
const EDGE = 16;
/** Room around the element pointed at, and between it and the card. */
const HOLE_PADDING = 6;
const GAP = 14;
/** Just below Mantine's modals (200), so that the card is above the dimmed page. */
const SPOTLIGHT_Z_INDEX = 199;

type Area = { top: number; left: number; width: number; height: number };

/** The first element marked as `target` that is drawn (not in a closed drawer, not hidden at this width). */
function findTarget(target: TourTarget): Area | null {
  for (const element of document.querySelectorAll(`[data-tour="${target}"]`)) {
    const rect = element.getBoundingClientRect();
    if (rect.width > 0 && rect.height > 0) {
      return { top: rect.top, left: rect.left, width: rect.width, height: rect.height };
    }
  }
  return null;
}

/** Where `target` is on screen, followed as the window changes; null when it is not on screen. */
function useTargetBox(target: TourTarget | undefined): Area | null {
  const [box, setBox] = useState<Area | null>(null);
  useLayoutEffect(() => {
    const measure = () => setBox(target ? findTarget(target) : null);
    measure();
    if (!target) return undefined;
    window.addEventListener('resize', measure);
    window.addEventListener('scroll', measure, true);
    return () => {
      window.removeEventListener('resize', measure);
      window.removeEventListener('scroll', measure, true);
    };
  }, [target]);
  return box;
}

/** Dims the page, leaving a lit, outlined hole over the element a step is about (or none). */
function Spotlight({ box }: { box: Area | null }) {
  return (
    <Portal>
      <Box
        data-testid="walkthrough-spotlight"
        aria-hidden="true"
        style={{
          position: 'fixed',
          zIndex: SPOTLIGHT_Z_INDEX,
          pointerEvents: 'none',
          borderRadius: 'var(--mantine-radius-md)',
          ...(box
            ? {
                top: box.top - HOLE_PADDING,
                left: box.left - HOLE_PADDING,
                width: box.width + HOLE_PADDING * 2,
                height: box.height + HOLE_PADDING * 2,
                boxShadow: '0 0 0 3px var(--mantine-primary-color-filled), 0 0 0 200vmax rgba(0, 0, 0, 0.55)',
              }
            : { inset: 0, background: 'rgba(0, 0, 0, 0.55)' }),
        }}
      />
    </Portal>
  );
}

/**
 * The welcome walkthrough (docs/product.md §2 "Onboarding walkthrough", §4): a modal wizard over the
 * steps of WALKTHROUGH_STEPS with Skip, Back, Next and Done. A step about an element of the top
 * navigation lights that element and sits below it when it is on screen; otherwise the step is
 * centred. Closing it in any way (Skip, Done, the close button, Escape, a click beside it, the docs
 * link) marks the intro read for the user (PUT /api/v1/users/{id}/settings/intro/read).
 */
export function WelcomeWalkthrough({ user, onClose }: WelcomeWalkthroughProps) {
  const [index, setIndex] = useState(0);
  const markRead = useMarkIntroRead();
  const step = WALKTHROUGH_STEPS[index]!;
  const box = useTargetBox(step.target);
  const last = index === WALKTHROUGH_STEPS.length - 1;

  const close = () => {
    markRead.mutate(user.id);
    onClose();
  };

  // Below the element pointed at, as far left as it starts, inside the window.
  const placed = box
    ? {
        inner: {
          alignItems: 'flex-start',
          justifyContent: 'flex-start',
          paddingTop: box.top + box.height + HOLE_PADDING + GAP,
          paddingLeft: Math.max(
            EDGE,
            Math.min(box.left - HOLE_PADDING, window.innerWidth - CARD_WIDTH - EDGE),
          ),
          paddingRight: EDGE,
        },
      }
    : undefined;

  return (
    <>
      <Spotlight box={box} />
      <Modal
        opened
        onClose={close}
        title={step.title}
        size={CARD_WIDTH}
        centered={!box}
        styles={placed}
        overlayProps={{ backgroundOpacity: 0 }}
        closeButtonProps={{ 'aria-label': 'Close the welcome tour' }}
        transitionProps={{ duration: 0 }}
      >
        <Stack gap="md">
          <Stack gap={6}>
            <Text size="xs" c="dimmed">
              {`Step ${index + 1} of ${WALKTHROUGH_STEPS.length}`}
            </Text>
            <Progress
              value={((index + 1) / WALKTHROUGH_STEPS.length) * 100}
              size="xs"
              aria-label="Welcome tour progress"
            />
          </Stack>
          <Stack gap="sm">{step.body({ firstName: user.firstName, close })}</Stack>
          <Group justify="space-between" gap="xs" mt="xs">
            {last ? (
              <span />
            ) : (
              <Button variant="subtle" color="gray" onClick={close}>
                Skip
              </Button>
            )}
            <Group gap="xs">
              <Button variant="default" onClick={() => setIndex(index - 1)} disabled={index === 0}>
                Back
              </Button>
              {last ? (
                <Button onClick={close} data-autofocus>
                  Done
                </Button>
              ) : (
                <Button onClick={() => setIndex(index + 1)} data-autofocus>
                  Next
                </Button>
              )}
            </Group>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
