import { sessionTimeLabel } from '../format/dates';
import { plainSnippet } from '../format/plain-text';
import { useAppStore, useStoreApi } from '../state/store-context';

/** Under the sidebar's title matches while searching: messages whose words match, each with its snippet as plain text. */
export function MessageSearchResults() {
  const store = useStoreApi();
  const searchText = useAppStore((state) => state.searchText.trim());
  const search = useAppStore((state) => state.messageSearch);
  if (searchText === '') return null;
  const current = search.query === searchText;
  return (
    <section className="message-search" aria-labelledby="message-search-heading">
      <div className="sidebar-list-header">
        <h2 id="message-search-heading">In messages</h2>
        <label className="message-search-archived">
          <input
            type="checkbox"
            checked={search.includeArchived}
            onChange={(event) => store.getState().setSearchIncludesArchived(event.target.checked)}
          />
          Archived too
        </label>
      </div>
      {current && search.hits.length === 0 ? (
        <p className="sidebar-empty">No message mentions “{searchText}”.</p>
      ) : null}
      <ul className="message-hits" role="list">
        {(current ? search.hits : []).map((hit) => (
          <li key={hit.itemId}>
            <button
              type="button"
              className="message-hit"
              data-testid="message-hit"
              onClick={() => store.getState().openHit(hit)}
            >
              <span className="message-hit-title">
                <span className="message-hit-title-text" title={hit.sessionTitle}>
                  {hit.sessionTitle}
                </span>
                {hit.archived ? <span className="tag">Archived</span> : null}
              </span>
              <span className="message-hit-snippet">
                <span className="visually-hidden">{hit.kind === 'user_message' ? 'You: ' : 'Agent: '}</span>
                {plainSnippet(hit.snippet).map((part, index) =>
                  part.hit ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>,
                )}
              </span>
              <span className="message-hit-meta" aria-hidden="true">
                {hit.kind === 'user_message' ? 'You' : 'Agent'} · {sessionTimeLabel(hit.createdAt, Date.now())}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
