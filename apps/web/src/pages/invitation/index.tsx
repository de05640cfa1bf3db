import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { PlainAlert, PlainInput, PlainPassword } from '../../components/plain/controls.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { loadProviders } from '../../providers/lazy.ts';
import { StepCard } from '../login/index.tsx';
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
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);

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

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setFields({});
    if (!first.trim() || !last.trim() || !password) {
      setMissing(true);
      return;
    }
    setMissing(false);
    setBusy(true);
    try {
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
    } finally {
      setBusy(false);
    }
  };

  if (linkError && !preview) {
    return (
      <section className="auth-card" aria-labelledby={`${id}-invalid`}>
        <h1 id={`${id}-invalid`} className="auth-title">
          {t('pages.invitation.title')}
        </h1>
        <PlainAlert type="error">{linkError}</PlainAlert>
      </section>
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
          <div className="field">
            <label htmlFor={`${id}-first`}>{t('pages.invitation.firstName')}</label>
            <PlainInput
              id={`${id}-first`}
              value={first}
              onChange={(event) => setFirst(event.target.value)}
              autoComplete="given-name"
              autoFocus
              invalid={!!fields.first_name}
            />
            {fields.first_name && <PlainAlert type="error">{fields.first_name}</PlainAlert>}
          </div>
          <div className="field">
            <label htmlFor={`${id}-last`}>{t('pages.invitation.lastName')}</label>
            <PlainInput
              id={`${id}-last`}
              value={last}
              onChange={(event) => setLast(event.target.value)}
              autoComplete="family-name"
              invalid={!!fields.last_name}
            />
            {fields.last_name && <PlainAlert type="error">{fields.last_name}</PlainAlert>}
          </div>
          <div className="field">
            <label htmlFor={`${id}-password`}>{t('pages.reset.password')}</label>
            <PlainPassword
              id={`${id}-password`}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              autoComplete="new-password"
              invalid={!!fields.password}
            />
            {fields.password ? (
              <PlainAlert type="error">{fields.password}</PlainAlert>
            ) : (
              <p className="field-help">{t('pages.reset.rules')}</p>
            )}
          </div>
        </>
      )}
    </StepCard>
  );
};
