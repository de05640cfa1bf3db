import { actionRequests } from '@ccp/data-provider';
import type { TTranslation } from '@ccp/schemas';
import { useCustomMutation, useList } from '@refinedev/core';
import { Alert, Button, Modal } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LINKS } from '../../config.ts';
import { currentLanguage } from '../../lib/texts.ts';
import { upgradeTexts, upgradeThanks } from '../../lib/upgrade-texts.ts';
import type { TUpgradeRequest } from '../../lib/upgrade-texts.ts';

type Props = { request: TUpgradeRequest; onClose: () => void };

/**
 * The upgrade modal (spec §2, §6): the plan limit that was hit, an upgrade request, then thanks.
 * The user may close it at any time.
 */
export const UpgradeModal = ({ request, onClose }: Props) => {
  const { t, i18n } = useTranslation();
  const { result, query } = useList<TTranslation>({
    resource: 'translations',
    filters: [{ field: 'locale', operator: 'eq', value: currentLanguage() }],
    pagination: { mode: 'off' },
  });
  const server = useMemo(
    () => new Map(result.data.map((entry) => [entry.key, entry.value])),
    [result.data],
  );
  const local = (key: string) => (i18n.exists(key) ? t(key) : undefined);
  const texts = upgradeTexts(request, server, local);
  const thanks = upgradeThanks(server, local);

  const [sent, setSent] = useState(false);
  const [failed, setFailed] = useState(false);
  const { mutate, mutation } = useCustomMutation();
  const requestedFunction = texts.requestedFunction;

  const send = () => {
    if (!requestedFunction) return;
    setFailed(false);
    mutate(
      {
        ...actionRequests.requestUpgrade(),
        method: 'post',
        values: { requestedFunction },
        successNotification: false,
        errorNotification: false,
      },
      { onSuccess: () => setSent(true), onError: () => setFailed(true) },
    );
  };

  const footer = sent
    ? [
        <Button key="close" type="primary" onClick={onClose}>
          {t('buttons.close')}
        </Button>,
      ]
    : [
        <Button key="close" onClick={onClose}>
          {t('buttons.notNow')}
        </Button>,
        requestedFunction ? (
          <Button key="send" type="primary" loading={mutation.isPending} onClick={send}>
            {t('modals.upgrade.send')}
          </Button>
        ) : (
          <Button key="sales" type="primary" href={LINKS.salesBooking} target="_blank">
            {t('modals.upgrade.contactSales')}
          </Button>
        ),
      ];

  return (
    <Modal
      open
      title={query.isLoading ? t('modals.upgrade.loading') : sent ? thanks.title : texts.title}
      onCancel={onClose}
      footer={footer}
      closable={{ 'aria-label': t('buttons.close') }}
      centered
    >
      {query.isLoading ? (
        <p className="modal-message muted" role="status">
          {t('layout.loading')}
        </p>
      ) : sent ? (
        <p className="modal-message" role="status">
          {thanks.description}
        </p>
      ) : (
        <>
          <p className="modal-message">{texts.description}</p>
          {texts.feature && (
            <dl className="upgrade-facts">
              <div>
                <dt>{t('modals.upgrade.feature')}</dt>
                <dd>{texts.feature}</dd>
              </div>
              {texts.required !== null && (
                <div>
                  <dt>{t('modals.upgrade.required')}</dt>
                  <dd>{texts.required}</dd>
                </div>
              )}
              {texts.limit !== null && (
                <div>
                  <dt>{t('modals.upgrade.limit')}</dt>
                  <dd>{texts.limit}</dd>
                </div>
              )}
            </dl>
          )}
          {failed && (
            <Alert type="error" showIcon message={t('validation.requestFunctionalityFail')} />
          )}
        </>
      )}
    </Modal>
  );
};
