import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { item } from '../state/reducers/record-fixtures';
import { formatToolValue, ToolItem } from './ToolItem';

describe('ToolItem', () => {
  it('shows the tool name as the message text, with the kind beside it', () => {
    const call = item({ itemId: 'c1', position: 1, kind: 'tool_call', text: 'current_time', data: { toolName: 'current_time', input: {} } });
    const html = renderToStaticMarkup(<ToolItem item={call} common={{ 'data-testid': 'message' }} />);
    expect(html).toContain('<span data-testid="message" class="message message-tool">current_time</span>');
    expect(html).toContain('Show input');
  });

  it('marks a failed result', () => {
    const result = item({ itemId: 'r1', position: 2, kind: 'tool_result', text: 'read_file', data: { output: 'No such file', isError: true } });
    expect(renderToStaticMarkup(<ToolItem item={result} common={{}} />)).toContain('Tool failed');
  });

  it('formats inputs and outputs for reading', () => {
    expect(formatToolValue({ path: 'a.txt' })).toBe('{\n  "path": "a.txt"\n}');
    expect(formatToolValue('plain')).toBe('plain');
    expect(formatToolValue(undefined)).toBe('');
  });
});
