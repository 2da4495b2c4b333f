/**
 * A folder's path cut into the folders above it (with the separator that ends them) and its own name,
 * so a narrow view can elide the parent and keep the name in sight: "/home/ada/pro…/cairn", never
 * "/home/ada/projects/ca…". POSIX and Windows separators alike; a root is all name.
 */
export function splitFolderPath(path: string): { readonly parent: string; readonly name: string } {
  const trimmed = path.length > 1 ? path.replace(/[\\/]+$/, '') : path;
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  if (cut < 0 || cut === trimmed.length - 1) return { parent: '', name: trimmed === '' ? path : trimmed };
  return { parent: trimmed.slice(0, cut + 1), name: trimmed.slice(cut + 1) };
}
