import { useSyncExternalStore } from 'react';

import { useTexts } from '../../lib/texts.ts';

const subscribe = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};

/** Spec §8: "Seems like you are offline. Please check your internet connection." */
export const OfflineBanner = () => {
  const { t } = useTexts();
  const online = useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
  if (online) return null;
  return (
    <div className="offline-banner" role="alert">
      {t('validation.offline')}
    </div>
  );
};
