import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import {
  formRequestSchema,
  type FormField,
  type FormRequest,
  type FormValue,
} from '../../../src-shared/interaction-model';

type Property = ElicitRequestFormParams['requestedSchema']['properties'][string];
type Content = NonNullable<ElicitResult['content']>;

/** A server's elicitation as a Cairn form, and the way back from the person's values to the server's content. */
export interface ElicitationForm {
  readonly request: FormRequest;
  /** The form's values with the server's own property names and enum values (empty optional fields left out). */
  content(values: Readonly<Record<string, FormValue>>): Content;
}

const IDENT = /^[A-Za-z0-9_.-]{1,64}$/;

interface FieldMap {
  readonly property: string;
  /** Form option value → the server's enum value. */
  readonly options: ReadonlyMap<string, string>;
}

/**
 * Builds the form for an `elicitation/create` request (form mode): one field per property —
 * text (with its format: email, uri, date, date-time), number, integer, yes/no, a single choice
 * (`enum`, `oneOf`, legacy `enumNames`) or several (`array` of `enum`/`anyOf`). The MCP spec has no
 * marker for a secret field (form mode must not ask for secrets at all); a property the server marks
 * with JSON Schema's `writeOnly: true` is treated as one anyway: masked, sealed, never shown back.
 * Returns why not when the request cannot be shown as a Cairn form.
 */
export function elicitationForm(
  serverName: string,
  params: ElicitRequestFormParams,
  raw: unknown,
): ElicitationForm | { error: string } {
  const required = new Set(params.requestedSchema.required ?? []);
  const rawProperties = rawPropertiesOf(raw);
  const maps = new Map<string, FieldMap>();
  const fields: FormField[] = [];
  Object.entries(params.requestedSchema.properties).forEach(([property, schema], index) => {
    const id = IDENT.test(property) && !maps.has(property) ? property : `field_${index + 1}`;
    const options = new Map<string, string>();
    const field = fieldOf(id, property, schema, required.has(property), options, rawProperties[property]);
    maps.set(id, { property, options });
    fields.push(field);
  });
  if (fields.length === 0)
    return { error: 'Cairn shows an elicitation as a form with at least one field; this one asked for none.' };
  const parsed = formRequestSchema.safeParse({
    kind: 'form',
    title: clip(`The MCP server "${serverName}" asks`, 200),
    ...(params.message.trim() === '' ? {} : { description: clip(params.message.trim(), 2000) }),
    fields,
  });
  if (!parsed.success) {
    return {
      error: `Cairn cannot show this elicitation as a form: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    };
  }
  return {
    request: parsed.data,
    content(values) {
      const content: Content = {};
      for (const [id, value] of Object.entries(values)) {
        const map = maps.get(id);
        if (
          map === undefined ||
          value === '' ||
          (Array.isArray(value) && value.length === 0 && !required.has(map.property))
        )
          continue;
        if (typeof value === 'string' && map.options.size > 0) content[map.property] = map.options.get(value) ?? value;
        else if (Array.isArray(value)) content[map.property] = value.map((item) => map.options.get(item) ?? item);
        else content[map.property] = value;
      }
      return content;
    },
  };
}

function fieldOf(
  id: string,
  property: string,
  schema: Property,
  required: boolean,
  options: Map<string, string>,
  raw: Record<string, unknown> | undefined,
): FormField {
  const common = {
    id,
    label: clip((schema.title ?? property).trim() || property, 200),
    required,
    ...(schema.description === undefined || schema.description.trim() === ''
      ? {}
      : { help: clip(schema.description.trim(), 500) }),
  };
  const choices = (pairs: ReadonlyArray<{ value: string; label: string }>) =>
    pairs.map((pair, index) => {
      const value = IDENT.test(pair.value) && !options.has(pair.value) ? pair.value : `option_${index + 1}`;
      options.set(value, pair.value);
      return { value, label: clip(pair.label.trim() || pair.value, 200) };
    });
  const optionOf = (value: string) => [...options].find(([, original]) => original === value)?.[0];
  switch (schema.type) {
    case 'boolean':
      return { ...common, type: 'boolean', ...(schema.default === undefined ? {} : { default: schema.default }) };
    case 'number':
    case 'integer':
      return {
        ...common,
        type: schema.type,
        ...(schema.minimum === undefined ? {} : { minimum: schema.minimum }),
        ...(schema.maximum === undefined ? {} : { maximum: schema.maximum }),
        ...(schema.default === undefined ? {} : { default: schema.default }),
      };
    case 'array': {
      const pairs =
        'enum' in schema.items
          ? schema.items.enum.map((value) => ({ value, label: value }))
          : schema.items.anyOf.map((choice) => ({ value: choice.const, label: choice.title }));
      const fieldOptions = choices(pairs);
      const defaults = (schema.default ?? []).flatMap((value) => optionOf(value) ?? []);
      return {
        ...common,
        type: 'multi_select',
        options: fieldOptions,
        ...(schema.minItems === undefined ? {} : { minItems: schema.minItems }),
        ...(schema.maxItems === undefined ? {} : { maxItems: schema.maxItems }),
        ...(defaults.length === 0 ? {} : { default: defaults }),
      };
    }
    case 'string': {
      if ('oneOf' in schema || 'enum' in schema) {
        const pairs =
          'oneOf' in schema
            ? schema.oneOf.map((choice) => ({ value: choice.const, label: choice.title }))
            : schema.enum.map((value, index) => ({
                value,
                label: ('enumNames' in schema ? schema.enumNames?.[index] : undefined) ?? value,
              }));
        const fieldOptions = choices(pairs);
        const initial = schema.default === undefined ? undefined : optionOf(schema.default);
        return {
          ...common,
          type: 'single_select',
          options: fieldOptions,
          ...(initial === undefined ? {} : { default: initial }),
        };
      }
      const text = schema as Extract<Property, { format?: unknown; minLength?: unknown }>;
      return {
        ...common,
        type: 'string',
        ...(text.format === undefined ? {} : { format: text.format }),
        ...(text.minLength === undefined ? {} : { minLength: text.minLength }),
        ...(text.maxLength === undefined ? {} : { maxLength: text.maxLength }),
        ...(text.default === undefined ? {} : { default: text.default }),
        ...(raw?.writeOnly === true ? { secret: true } : {}),
      };
    }
  }
}

/** The request's properties as the server sent them (the SDK's parse drops keys it does not know, such as `writeOnly`). */
function rawPropertiesOf(raw: unknown): Record<string, Record<string, unknown> | undefined> {
  const params = isRecord(raw) && isRecord(raw.params) ? raw.params : null;
  const schema = params !== null && isRecord(params.requestedSchema) ? params.requestedSchema : null;
  const properties = schema !== null && isRecord(schema.properties) ? schema.properties : {};
  return Object.fromEntries(
    Object.entries(properties).map(([name, value]) => [name, isRecord(value) ? value : undefined]),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
