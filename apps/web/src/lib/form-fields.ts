import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';

/*
 * A small form state for the sign-in screens, which are part of the first download of every visit:
 * react-hook-form and its resolver would add some 15 KB (gzipped) to it. It keeps the rules of
 * react-hook-form that those forms relied on: nothing is checked until the first submit; a submit
 * checks every field against the schema, shows the first message of each failing field and focuses
 * the first of them; after that, a field is checked again as it changes. The screens that load later
 * keep using react-hook-form.
 */

type Issue = { readonly path: readonly PropertyKey[]; readonly message: string };

/** What a schema's `safeParse` answers (a zod schema fits): the parsed values, or the issues. */
type ParseResult<Out> =
  { success: true; data: Out } | { success: false; error: { readonly issues: readonly Issue[] } };

type Values = Record<string, string | boolean>;

export type FieldErrors<V extends Values> = Partial<Record<keyof V & string, string>>;

/** The first message of each field the schema refused, by field name. */
function errorsOf<V extends Values>(issues: readonly Issue[]): FieldErrors<V> {
  const errors: Record<string, string> = {};
  for (const { path, message } of issues) {
    const [field] = path;
    if (typeof field === 'string' && !(field in errors)) errors[field] = message;
  }
  return errors as FieldErrors<V>;
}

function withError<V extends Values>(
  errors: FieldErrors<V>,
  name: keyof V & string,
  message: string | undefined,
): FieldErrors<V> {
  if (errors[name] === message) return errors;
  const next = { ...errors };
  if (message === undefined) delete next[name];
  else next[name] = message;
  return next;
}

/**
 * Controlled fields validated by `schema`. Spread `text(name)` on a text input and `checkbox(name)` on a
 * checkbox; `handleSubmit(onValid)` is the form's submit handler and calls `onValid` with the parsed
 * values when they pass.
 */
export function useFormFields<V extends Values, Out>(
  schema: { safeParse(values: V): ParseResult<Out> },
  defaultValues: V,
) {
  const [values, setValues] = useState(defaultValues);
  const [errors, setErrors] = useState<FieldErrors<V>>({});
  const [isSubmitting, setSubmitting] = useState(false);
  // Read by the event handlers: the latest values and whether the form was submitted once.
  const latest = useRef(defaultValues);
  const submitted = useRef(false);
  const inputs = useRef(new Map<string, HTMLInputElement>());

  function change(name: keyof V & string, value: string | boolean) {
    const next = { ...latest.current, [name]: value };
    latest.current = next;
    setValues(next);
    if (!submitted.current) return;
    const result = schema.safeParse(next);
    setErrors((current) =>
      withError(current, name, result.success ? undefined : errorsOf<V>(result.error.issues)[name]),
    );
  }

  function bind(name: keyof V & string) {
    return (input: HTMLInputElement | null) => {
      if (input) inputs.current.set(name, input);
      else inputs.current.delete(name);
    };
  }

  function text(name: keyof V & string) {
    return {
      name,
      value: values[name] as string,
      onChange: (event: ChangeEvent<HTMLInputElement>) => change(name, event.currentTarget.value),
      ref: bind(name),
    };
  }

  function checkbox(name: keyof V & string) {
    return {
      name,
      checked: values[name] as boolean,
      onChange: (event: ChangeEvent<HTMLInputElement>) => change(name, event.currentTarget.checked),
      ref: bind(name),
    };
  }

  /** Shows a message on a field, e.g. one the server sent back. */
  function setError(name: keyof V & string, message: string) {
    setErrors((current) => withError(current, name, message));
  }

  function handleSubmit(onValid: (data: Out) => Promise<void> | void) {
    async function submit() {
      submitted.current = true;
      const result = schema.safeParse(latest.current);
      if (!result.success) {
        const found = errorsOf<V>(result.error.issues);
        setErrors(found);
        const first = Object.keys(defaultValues).find((name) => name in found);
        if (first) inputs.current.get(first)?.focus();
        return;
      }
      setErrors({});
      setSubmitting(true);
      try {
        await onValid(result.data);
      } finally {
        setSubmitting(false);
      }
    }
    return (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      void submit();
    };
  }

  return { errors, isSubmitting, text, checkbox, setError, handleSubmit };
}
