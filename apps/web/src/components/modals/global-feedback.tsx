import { App } from 'antd';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { ROUTES } from '../../config.ts';
import { safeReturnPath } from '../../lib/guards.ts';
import { lazyNamed } from '../../lib/lazy-named.ts';
import type { TMessage } from '../../lib/messages.ts';
import { translateMessage } from '../../lib/translate-message.ts';
import { uiEvents } from '../../lib/ui-events.ts';
import type { TUpgradeRequest } from '../../lib/upgrade-texts.ts';

// Loaded when first needed, so no page pays for them up front.
const ErrorModal = lazyNamed(() => import('./error-modal.tsx'), 'ErrorModal');
const UpgradeModal = lazyNamed(() => import('./upgrade-modal.tsx'), 'UpgradeModal');

/**
 * Renders what the http client decided (spec §7): toasts (top right), the error modal, the
 * upgrade modal, and the way out when the session ended.
 */
export const GlobalFeedback = () => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const navigate = useNavigate();

  const [error, setError] = useState<TMessage | null>(null);
  const [upgrade, setUpgrade] = useState<TUpgradeRequest | null>(null);

  useEffect(() => {
    const stops = [
      uiEvents.on('toast', (message) => {
        // The same failure from parallel calls shows once.
        notification.error({ key: `ccp:${message.text}`, message: translateMessage(message, t) });
      }),
      uiEvents.on('errorModal', setError),
      uiEvents.on('upgrade', setUpgrade),
      uiEvents.on('logout', () => {
        // Where the user was when the session ended: signing in again comes back there.
        const back = safeReturnPath(`${window.location.pathname}${window.location.search}`);
        const useful = back && !back.startsWith(ROUTES.login) && !back.startsWith(ROUTES.logout);
        const to = useful ? `?to=${encodeURIComponent(back)}` : '';
        void navigate(`${ROUTES.logout}${to}`, { replace: true });
      }),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }, [notification, navigate, t]);

  return (
    <Suspense fallback={null}>
      {error && <ErrorModal message={error} onClose={() => setError(null)} />}
      {upgrade && <UpgradeModal request={upgrade} onClose={() => setUpgrade(null)} />}
    </Suspense>
  );
};
