import { expect, test } from './fixtures';
import { writeLongSession } from './seed';

test('a 10,000-message session opens at the newest messages with a bounded DOM, and scrolling up loads older ones', async ({
  page,
  cairn,
}) => {
  const sessionId = await writeLongSession(cairn, 5000);
  const { transcript } = await cairn.call('session.get', { sessionId });
  expect(transcript.items.at(-1)?.position).toBe(9999);

  await cairn.open(page);
  await page.getByTestId('session-row').first().click();
  const userMessages = page.locator('[data-testid="message"][data-kind="user_message"]');
  await expect(userMessages.last()).toContainText('seed message 5000');
  const bounded = async () => {
    const count = await page.getByTestId('message').count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(200);
  };
  await bounded();

  const oldestShown = async () => {
    const numbers = await userMessages.evaluateAll((nodes) =>
      nodes.map((node) => Number(/seed message (\d+)/.exec(node.textContent ?? '')?.[1] ?? Number.POSITIVE_INFINITY)),
    );
    return Math.min(...numbers);
  };
  const newestPageStart = await oldestShown();
  // Scroll to the top until an older page has loaded (each poll scrolls again).
  await expect
    .poll(
      async () => {
        await page.getByTestId('transcript').evaluate((node) => {
          const scroller = node.querySelector<HTMLElement>('[data-testid="transcript-scroller"]') ?? node;
          scroller.scrollTop = 0;
        });
        return oldestShown();
      },
      { timeout: 15_000 },
    )
    .toBeLessThan(newestPageStart - 20);
  await bounded();
});
