import { Anchor } from '@mantine/core';

/**
 * A key field's error when the key is taken: the refusal, then a link that puts the free key offered
 * instead into the field.
 */
export function KeyTakenError({
  message,
  freeKey,
  onUse,
}: {
  message: string;
  freeKey: string;
  onUse: (freeKey: string) => void;
}) {
  return (
    <>
      {message}{' '}
      <Anchor component="button" type="button" inherit onClick={() => onUse(freeKey)}>
        Use {freeKey}
      </Anchor>
    </>
  );
}
