import { actionRequests } from '@ccp/data-provider';
import type { TTermsItem } from '@ccp/schemas';
import { useCustomMutation, useList } from '@refinedev/core';
import { Alert, Button, Checkbox, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { ROUTES } from '../../config.ts';
import { decideTermsAcceptance, termsView } from '../../lib/terms.ts';

/**
 * Terms and conditions still to accept (spec §2, §4): blocking, without a close control. Each
 * acceptable term must be ticked; terms only an administrator may accept show the variant that
 * asks to contact the administrator. The list reloads after accepting; the modal goes when empty.
 */
export const TermsModal = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { result, query } = useList<TTermsItem>({
    resource: 'terms',
    pagination: { mode: 'off' },
  });
  const terms = result.data;
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const [mandatoryError, setMandatoryError] = useState(false);
  const [failed, setFailed] = useState(false);
  const { mutate, mutation } = useCustomMutation();

  const view = termsView(terms);
  if (view === 'none') return null;

  const toggle = (uuid: string, checked: boolean) => {
    const next = new Set(ticked);
    if (checked) next.add(uuid);
    else next.delete(uuid);
    setTicked(next);
    setMandatoryError(false);
  };

  const accept = () => {
    const decision = decideTermsAcceptance(terms, ticked);
    if (!decision.ok) {
      setMandatoryError(true);
      return;
    }
    setFailed(false);
    mutate(
      {
        ...actionRequests.acceptTerms(),
        method: 'post',
        values: decision.payload,
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: () => {
          setTicked(new Set());
          void query.refetch();
        },
        onError: () => setFailed(true),
      },
    );
  };

  const footer = [
    <Button key="logout" onClick={() => void navigate(ROUTES.logout)}>
      {t('layout.nav.logOut')}
    </Button>,
    view === 'accept' ? (
      <Button key="accept" type="primary" loading={mutation.isPending} onClick={accept}>
        {t('modals.terms.accept')}
      </Button>
    ) : null,
  ];

  return (
    <Modal
      open
      title={t('modals.terms.title')}
      closable={false}
      maskClosable={false}
      keyboard={false}
      footer={footer}
      width={720}
      centered
    >
      <p>{view === 'accept' ? t('modals.terms.intro') : t('modals.terms.contactAdministrator')}</p>
      <ul className="terms-list">
        {terms.map((term) => (
          <li key={term.uuid} className="terms-item">
            <h3 className="terms-title">{term.title}</h3>
            <div className="terms-content" tabIndex={0}>
              {term.content}
            </div>
            {term.can_accept ? (
              <Checkbox
                checked={ticked.has(term.uuid)}
                onChange={(event) => toggle(term.uuid, event.target.checked)}
              >
                {t('modals.terms.acceptTerm', { title: term.title })}
              </Checkbox>
            ) : (
              <Alert
                type="info"
                showIcon
                message={t('validation.termsNotAcceptable')}
                description={t('modals.terms.askAdministrator')}
              />
            )}
          </li>
        ))}
      </ul>
      {mandatoryError && (
        <Alert type="error" showIcon role="alert" message={t('validation.termsMandatory')} />
      )}
      {failed && <Alert type="error" showIcon message={t('modals.terms.unexpectedError')} />}
    </Modal>
  );
};
