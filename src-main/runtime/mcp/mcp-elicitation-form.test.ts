import { ElicitRequestFormParamsSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { elicitationForm } from './mcp-elicitation-form';

const paramsOf = (raw: unknown) => ElicitRequestFormParamsSchema.parse(raw);

describe('elicitationForm', () => {
  it('gives fields safe ids and options safe values, and maps the answer back to the server’s names', () => {
    const raw = {
      message: 'Pick',
      requestedSchema: {
        type: 'object',
        properties: {
          'first name': { type: 'string' },
          sizes: {
            type: 'array',
            items: {
              anyOf: [
                { const: 'x large', title: 'XL' },
                { const: 'm', title: 'M' },
              ],
            },
            default: ['m'],
          },
          pin: { type: 'string', writeOnly: true },
          mood: { type: 'string', oneOf: [{ const: 'very good', title: 'Very good' }], default: 'very good' },
        },
        required: ['first name'],
      },
    };
    const form = elicitationForm('Shop', paramsOf(raw), { params: raw });
    if ('error' in form) throw new Error(form.error);
    expect(form.request.fields).toEqual([
      { id: 'field_1', label: 'first name', required: true, type: 'string' },
      {
        id: 'sizes',
        label: 'sizes',
        required: false,
        type: 'multi_select',
        options: [
          { value: 'option_1', label: 'XL' },
          { value: 'm', label: 'M' },
        ],
        default: ['m'],
      },
      { id: 'pin', label: 'pin', required: false, type: 'string', secret: true },
      {
        id: 'mood',
        label: 'mood',
        required: false,
        type: 'single_select',
        options: [{ value: 'option_1', label: 'Very good' }],
        default: 'option_1',
      },
    ]);
    expect(form.content({ field_1: 'Ada', sizes: ['option_1', 'm'], pin: '', mood: 'option_1' })).toEqual({
      'first name': 'Ada',
      sizes: ['x large', 'm'],
      mood: 'very good',
    });
  });

  it('refuses what a Cairn form cannot show, saying why', () => {
    const none = elicitationForm(
      'Shop',
      paramsOf({ message: 'ok?', requestedSchema: { type: 'object', properties: {} } }),
      null,
    );
    expect(none).toEqual({
      error: 'Cairn shows an elicitation as a form with at least one field; this one asked for none.',
    });
    const properties = Object.fromEntries(Array.from({ length: 33 }, (_, index) => [`f${index}`, { type: 'boolean' }]));
    const tooMany = elicitationForm(
      'Shop',
      paramsOf({ message: 'many', requestedSchema: { type: 'object', properties } }),
      null,
    );
    expect('error' in tooMany ? tooMany.error : '').toMatch(/^Cairn cannot show this elicitation as a form: fields: /);
  });
});
