import { lazy, Suspense, useState } from 'react';
import type { ToastItem } from './toast-overlay';

export type { ToastItem };

// Blueprint's toaster (its overlay, transitions and toast, about 9 KB gzip) is code a page needs only once
// something goes wrong or right: it is fetched with the first toast, not with the page (decision 0026).
const ToastOverlay = lazy(() =>
  import('./toast-overlay').then((module) => ({ default: module.ToastOverlay })),
);

/**
 * Renders the toasts a machine state asks for. Nothing is mounted until the first toast; from then on
 * the toaster stays, so later toasts enter and leave with Blueprint's transitions.
 */
export function ToastRegion({ toasts, onDismiss }: { toasts: ToastItem[]; onDismiss: () => void }) {
  const [needed, setNeeded] = useState(false);
  if (!needed && toasts.length > 0) setNeeded(true);
  if (!needed && toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <ToastOverlay toasts={toasts} onDismiss={onDismiss} />
    </Suspense>
  );
}
