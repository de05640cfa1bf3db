import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import {
  NoticeCard,
  PlainField,
  StepCard,
  useStepSubmit,
} from '../../components/plain/auth-card.tsx';
import { PlainAlert, PlainInput, PlainPassword } from '../../components/plain/controls.tsx';
import { ROUTES } from '../../config.ts';
import { describeMessage } from '../../lib/messages.ts';
import { translateMessage } from '../../lib/translate-message.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { loadProviders } from '../../providers/lazy.ts';

/** The token of an e-mail link: in the fragment (`#token=…`), which never reaches a server. */
export const linkToken = (): string =>
  new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token') ?? '';

type TFieldErrors = Record<string, string[] | undefined>;

/** The first message of a failure, in the user's language; field errors by field. */
export const useFailureText = () => {
  const { t } = useTranslation();
  const say = (text: string) => translateMessage(describeMessage(text), t);
  return (error: unknown): { message: string; fields: Record<string, string> } => {
    const { message = '', errors } = (error ?? {}) as { message?: string; errors?: TFieldErrors };
    const fields: Record<string, string> = {};
    for (const [field, messages] of Object.entries(errors ?? {})) {
      if (messages?.[0]) fields[field] = say(messages[0]);
    }
    return { message: say(message), fields };
  };
};

/** /forgot-password: the e-mail, then the same answer whether an account has it or not. */
export const ForgotPasswordPage = () => {
  const { t } = useTranslation();
  const id = useId();
  usePageTitle(t('pages.forgot.title'));
  const failureText = useFailureText();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { missing, busy, submitWith } = useStepSubmit();

  const submit = submitWith({
    reset: () => setError(null),
    complete: () => Boolean(email.trim()),
    run: async () => {
      const { auth } = await loadProviders();
      const result = await auth.forgotPassword({ email: email.trim() });
      if (result.success) setSent(true);
      else setError(failureText(result.error).fields.email ?? failureText(result.error).message);
    },
  });

  if (sent) {
    return (
      <NoticeCard title={t('pages.forgot.sentTitle')}>
        <p className="auth-intro">{t('pages.forgot.sent', { email: email.trim() })}</p>
        <a className="auth-back" href={ROUTES.login}>
          {t('pages.forgot.back')}
        </a>
      </NoticeCard>
    );
  }
  return (
    <StepCard
      title={t('pages.forgot.title')}
      intro={t('pages.forgot.intro')}
      onSubmit={submit}
      error={error}
      missing={missing}
      busy={busy}
      submit={t('pages.forgot.submit')}
      after={
        <a className="auth-back" href={ROUTES.login}>
          {t('pages.forgot.back')}
        </a>
      }
    >
      <PlainField id={`${id}-email`} label={t('pages.login.email')}>
        <PlainInput
          id={`${id}-email`}
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          autoComplete="username"
          autoFocus
          invalid={error !== null}
        />
      </PlainField>
    </StepCard>
  );
};

/** /reset-password#token=…: a new password (twice); then sign in again, with the 2FA code. */
export const ResetPasswordPage = () => {
  const { t } = useTranslation();
  const id = useId();
  usePageTitle(t('pages.reset.title'));
  const failureText = useFailureText();
  const [token] = useState(linkToken);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { missing, busy, submitWith } = useStepSubmit();

  const submit = submitWith({
    reset: () => setError(null),
    complete: () => Boolean(password && repeat),
    run: async () => {
      if (password !== repeat) {
        setError(t('pages.reset.mismatch'));
        return;
      }
      const { auth } = await loadProviders();
      const result = await auth.updatePassword({ token, password });
      if (result.success) setDone(true);
      else {
        const text = failureText(result.error);
        setError(text.fields.password ?? text.message);
      }
    },
  });

  if (done) {
    return (
      <NoticeCard title={t('pages.reset.doneTitle')}>
        <p className="auth-intro">{t('pages.reset.done')}</p>
        <a className="auth-back" href={ROUTES.login}>
          {t('pages.reset.signIn')}
        </a>
      </NoticeCard>
    );
  }
  return (
    <StepCard
      title={t('pages.reset.title')}
      intro={t('pages.reset.intro')}
      onSubmit={submit}
      error={error}
      missing={missing}
      busy={busy}
      submit={t('pages.reset.submit')}
      after={
        <a className="auth-back" href={ROUTES.forgotPassword}>
          {t('pages.reset.newLink')}
        </a>
      }
    >
      {!token && <PlainAlert type="error">{t('validation.linkInvalid')}</PlainAlert>}
      <PlainField
        id={`${id}-password`}
        label={t('pages.reset.password')}
        help={t('pages.reset.rules')}
      >
        <PlainPassword
          id={`${id}-password`}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          autoComplete="new-password"
          autoFocus
          invalid={error !== null}
        />
      </PlainField>
      <PlainField id={`${id}-repeat`} label={t('pages.reset.repeat')}>
        <PlainPassword
          id={`${id}-repeat`}
          value={repeat}
          onChange={(event) => setRepeat(event.target.value)}
          autoComplete="new-password"
        />
      </PlainField>
    </StepCard>
  );
};
