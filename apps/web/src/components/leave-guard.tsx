import { Button, Modal } from 'antd';
import { useCallback, useContext, useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { UNSAFE_NavigationContext } from 'react-router';

// Leaving a wizard step (or a form: the learner's) with unsaved changes asks whether to save
// progress (spec §4), in the app's own dialog, not the browser's (issue 27): links and
// buttons that navigate (the step bar, the top bar) go through the router's navigator, which is
// held while the question is open; the browser's Back lands on a copy of the current entry that
// is pushed while there are changes, so the page stays and asks; closing the tab asks the
// browser's own question. react-router's useBlocker needs a data router, which the app is not.

type TNavigator = {
  push: (...args: unknown[]) => void;
  replace: (...args: unknown[]) => void;
  go: (delta: number) => void;
};

type TProps = {
  /** Whether there is something unsaved, asked at the moment of leaving. */
  dirty: () => boolean;
  /** Saves; answers false when the save failed (the page stays and shows why). */
  save: () => Promise<boolean>;
  /** The question's text: a wizard step's unless told (the key of a translation). */
  textKey?: string;
};

const TRAP = 'ccpLeaveGuard';

/** The question and the interception; render `guard` once in the page. */
export const useLeaveGuard = ({
  dirty,
  save,
  textKey = 'courses.wizard.leave.text',
}: TProps): { guard: ReactNode; bypass: (run: () => void) => void } => {
  const { t } = useTranslation();
  const { navigator } = useContext(UNSAFE_NavigationContext) as unknown as {
    navigator: TNavigator;
  };
  const [pending, setPending] = useState<(() => void) | null>(null);
  const [saving, setSaving] = useState(false);
  const dirtyRef = useRef(dirty);
  const saveRef = useRef(save);
  const bypassing = useRef(false);
  useEffect(() => {
    dirtyRef.current = dirty;
    saveRef.current = save;
  });

  const ask = useCallback((leave: () => void) => {
    if (bypassing.current || !dirtyRef.current()) {
      leave();
      return;
    }
    setPending(() => leave);
  }, []);

  useEffect(() => {
    const { push, go } = navigator;
    // The router's navigator is patched on purpose, as Refine's UnsavedChangesNotifier does.
    // eslint-disable-next-line react-hooks/immutability
    navigator.push = (...args: unknown[]) => ask(() => push.apply(navigator, args));
    navigator.go = (delta: number) => ask(() => go.call(navigator, delta));
    return () => {
      navigator.push = push;
      navigator.go = go;
    };
  }, [navigator, ask]);

  // Back and forward: a copy of this entry is pushed while there are changes; going back to it
  // keeps the page, which then asks.
  useEffect(() => {
    let trapped = false;
    const trap = () => {
      if (trapped || !dirtyRef.current()) return;
      window.history.pushState({ ...(window.history.state as object), [TRAP]: true }, '');
      trapped = true;
    };
    const timer = window.setInterval(trap, 500);
    const onPop = () => {
      if (!trapped) return;
      trapped = false;
      if (!dirtyRef.current() || bypassing.current) {
        window.history.back();
        return;
      }
      setPending(() => () => window.history.back());
    };
    const onUnload = (event: BeforeUnloadEvent) => {
      if (dirtyRef.current() && !bypassing.current) event.preventDefault();
    };
    window.addEventListener('popstate', onPop);
    window.addEventListener('beforeunload', onUnload);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('popstate', onPop);
      window.removeEventListener('beforeunload', onUnload);
    };
  }, []);

  const leave = (run: () => void) => {
    setPending(null);
    bypassing.current = true;
    run();
    // Navigations settle within the frame; the guard is active again for the next page.
    window.setTimeout(() => {
      bypassing.current = false;
    }, 0);
  };

  const guard = (
    <Modal
      open={pending !== null}
      title={t('courses.wizard.leave.title')}
      onCancel={() => setPending(null)}
      footer={[
        <Button key="stay" onClick={() => setPending(null)}>
          {t('courses.wizard.leave.stay')}
        </Button>,
        <Button key="discard" danger onClick={() => pending && leave(pending)}>
          {t('courses.wizard.leave.discard')}
        </Button>,
        <Button
          key="save"
          type="primary"
          loading={saving}
          onClick={() => {
            const run = pending;
            setSaving(true);
            void saveRef
              .current()
              .then((saved) => {
                if (saved && run) leave(run);
                else setPending(null);
              })
              .finally(() => setSaving(false));
          }}
        >
          {t('courses.wizard.leave.save')}
        </Button>,
      ]}
    >
      <p className="modal-message">{t(textKey)}</p>
    </Modal>
  );

  return {
    guard,
    bypass: (run) => {
      bypassing.current = true;
      run();
      window.setTimeout(() => {
        bypassing.current = false;
      }, 0);
    },
  };
};
