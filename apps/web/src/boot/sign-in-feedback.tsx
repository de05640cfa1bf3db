import { useEffect, useId, useRef, useState } from 'react';

import type { TMessage } from '../lib/messages.ts';
import { translateMessage } from '../lib/translate-message.ts';
import { currentTexts, useTexts } from '../lib/texts.ts';
import { uiEvents } from '../lib/ui-events.ts';

/** How long a toast stays, as antd's notification (4.5 s). */
const TOAST_MS = 4500;

type TToast = { id: number; text: string };

/** The error modal of spec §7 ("Wow, slow down…" after too many attempts) as a native dialog. */
const ErrorDialog = ({ message, onClose }: { message: TMessage; onClose: () => void }) => {
  const { t } = useTexts();
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      className="plain-dialog"
      aria-labelledby={`${id}-title`}
      onClose={onClose}
      onCancel={onClose}
    >
      <h2 id={`${id}-title`} className="plain-dialog-title">
        {t('modals.error.title')}
      </h2>
      <p className="modal-message">{translateMessage(message, t)}</p>
      <form method="dialog" className="plain-dialog-footer">
        <button type="submit" className="plain-button plain-button-primary" autoFocus>
          {t('buttons.ok')}
        </button>
      </form>
    </dialog>
  );
};

/**
 * What the http client asks the sign-in screen to show (spec §7), before antd is loaded: the
 * error modal and the toasts (top right). The app's GlobalFeedback does the same with antd.
 */
export const SignInFeedback = () => {
  const [error, setError] = useState<TMessage | null>(null);
  const [toasts, setToasts] = useState<TToast[]>([]);

  useEffect(() => {
    let next = 0;
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const stops = [
      uiEvents.on('errorModal', setError),
      uiEvents.on('toast', (message) => {
        // In the language shown now; read at the event, so the listeners stay subscribed while
        // the translator changes (i18next taking over, a language switch) and toasts keep their timers.
        const text = translateMessage(message, currentTexts().t);
        next += 1;
        const id = next;
        // The same failure from parallel calls shows once.
        setToasts((shown) =>
          shown.some((toast) => toast.text === text) ? shown : [...shown, { id, text }],
        );
        const timer = setTimeout(() => {
          timers.delete(timer);
          setToasts((shown) => shown.filter((toast) => toast.id !== id));
        }, TOAST_MS);
        timers.add(timer);
      }),
    ];
    return () => {
      for (const stop of stops) stop();
      for (const timer of timers) clearTimeout(timer);
    };
  }, []);

  return (
    <>
      {error && <ErrorDialog message={error} onClose={() => setError(null)} />}
      <div className="plain-toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className="plain-toast">
            {toast.text}
          </div>
        ))}
      </div>
    </>
  );
};
