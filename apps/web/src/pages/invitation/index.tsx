import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import {
  NoticeCard,
  PlainField,
  StepCard,
  useStepSubmit,
} from '../../components/plain/auth-card.tsx';
import { PlainAlert, PlainInput, PlainPassword } from '../../components/plain/controls.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { loadProviders } from '../../providers/lazy.ts';
import { linkToken, useFailureText } from '../password-reset/index.tsx';

type TPreview = { email: string; company_name: string; role: 'admin' | 'creator' };

type Props = { onJoined: () => unknown };

/**
 * /invitation#token=…: the invitee chooses a name and password; the account is created and the
 * guard takes them to the 2FA setup.
 */
export const InvitationPage = ({ onJoined }: Props) => {
  const { t } = useTranslation();
  const id = useId();
  usePageTitle(t('pages.invitation.title'));
  const failureText = useFailureText();
  const [token] = useState(linkToken);
  const [preview, setPreview] = useState<TPreview | null>(null);
  const [linkError, setLinkError] = useState<string | null>(
    token ? null : t('validation.linkInvalid'),
  );
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const [password, setPassword] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const { missing, busy, submitWith } = useStepSubmit();

  useEffect(() => {
    if (!token) return;
    void loadProviders().then(({ auth }) =>
      auth
        .previewInvitation(token)
        .then(setPreview, (failure: unknown) => setLinkError(failureText(failure).message)),
    );
    // Once per link.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the token does not change
  }, [token]);

  const submit = submitWith({
    reset: () => {
      setError(null);
      setFields({});
    },
    complete: () => Boolean(first.trim() && last.trim() && password),
    run: async () => {
      const { auth } = await loadProviders();
      const result = await auth.acceptInvitation({
        token,
        first_name: first.trim(),
        last_name: last.trim(),
        password,
      });
      if (result.success) {
        await onJoined();
        return;
      }
      const text = failureText(result.error);
      setFields(text.fields);
      if (Object.keys(text.fields).length === 0) setError(text.message);
    },
  });

  if (linkError && !preview) {
    return (
      <NoticeCard title={t('pages.invitation.title')}>
        <PlainAlert type="error">{linkError}</PlainAlert>
      </NoticeCard>
    );
  }

  const intro = preview
    ? t(`pages.invitation.intro.${preview.role}`, {
        company: preview.company_name,
        email: preview.email,
      })
    : '';
  return (
    <StepCard
      title={t('pages.invitation.title')}
      intro={intro}
      onSubmit={submit}
      error={linkError ?? error}
      missing={missing}
      busy={busy}
      submit={t('pages.invitation.submit')}
    >
      {preview && (
        <>
          <PlainField
            id={`${id}-first`}
            label={t('pages.invitation.firstName')}
            error={fields.first_name}
          >
            <PlainInput
              id={`${id}-first`}
              value={first}
              onChange={(event) => setFirst(event.target.value)}
              autoComplete="given-name"
              autoFocus
              invalid={!!fields.first_name}
            />
          </PlainField>
          <PlainField
            id={`${id}-last`}
            label={t('pages.invitation.lastName')}
            error={fields.last_name}
          >
            <PlainInput
              id={`${id}-last`}
              value={last}
              onChange={(event) => setLast(event.target.value)}
              autoComplete="family-name"
              invalid={!!fields.last_name}
            />
          </PlainField>
          <PlainField
            id={`${id}-password`}
            label={t('pages.reset.password')}
            error={fields.password}
            help={t('pages.reset.rules')}
          >
            <PlainPassword
              id={`${id}-password`}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              autoComplete="new-password"
              invalid={!!fields.password}
            />
          </PlainField>
        </>
      )}
    </StepCard>
  );
};
