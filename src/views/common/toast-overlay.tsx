import { type Intent, OverlayToaster, Toast } from '@blueprintjs/core';

export interface ToastItem {
  key: string;
  intent: Intent;
  message: string;
}

/**
 * Blueprint's toaster with the toasts a machine state asks for (ToastRegion loads it with the first
 * toast). The machine owns how long they stay (its delays), so Blueprint's own timeout is off; Blueprint
 * gives each message role="alert". The close control is a Spanish 'Cerrar' action because Blueprint's own
 * close button is labelled in English.
 */
export function ToastOverlay({ toasts, onDismiss }: { toasts: ToastItem[]; onDismiss: () => void }) {
  return (
    <OverlayToaster position="top" usePortal={false}>
      {toasts.map((toast) => (
        <Toast
          key={toast.key}
          intent={toast.intent}
          message={toast.message}
          timeout={0}
          isCloseButtonShown={false}
          action={{ text: 'Cerrar' }}
          onDismiss={onDismiss}
        />
      ))}
    </OverlayToaster>
  );
}
