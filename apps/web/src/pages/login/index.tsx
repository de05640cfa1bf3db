import { useId, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import {
  PlainAlert,
  PlainButton,
  PlainInput,
  PlainPassword,
} from '../../components/plain/controls.tsx';
import { ROUTES } from '../../config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { loadedProviders, loadProviders } from '../../providers/lazy.ts';

type TStep = 'credentials' | 'otp' | 'recovery' | 'recoveryLow';
type TFailure = 'invalidCredentials' | 'otpInvalid' | null;

// Warm the client up once the user types (not on the autofocus: /login must load it lazily).
const preload = () => void loadProviders();

type StepCardProps = {
  title: string;
  intro: string;
  onSubmit: (event: FormEvent) => Promise<void>;
  /** The step's failure, shown under its fields. */
  error: string | null;
  /** A field was left empty. */
  missing: boolean;
  busy: boolean;
  submit: string;
  /** Below the form (the way back from the code step). */
  after?: ReactNode;
  children: ReactNode;
};

/** One sign-in step: its title, intro and fields, what went wrong, and its submit button. */
export const StepCard = ({
  title,
  intro,
  onSubmit,
  error,
  missing,
  busy,
  submit,
  after,
  children,
}: StepCardProps) => {
  const { t } = useTranslation();
  const id = useId();
  return (
    <section className="auth-card" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`} className="auth-title">
        {title}
      </h1>
      <p className="auth-intro">{intro}</p>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        {children}
        {error !== null && <PlainAlert type="error">{error}</PlainAlert>}
        {missing && <PlainAlert type="warning">{t('validation.required')}</PlainAlert>}
        <PlainButton type="submit" block loading={busy}>
          {submit}
        </PlainButton>
      </form>
      {after}
    </section>
  );
};

type Props = {
  /** Signed in (or signed in without 2FA yet): whoever shows the page moves on (the guards). */
  onSignedIn: () => unknown;
  /** The password was right and the code is asked for: time to load what comes next. */
  onCredentialsAccepted?: () => void;
};

/**
 * Two-step sign-in (spec §2, §4): e-mail and password, then the authenticator code using the
 * first step's tokens (kept by the auth provider, so the step survives a remount). Plain React
 * (no antd, no Refine): it is the first screen of most visits, and main.tsx shows it before the
 * rest of the app has loaded.
 */
export const LoginPage = ({ onSignedIn, onCredentialsAccepted }: Props) => {
  const { t } = useTranslation();
  const id = useId();
  // A remounted page continues where the half-done login is (the provider keeps the first step).
  const [step, setStep] = useState<TStep>(() =>
    loadedProviders()?.auth.pendingStep() === 'otp' ? 'otp' : 'credentials',
  );
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [remaining, setRemaining] = useState(0);
  const [failure, setFailure] = useState<TFailure>(null);
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  usePageTitle(step === 'otp' ? t('pages.login.otp.title') : t('pages.login.title'));

  const submitCredentials = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!email.trim() || !password) {
      setMissing(true);
      return;
    }
    setMissing(false);
    setBusy(true);
    try {
      const { auth, signInFailures } = await loadProviders();
      const result = await auth.passwordStep({ email: email.trim(), password });
      if (!result.success) {
        if (signInFailures.invalidCredentials(result.error)) setFailure('invalidCredentials');
        return;
      }
      if (result.next === 'setup') {
        // Signed in without 2FA: the guard sends the user to /2fa.
        await onSignedIn();
        return;
      }
      onCredentialsAccepted?.();
      setStep('otp');
    } finally {
      setBusy(false);
    }
  };

  const submitCode = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!code.trim()) {
      setMissing(true);
      return;
    }
    setMissing(false);
    setBusy(true);
    try {
      const { auth, signInFailures } = await loadProviders();
      const result = await auth.login({ code: code.trim() });
      if (result.success) {
        // Signed in: the guard moves on to /dashboard (or back to `?to=`).
        await onSignedIn();
        return;
      }
      if (signInFailures.invalidOtp(result.error)) {
        setFailure('otpInvalid');
        setCode('');
      } else if (result.redirectTo === ROUTES.login) {
        // The first step expired (or was never done here): start again.
        setStep('credentials');
      }
    } finally {
      setBusy(false);
    }
  };

  const submitRecovery = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!code.trim()) {
      setMissing(true);
      return;
    }
    setMissing(false);
    setBusy(true);
    try {
      const { auth, signInFailures } = await loadProviders();
      const result = await auth.recoveryCodeLogin(code.trim());
      if (result.success) {
        // Few codes left: say so before moving on (new ones are made in account settings).
        if (result.low) {
          setRemaining(result.remaining ?? 0);
          setStep('recoveryLow');
          return;
        }
        await onSignedIn();
        return;
      }
      if (signInFailures.invalidOtp(result.error)) {
        setFailure('otpInvalid');
        setCode('');
      } else if (result.redirectTo === ROUTES.login) {
        setStep('credentials');
      }
    } finally {
      setBusy(false);
    }
  };

  const switchTo = (next: TStep) => {
    setFailure(null);
    setMissing(false);
    setCode('');
    setStep(next);
  };

  const startOver = async () => {
    setFailure(null);
    setCode('');
    setStep('credentials');
    const { auth } = await loadProviders();
    await auth.logout({});
  };

  const step1Error = failure === 'invalidCredentials' ? t('pages.login.invalidCredentials') : null;

  if (step === 'recoveryLow') {
    return (
      <section className="auth-card" aria-labelledby={`${id}-low`}>
        <h1 id={`${id}-low`} className="auth-title">
          {t('pages.login.recovery.lowTitle')}
        </h1>
        <PlainAlert type="warning">
          {t('pages.login.recovery.low', { count: remaining })}
        </PlainAlert>
        <PlainButton type="button" block onClick={() => void onSignedIn()}>
          {t('pages.login.recovery.continue')}
        </PlainButton>
      </section>
    );
  }

  if (step === 'recovery') {
    return (
      <StepCard
        title={t('pages.login.recovery.title')}
        intro={t('pages.login.recovery.intro')}
        onSubmit={submitRecovery}
        error={failure === 'otpInvalid' ? t('validation.recoveryCodeInvalid') : null}
        missing={missing}
        busy={busy}
        submit={t('pages.login.otp.submit')}
        after={
          <PlainButton type="button" variant="link" onClick={() => switchTo('otp')}>
            {t('pages.login.recovery.useApp')}
          </PlainButton>
        }
      >
        <div className="field">
          <label htmlFor={`${id}-recovery`}>{t('pages.login.recovery.code')}</label>
          <PlainInput
            id={`${id}-recovery`}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            autoComplete="off"
            spellCheck={false}
            maxLength={13}
            autoFocus
            invalid={failure === 'otpInvalid'}
          />
        </div>
      </StepCard>
    );
  }

  if (step === 'otp') {
    return (
      <StepCard
        title={t('pages.login.otp.title')}
        intro={t('pages.login.otp.intro')}
        onSubmit={submitCode}
        error={failure === 'otpInvalid' ? t('validation.otpInvalid') : null}
        missing={missing}
        busy={busy}
        submit={t('pages.login.otp.submit')}
        after={
          <div className="auth-links">
            <PlainButton type="button" variant="link" onClick={() => switchTo('recovery')}>
              {t('pages.login.recovery.use')}
            </PlainButton>
            <PlainButton type="button" variant="link" onClick={() => void startOver()}>
              {t('pages.login.otp.back')}
            </PlainButton>
          </div>
        }
      >
        <div className="field">
          <label htmlFor={`${id}-code`}>{t('pages.login.otp.code')}</label>
          <PlainInput
            id={`${id}-code`}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            autoFocus
            invalid={failure === 'otpInvalid'}
          />
        </div>
      </StepCard>
    );
  }

  return (
    <StepCard
      title={t('pages.login.title')}
      intro={t('pages.login.intro')}
      onSubmit={submitCredentials}
      error={step1Error}
      missing={missing}
      busy={busy}
      submit={t('pages.login.submit')}
    >
      <div className="field">
        <label htmlFor={`${id}-email`}>{t('pages.login.email')}</label>
        <PlainInput
          id={`${id}-email`}
          type="email"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            preload();
          }}
          autoComplete="username"
          autoFocus
          invalid={step1Error !== null}
        />
      </div>
      <div className="field">
        <div className="field-label-row">
          <label htmlFor={`${id}-password`}>{t('pages.login.password')}</label>
          <a className="forgot-link" href={ROUTES.forgotPassword}>
            {t('pages.login.forgotPassword')}
          </a>
        </div>
        <PlainPassword
          id={`${id}-password`}
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
            preload();
          }}
          autoComplete="current-password"
          invalid={step1Error !== null}
        />
      </div>
    </StepCard>
  );
};
