import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconEye, IconPlus, IconTrash } from '@tabler/icons-react';
import { previewInputSchema, type Preview } from '@vexil/core';
import { errorReason } from '../../../components/load-error';
import { usePreviewChangeRequest } from '../../../entities/change-requests/api/preview-change-request';

type Row = { id: number; key: string; value: string };

/** An attribute's value as an SDK would send it: numbers and true/false as such, the rest as text. */
function valueOf(text: string): string | number | boolean {
  const trimmed = text.trim();
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  return text;
}

function ServedTable({ preview }: { preview: Preview }) {
  if (preview.features.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        This request changes no feature this user is served.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table aria-label="What the user is served" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Feature</Table.Th>
            <Table.Th>Now</Table.Th>
            <Table.Th>After</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {preview.features.map((feature) => (
            <Table.Tr key={feature.featureKey}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{feature.featureName}</Table.Td>
              <Table.Td>{feature.before.variantName}</Table.Td>
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <span>{feature.after.variantName}</span>
                  {feature.after.variantKey !== feature.before.variantKey ? (
                    <Badge size="xs" variant="light" color="blue" miw="max-content">
                      Changes
                    </Badge>
                  ) : null}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Preview for a user: a user id and attributes (key and value rows), and for each feature the request
 * changes, the variant that user is served now and once it is applied.
 */
export function ChangeRequestPreview({ projectKey, id }: { projectKey: string; id: string }) {
  const preview = usePreviewChangeRequest();
  const [userId, setUserId] = useState('');
  const [rows, setRows] = useState<Row[]>([]);
  const [nextRow, setNextRow] = useState(1);
  const [error, setError] = useState<string | null>(null);

  const change = (rowId: number, part: 'key' | 'value', text: string) =>
    setRows((current) => current.map((row) => (row.id === rowId ? { ...row, [part]: text } : row)));

  const run = () => {
    const attributes = Object.fromEntries(
      rows.filter((row) => row.key.trim() !== '').map((row) => [row.key.trim(), valueOf(row.value)]),
    );
    const parsed = previewInputSchema.safeParse({ user: { id: userId.trim(), attributes } });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the user.');
      return;
    }
    setError(null);
    preview.mutate({ projectKey, id, input: parsed.data });
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="change-request-preview">
      <Title order={2} fz="lg" id="change-request-preview">
        Preview for a user
      </Title>
      <TextInput
        label="User id"
        placeholder="user-42"
        value={userId}
        error={error}
        onChange={(event) => setUserId(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') run();
        }}
      />
      {rows.map((row, index) => (
        <Group key={row.id} gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label={`Attribute ${index + 1}`}
            placeholder="country"
            value={row.key}
            onChange={(event) => change(row.id, 'key', event.currentTarget.value)}
            style={{ flex: 1, minWidth: 0 }}
          />
          <TextInput
            label={`Value ${index + 1}`}
            placeholder="DE"
            value={row.value}
            onChange={(event) => change(row.id, 'value', event.currentTarget.value)}
            style={{ flex: 1, minWidth: 0 }}
          />
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={`Remove attribute ${index + 1}`}
            onClick={() => setRows((current) => current.filter((other) => other.id !== row.id))}
          >
            <IconTrash size={16} aria-hidden="true" />
          </ActionIcon>
        </Group>
      ))}
      <Group gap="sm">
        <Button
          variant="subtle"
          size="xs"
          leftSection={<IconPlus size={14} aria-hidden="true" />}
          onClick={() => {
            setRows((current) => [...current, { id: nextRow, key: '', value: '' }]);
            setNextRow((n) => n + 1);
          }}
        >
          Add attribute
        </Button>
        <Button
          variant="light"
          leftSection={<IconEye size={16} aria-hidden="true" />}
          loading={preview.isPending}
          onClick={run}
        >
          Preview
        </Button>
      </Group>
      {preview.isError ? (
        <Text size="sm" c="red" role="alert">
          {errorReason(preview.error) || 'The preview could not be made.'}
        </Text>
      ) : null}
      {preview.data ? <ServedTable preview={preview.data} /> : null}
    </Stack>
  );
}
