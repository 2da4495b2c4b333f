import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { FolderListing } from '../../../src-shared/operations/folder-operations';
import { useStoreApi } from '../../state/store-context';
import { Dialog } from '../Dialog';
import { ChevronLeftIcon, Spinner } from '../icons';
import { FolderIcon } from './workspace-icons';

/**
 * Choosing a workspace folder in a browser, which has no folder picker: the host lists the
 * sub-folders of a folder (starting at the one typed, else home); open one, go up, or choose the
 * folder shown. Hidden folders show on request; a folder Cairn may not read says so.
 */
export function FolderBrowserDialog({
  start,
  onChoose,
  onClose,
}: {
  start: string | null;
  onChoose: (path: string) => void;
  onClose: () => void;
}) {
  const store = useStoreApi();
  const [listing, setListing] = useState<FolderListing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [showHidden, setShowHidden] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);

  // `note`: why this listing is not the one asked for (shown with it).
  const open = useCallback(
    (path: string | null, hidden: boolean, fallbackHome: boolean, note: string | null = null) => {
      setLoading(true);
      void store
        .getState()
        .listFolders(path, hidden)
        .then((outcome) => {
          // The folder typed may not be there (yet): start at home instead, saying why.
          if (!outcome.ok && fallbackHome && path !== null) return open(null, hidden, false, outcome.message);
          setLoading(false);
          if (outcome.ok) setListing(outcome.listing);
          setError(outcome.ok ? note : outcome.message);
        });
    },
    [store],
  );

  useEffect(() => {
    open(start !== null && start.trim() !== '' ? start.trim() : null, false, true);
  }, [open, start]);

  const go = (path: string) => {
    open(path, showHidden, false);
    listRef.current?.scrollTo?.({ top: 0 });
  };

  // In the body: the field it opens from sits in a bar that clips and scrolls sideways on a narrow screen.
  return createPortal(
    <Dialog
      title="Choose a workspace folder"
      onClose={onClose}
      className="folder-browser"
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={listing === null || loading}
            onClick={() => listing !== null && onChoose(listing.path)}
          >
            Choose this folder
          </button>
        </>
      }
    >
      <div className="folder-browser-bar">
        <button
          type="button"
          className="icon-button"
          aria-label="Up one folder"
          title="Up one folder"
          disabled={listing?.parent == null || loading}
          onClick={() => listing?.parent != null && go(listing.parent)}
        >
          <ChevronLeftIcon />
        </button>
        <code className="folder-browser-path" data-testid="folder-browser-path" title={listing?.path}>
          <bdi dir="ltr">{listing?.path ?? '…'}</bdi>
        </code>
        {loading ? <Spinner label="Reading the folder" /> : null}
      </div>
      {error === null ? null : (
        <p className="workspace-error" role="alert" data-testid="folder-browser-error">
          {error}
        </p>
      )}
      <ul className="folder-browser-list" aria-label="Folders" ref={listRef} data-testid="folder-browser-list">
        {listing?.home !== undefined && listing.home !== listing.path ? (
          <li>
            <button type="button" className="folder-browser-item is-home" onClick={() => go(listing.home)}>
              <FolderIcon />
              <span>Home</span>
            </button>
          </li>
        ) : null}
        {listing?.folders.map((folder) => (
          <li key={folder.path}>
            <button
              type="button"
              className="folder-browser-item"
              title={`Open ${folder.path}`}
              onClick={() => go(folder.path)}
            >
              <FolderIcon />
              <span>{folder.name}</span>
            </button>
          </li>
        ))}
        {listing !== null && listing.folders.length === 0 ? (
          <li className="folder-browser-empty">No folders in here.</li>
        ) : null}
        {listing?.truncated === true ? (
          <li className="folder-browser-empty">
            Only the first {listing.folders.length} folders are listed: type the path for another.
          </li>
        ) : null}
      </ul>
      <label className="folder-browser-hidden">
        <input
          type="checkbox"
          checked={showHidden}
          onChange={(event) => {
            setShowHidden(event.target.checked);
            if (listing !== null) open(listing.path, event.target.checked, false);
          }}
        />
        Show hidden folders
        {listing !== null && !showHidden && listing.hiddenCount > 0 ? ` (${listing.hiddenCount})` : ''}
      </label>
    </Dialog>,
    document.body,
  );
}
