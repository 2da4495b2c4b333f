import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TextField } from './FieldFrame';

describe('the text field', () => {
  it('draws a one-line input by default and a textarea as tall as its rows, not one input high', () => {
    const input = renderToStaticMarkup(<TextField controlId="name" label="Name" value="" onChange={() => {}} />);
    expect(input).toMatch(/<input[^>]*class="input"/);
    const area = renderToStaticMarkup(
      <TextField controlId="env" label="Environment" rows={3} value="" onChange={() => {}} />,
    );
    expect(area).toMatch(/<textarea[^>]*class="input textarea"[^>]*rows="3"/);
  });
});
