import { z } from 'zod';
import { defineOperation } from './define-operation';
import { wellFormedString } from '../well-formed-string';

/** One folder inside the folder listed. */
export interface FolderEntry {
  readonly name: string;
  readonly path: string;
}

/** The sub-folders of a folder on the host, for choosing a workspace in a browser (which has no folder picker). */
export interface FolderListing {
  /** The folder listed, as an absolute path. */
  readonly path: string;
  /** Its parent folder; null at the root. */
  readonly parent: string | null;
  /** The host user's home folder, where browsing starts. */
  readonly home: string;
  readonly folders: readonly FolderEntry[];
  /** Hidden folders (a name starting with ".") left out because `showHidden` was off. */
  readonly hiddenCount: number;
  /** More folders than a listing holds: the first ones by name are listed. */
  readonly truncated: boolean;
}

export const folderOperations = {
  /**
   * Lists the sub-folders of an absolute folder on the host (the home folder when `path` is left
   * out). A path that is not absolute, not there, not a folder, or not readable is refused, saying which.
   */
  'workspace.folders': defineOperation<FolderListing>()({
    mode: 'query',
    input: z.strictObject({ path: wellFormedString().min(1).max(4096).optional(), showHidden: z.boolean().optional() }),
    errors: ['invalid_input', 'not_found'],
  }),
} as const;
