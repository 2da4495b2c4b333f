import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures';

const NOTES_SERVER = fileURLToPath(new URL('../src-main/testing/mcp-servers/stdio-test-server.ts', import.meta.url));
const LABELS_SERVER = fileURLToPath(new URL('../src-main/testing/mcp-servers/elicit-test-server.ts', import.meta.url));

test('start a turn with an MCP prompt from the / menu: grouped by server, filtered by typing, its argument asked inline', async ({
  page,
  cairn,
}) => {
  await cairn.call('mcp.server.create', {
    name: 'Notes',
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', NOTES_SERVER],
  });
  const { session } = await cairn.call('session.create', { title: 'Prompt from slash', permissionMode: 'full' });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Prompt from slash' }).click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('/');
  const menu = page.getByRole('listbox', { name: 'Skills and directives, and MCP prompts' });
  const notes = menu.getByRole('group', { name: 'Prompts of the MCP server Notes' });
  await expect(notes).toContainText('MCP server Notes');
  await expect(
    notes.getByRole('option', { name: /\/review Review a file — Asks for a careful review\./ }),
  ).toBeVisible();
  // Typing filters: the demo directives that do not match leave, the prompt stays.
  await composer.fill('/rev');
  await expect(menu.getByText('Offline demo')).toHaveCount(0);
  await notes.getByRole('option', { name: /\/review/ }).click();
  const form = menu.getByRole('group', { name: 'Arguments of Review a file' });
  await form.getByRole('button', { name: 'Insert prompt' }).click();
  await expect(form.getByRole('alert')).toHaveText('Fill in file.');
  await form.getByRole('textbox', { name: /file/ }).fill('app.ts');
  await form.getByRole('textbox', { name: /file/ }).press('Enter');
  await expect(composer).toHaveValue('Please review app.ts carefully.');
  await expect(composer).toBeFocused();
  await composer.press('Enter');
  await expect(
    page.getByTestId('message').filter({ hasText: 'Please review app.ts carefully.' }).first(),
  ).toBeVisible();
  const { turns } = await cairn.call('transcript.page', { sessionId: session.sessionId, limit: 20 });
  expect(turns.map((turn) => turn.text)).toEqual(['Please review app.ts carefully.']);
});

test('an MCP server’s question (elicitation) is answered in the transcript and the tool call continues', async ({
  page,
  cairn,
}) => {
  await cairn.call('mcp.server.create', {
    name: 'Labels',
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', LABELS_SERVER],
  });
  const { session } = await cairn.call('session.create', { title: 'Elicitation', permissionMode: 'full' });
  await cairn.open(page);
  await page.getByTestId('session-row').filter({ hasText: 'Elicitation' }).click();
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('/tool labels__ask_details {}');
  await composer.press('Enter');

  const card = page.locator('[data-testid="interaction"][data-kind="form"]').last();
  await expect(card).toHaveAttribute('data-status', 'pending');
  await expect(card).toContainText('The MCP server "Labels" asks');
  await expect(card).toContainText('Which label should I print?');
  await expect(page.getByTestId('waiting-item')).toContainText('The MCP server "Labels" asks');
  await expect(card.getByLabel('Access token')).toHaveAttribute('type', 'password');
  await expect(page.getByTestId('run-asking')).toHaveText(
    'Waiting for your answer — the tool call goes on when you answer',
  );

  // Checked against the server's schema before it is sent.
  await card.getByLabel('Your name').fill('A');
  await card.getByRole('button', { name: 'Submit' }).click();
  await expect(card).toContainText('Use at least 2 characters.');
  await card.getByLabel('Your name').fill('Ada');
  await card.getByLabel('Copies').fill('3');
  await card.getByRole('radio', { name: 'Light blue' }).check();
  await card.getByLabel('Access token').fill('tok-5ecret');
  await card.getByRole('button', { name: 'Submit' }).click();
  await expect(card).toHaveAttribute('data-status', 'answered');
  await expect(card).toContainText('••••••');
  await expect(card).not.toContainText('tok-5ecret');
  await expect(page.getByTestId('waiting-list')).toHaveCount(0);
  await expect
    .poll(
      async () =>
        (
          await cairn.call('turn.query', {
            sessionId: session.sessionId,
            turnId:
              (await cairn.call('transcript.page', { sessionId: session.sessionId, limit: 5 })).turns[0]?.turnId ?? '',
          })
        ).turn.status,
    )
    .toBe('completed');
  const { items } = await cairn.call('transcript.page', { sessionId: session.sessionId, limit: 50 });
  const result = items.find((item) => item.kind === 'tool_result')?.data as {
    isError: boolean;
    output: { text: string };
  };
  expect(result.isError).toBe(false);
  for (const part of ['"name":"Ada"', '"copies wanted":3', '"colour":"Light blue"', '"tokenLength":10'])
    expect(result.output.text).toContain(part);
});
