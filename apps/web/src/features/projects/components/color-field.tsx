import { useId, useState, type FocusEvent, type KeyboardEvent, type Ref } from 'react';
import { ActionIcon, Box, ColorPicker, ColorSwatch, TextInput } from '@mantine/core';
import { useClickOutside } from '@mantine/hooks';
import { IconPalette } from '@tabler/icons-react';
import { DEFAULT_ENVIRONMENT_COLOR, HEX_COLOR_PATTERN } from '@vexil/core';

export type ColorFieldProps = {
  label: string;
  description: string;
  value: string;
  /** Colours offered under the picker; choosing one closes it. */
  swatches: string[];
  error?: string | undefined;
  name?: string;
  inputRef?: Ref<HTMLInputElement>;
  onChange: (value: string) => void;
  /** When focus leaves the field and its picker. */
  onBlur: () => void;
};

/**
 * A hex colour field whose picker opens in place below it, so it pushes the next fields down
 * rather than covering them, and closes when the user moves on: Escape (which leaves the modal
 * around it open), a click elsewhere, or Tab past the picker. What is typed stays as typed, so a
 * colour that is not valid is reported by the form's validation instead of being silently replaced
 * (Mantine's ColorInput puts the last valid colour back on blur).
 */
export function ColorField({
  label,
  description,
  value,
  swatches,
  error,
  name,
  inputRef,
  onChange,
  onBlur,
}: ColorFieldProps) {
  const [opened, setOpened] = useState(false);
  const pickerId = useId();
  const valid = HEX_COLOR_PATTERN.test(value.trim());
  // Closed on the click itself rather than when the press moves the focus: closing the panel moves
  // the fields below it up, and the click must land on the field that was under the pointer.
  const root = useClickOutside<HTMLDivElement>(() => setOpened(false), ['click']);

  const leave = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onBlur();
  };
  const keyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' && opened) {
      // Only the picker closes: the modal leaves alone an Escape from an element marked with
      // data-mantine-stop-propagation (below, while the picker is open).
      setOpened(false);
    } else if (event.key === 'Tab') {
      // Tab past the picker (or back before the field) closes it once the focus has moved.
      const field = event.currentTarget;
      setTimeout(() => {
        if (!field.contains(document.activeElement)) setOpened(false);
      });
    }
  };

  return (
    <Box ref={root} onBlur={leave} onKeyDown={keyDown}>
      <TextInput
        label={label}
        description={description}
        required
        autoComplete="off"
        spellCheck={false}
        error={error}
        name={name}
        ref={inputRef}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        onClick={() => setOpened(true)}
        data-mantine-stop-propagation={opened ? 'true' : undefined}
        leftSection={
          <ColorSwatch color={valid ? value.trim() : 'transparent'} size={18} aria-hidden="true" withShadow />
        }
        rightSection={
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label="Colour picker"
            aria-expanded={opened}
            aria-controls={opened ? pickerId : undefined}
            data-mantine-stop-propagation={opened ? 'true' : undefined}
            onClick={() => setOpened((open) => !open)}
          >
            <IconPalette size={18} aria-hidden="true" />
          </ActionIcon>
        }
      />
      {opened ? (
        // preventDefault keeps the focus where it is while the saturation or hue is dragged.
        <Box mt="xs" onMouseDown={(event) => event.preventDefault()}>
          <ColorPicker
            id={pickerId}
            format="hex"
            fullWidth
            value={valid ? value.trim() : DEFAULT_ENVIRONMENT_COLOR}
            onChange={onChange}
            swatches={swatches}
            swatchesPerRow={swatches.length}
            saturationLabel="Saturation and brightness"
            hueLabel="Hue"
            onColorSwatchClick={() => setOpened(false)}
          />
        </Box>
      ) : null}
    </Box>
  );
}
