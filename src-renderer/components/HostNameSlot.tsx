import { lazy, Suspense, useState } from 'react';
import { remotePage } from '../platform/device-page';
import { retryingImport } from '../platform/retrying-import';

const HostName = lazy(() =>
  retryingImport(() => import('./HostName')).then((module) => ({ default: module.HostName })),
);

/** Where a window names the Cairn it shows — only on a page from another machine (docs/remote.md). */
export function HostNameSlot({ variant }: { variant: 'chip' | 'line' }) {
  const [remote] = useState(remotePage);
  return remote ? (
    <Suspense fallback={null}>
      <HostName variant={variant} />
    </Suspense>
  ) : null;
}
