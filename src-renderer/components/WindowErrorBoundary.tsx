import { Component, type ReactNode } from 'react';

interface State {
  readonly error: Error | null;
}

/**
 * The last line of defence: a view that fails to render (or whose chunk could not be loaded) shows
 * what happened and a Reload, never a blank window. Nothing is lost by reloading: the host keeps the
 * record, and drafts are kept in the window's storage.
 */
export class WindowErrorBoundary extends Component<{ readonly children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown): void {
    console.error('A view failed to render', error);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === null) return this.props.children;
    return (
      <main className="window-error" role="alert" data-testid="window-error">
        <h1>This window stopped working</h1>
        <p>
          Part of Cairn could not be shown: <code>{error.message}</code>. Your sessions and their work are kept by
          Cairn&apos;s host; reloading the window shows them again.
        </p>
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </main>
    );
  }
}
