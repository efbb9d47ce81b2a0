import { Button, Classes, Dialog, type Intent } from '@blueprintjs/core';
import { Error as ErrorIcon, InfoSign, TickCircle, WarningSign } from '@blueprintjs/icons';
import { useId } from 'react';
import type { MessageType } from '../../domain/schemas/invoices';

export const LOADING_TEXT = 'Cargando...';
export const CLOSE_TEXT = 'Cerrar';

const VARIANTS: Record<MessageType, { intent: Intent; icon: React.ReactNode; title: string }> = {
  success: {
    intent: 'success',
    icon: <TickCircle size={40} className={Classes.intentClass('success')} />,
    title: 'Listo',
  },
  error: {
    intent: 'danger',
    icon: <ErrorIcon size={40} className={Classes.intentClass('danger')} />,
    title: 'Error',
  },
  info: {
    intent: 'primary',
    icon: <InfoSign size={40} className={Classes.intentClass('primary')} />,
    title: 'Aviso',
  },
  warning: {
    intent: 'warning',
    icon: <WarningSign size={40} className={Classes.intentClass('warning')} />,
    title: 'Atención',
  },
};

/** The accessible names the message dialog takes: its variants' titles, and 'Cargando...' while loading. */
export const MESSAGE_DIALOG_NAMES: readonly string[] = [
  ...Object.values(VARIANTS).map((variant) => variant.title),
  LOADING_TEXT,
];

export interface MessageDialogProps {
  isOpen: boolean;
  /** While true the dialog shows 'Cargando...' on its only button, which cannot close it. */
  loading: boolean;
  /** The server's message_type (spec §8 dialog variants). */
  variant: MessageType;
  /** One message or a list, one per line. */
  message: string | readonly string[] | null;
  onClose: () => void;
}

/** Spec §2 'Alert dialog': a success, error, info or warning icon, the message(s) and 'Cerrar'. */
export function MessageDialog({ isOpen, loading, variant, message, onClose }: MessageDialogProps) {
  const look = VARIANTS[variant];
  const nameId = useId();
  const lines = message === null ? [] : typeof message === 'string' ? [message] : message;
  return (
    <Dialog
      isOpen={isOpen}
      onClose={loading ? undefined : onClose}
      canEscapeKeyClose={!loading}
      canOutsideClickClose={!loading}
      // Blueprint passes aria-labelledby to the role="dialog" element but drops aria-label; the name is a
      // hidden element's text (aria-labelledby reads hidden elements).
      aria-labelledby={nameId}
      aria-busy={loading}
    >
      <span id={nameId} hidden>
        {loading ? LOADING_TEXT : look.title}
      </span>
      <div className={Classes.DIALOG_BODY} data-variant={loading ? undefined : variant}>
        {!loading && look.icon}
        {!loading &&
          lines.map((line) => (
            <p key={line} role={variant === 'error' ? 'alert' : 'status'}>
              {line}
            </p>
          ))}
      </div>
      <div className={Classes.DIALOG_FOOTER}>
        <div className={Classes.DIALOG_FOOTER_ACTIONS}>
          <Button
            intent={look.intent}
            disabled={loading}
            text={loading ? LOADING_TEXT : CLOSE_TEXT}
            onClick={onClose}
          />
        </div>
      </div>
    </Dialog>
  );
}
