import { DownloadOutlined } from '@ant-design/icons';
import { ZUuidSchema } from '@ccp/schemas';
import type { TExportDownload } from '@ccp/schemas';
import { useOne } from '@refinedev/core';
import { Button, Result, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';

import { ButtonLink } from '../../components/button-link.tsx';
import { ROUTES } from '../../config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { saveFile } from '../../lib/save-file.ts';
import { downloadErrorOf, fileOf } from './download.ts';
import type { TDownloadError } from './download.ts';

/**
 * The export download page (spec §2, linked from the export e-mail): fetches the export and hands
 * its file to the browser with its name and type, or says which of spec §8's errors happened.
 */
export const ExportShow = () => {
  const { t } = useTranslation();
  usePageTitle(t('exports.titles.show'));
  const { id = '' } = useParams();
  const location = useLocation();
  const valid = ZUuidSchema.safeParse(id).success;
  const { result, query } = useOne<TExportDownload>({
    resource: 'exports',
    id,
    meta: { errorFeedback: 'caller' },
    queryOptions: { enabled: valid, retry: false, staleTime: Infinity },
    errorNotification: false,
  });
  const [fileError, setFileError] = useState<'no_data' | 'download_error' | null>(null);
  const saved = useRef(false);

  const download = (data: TExportDownload) => {
    const file = fileOf(data);
    if ('error' in file) {
      setFileError(file.error);
      return;
    }
    try {
      saveFile(file.blob, file.name);
      setFileError(null);
    } catch {
      setFileError('download_error');
    }
  };

  // Once, when the export arrives: the browser saves the file.
  useEffect(() => {
    if (!result || saved.current) return;
    saved.current = true;
    download(result);
  }, [result]);

  const error: TDownloadError | null = !valid
    ? 'invalid_url'
    : query.isError
      ? downloadErrorOf(query.error)
      : fileError;

  if (error) {
    const signIn = `${ROUTES.login}?to=${encodeURIComponent(location.pathname)}`;
    return (
      <section className="page-section">
        <h1 className="visually-hidden">{t('exports.titles.show')}</h1>
        <Result
          status={
            error === 'no_privileges'
              ? '403'
              : error === 'export_not_found' || error === 'invalid_url'
                ? '404'
                : 'warning'
          }
          title={t(`exports.errors.${error}.title`)}
          subTitle={
            error === 'server_error' && query.error?.message
              ? t('exports.errors.server_error.withMessage', { message: query.error.message })
              : t(`exports.errors.${error}.text`)
          }
          extra={
            error === 'session_expired' ? (
              <ButtonLink type="primary" to={signIn}>
                {t('exports.signIn')}
              </ButtonLink>
            ) : error === 'connection_error' || error === 'server_error' ? (
              <Button type="primary" onClick={() => void query.refetch()}>
                {t('buttons.retry')}
              </Button>
            ) : (
              <ButtonLink to={ROUTES.insights}>{t('exports.backToInsights')}</ButtonLink>
            )
          }
        />
      </section>
    );
  }

  if (!result) {
    return (
      <section className="page-section export-loading" aria-busy="true">
        <Spin />
        <p className="muted">{t('exports.preparing')}</p>
      </section>
    );
  }

  return (
    <section className="page-section">
      <h1 className="visually-hidden">{t('exports.titles.show')}</h1>
      <Result
        status="success"
        title={t('exports.ready.title')}
        subTitle={t('exports.ready.text', {
          name: result.file_name,
          type: result.type_display_name,
        })}
        extra={[
          <Button
            key="again"
            type="primary"
            icon={<DownloadOutlined />}
            onClick={() => download(result)}
          >
            {t('exports.downloadAgain')}
          </Button>,
          <ButtonLink key="back" to={ROUTES.insights}>
            {t('exports.backToInsights')}
          </ButtonLink>,
        ]}
      />
    </section>
  );
};
