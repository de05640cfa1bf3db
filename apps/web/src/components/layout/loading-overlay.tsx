import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import loaderUrl from '../../assets/loader.svg';

let locks = 0;

/** Full-screen loading overlay with the loader image and text; the page behind cannot scroll. */
export const LoadingOverlay = () => {
  const { t } = useTranslation();
  useEffect(() => {
    locks += 1;
    document.body.classList.add('scroll-locked');
    return () => {
      locks -= 1;
      if (locks === 0) document.body.classList.remove('scroll-locked');
    };
  }, []);
  return (
    <div className="loading-overlay" role="status" aria-live="polite">
      <img src={loaderUrl} alt="" width={64} height={64} />
      <p className="loading-overlay-text">{t('layout.loading')}</p>
    </div>
  );
};
