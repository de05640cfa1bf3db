import { Button } from 'antd';
import { useTranslation } from 'react-i18next';

import { PublicLayout } from '../../components/layout/public-layout.tsx';
import { ROUTES } from '../../config.ts';
import { ChunkLoadError, isChunkFailure } from '../../lib/chunk-load.ts';
import { maybeSignedIn } from '../../providers/lazy.ts';

/**
 * The 500 page (spec §2): the error message and a way back, to the dashboard when signed in and
 * to the login otherwise. Kept free of data hooks, since it shows when something else broke.
 */
export const ServerErrorPage = ({ error }: { error: Error }) => {
  const { t } = useTranslation();
  const signedIn = maybeSignedIn();
  // A chunk that could not load says why in the user's words, not the browser's (spec §8).
  const chunk = isChunkFailure(error);
  const title = chunk
    ? t(
        error instanceof ChunkLoadError && !error.offline
          ? 'pages.serverError.update'
          : 'validation.networkError',
      )
    : t('validation.unknownError');
  return (
    <PublicLayout signedIn={signedIn}>
      <section className="page-section error-page" role="alert">
        <p className="error-code" aria-hidden="true">
          500
        </p>
        <h1 className="page-title">{title}</h1>
        {chunk ? (
          <Button onClick={() => window.location.reload()}>{t('buttons.retry')}</Button>
        ) : (
          error.message && (
            <p className="error-message">
              <code>{error.message}</code>
            </p>
          )
        )}
        <Button type="primary" href={signedIn ? ROUTES.dashboard : ROUTES.login}>
          {signedIn ? t('buttons.goToDashboard') : t('buttons.goToLogin')}
        </Button>
      </section>
    </PublicLayout>
  );
};
