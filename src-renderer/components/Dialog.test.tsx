import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Dialog } from './Dialog';

describe('the dialog shell', () => {
  it('draws the title as the heading that names the dialog, the body, then the footer’s buttons', () => {
    const html = renderToStaticMarkup(
      <Dialog
        title="Delete this session?"
        describedBy="body"
        onClose={() => {}}
        actions={<button type="button">Delete</button>}
      >
        <p id="body">It goes for good.</p>
      </Dialog>,
    );
    const titleId = /<h2 id="([^"]+)">Delete this session\?<\/h2>/.exec(html)?.[1];
    expect(titleId).toBeDefined();
    expect(html).toContain(
      `role="dialog" aria-modal="true" aria-labelledby="${titleId ?? ''}" aria-describedby="body"`,
    );
    expect(html).toMatch(
      /<\/h2><p id="body">It goes for good\.<\/p><div class="dialog-actions"><button type="button">Delete<\/button><\/div>/,
    );
  });

  it('a body that draws its own heading names the dialog by its id, and no footer row is drawn without buttons', () => {
    const html = renderToStaticMarkup(
      <Dialog labelledBy="own" onClose={() => {}}>
        <h2 id="own">Settings</h2>
      </Dialog>,
    );
    expect(html).toContain('aria-labelledby="own"');
    expect(html).not.toContain('dialog-actions');
  });
});
