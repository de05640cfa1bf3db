import { useId, useState } from 'react';

import {
  NoticeCard,
  PlainField,
  StepCard,
  useStepSubmit,
} from '../../components/plain/auth-card.tsx';
import {
  PlainAlert,
  PlainButton,
  PlainInput,
  PlainPassword,
} from '../../components/plain/controls.tsx';
import { ROUTES } from '../../config.ts';
import { loadAllTexts, useTexts } from '../../lib/texts.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { loadedProviders, loadProviders } from '../../providers/lazy.ts';

type TStep = 'credentials' | 'otp' | 'recovery' | 'recoveryLow';
type TFailure = 'invalidCredentials' | 'otpInvalid' | null;

// Warm the client and the language's whole texts up once the user types (not on the autofocus:
// /login must load them lazily); the texts are there before any message needs them.
const preload = () => {
  void loadProviders();
  void loadAllTexts();
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
  const { t } = useTexts();
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
  const { missing, setMissing, busy, submitWith } = useStepSubmit();
  const reset = () => setFailure(null);
  usePageTitle(step === 'otp' ? t('pages.login.otp.title') : t('pages.login.title'));

  const submitCredentials = submitWith({
    reset,
    complete: () => Boolean(email.trim() && password),
    run: async () => {
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
    },
  });

  // A wrong code empties the field; an expired first step starts over.
  const codeRejected = (invalidOtp: boolean, redirectTo: string | undefined) => {
    if (invalidOtp) {
      setFailure('otpInvalid');
      setCode('');
    } else if (redirectTo === ROUTES.login) {
      // The first step expired (or was never done here): start again.
      setStep('credentials');
    }
  };

  const submitCode = submitWith({
    reset,
    complete: () => Boolean(code.trim()),
    run: async () => {
      const { auth, signInFailures } = await loadProviders();
      const result = await auth.login({ code: code.trim() });
      if (result.success) {
        // Signed in: the guard moves on to /dashboard (or back to `?to=`).
        await onSignedIn();
        return;
      }
      codeRejected(signInFailures.invalidOtp(result.error), result.redirectTo);
    },
  });

  const submitRecovery = submitWith({
    reset,
    complete: () => Boolean(code.trim()),
    run: async () => {
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
      codeRejected(signInFailures.invalidOtp(result.error), result.redirectTo);
    },
  });

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
      <NoticeCard title={t('pages.login.recovery.lowTitle')}>
        <PlainAlert type="warning">
          {t('pages.login.recovery.low', { count: remaining })}
        </PlainAlert>
        <PlainButton type="button" block onClick={() => void onSignedIn()}>
          {t('pages.login.recovery.continue')}
        </PlainButton>
      </NoticeCard>
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
        <PlainField id={`${id}-recovery`} label={t('pages.login.recovery.code')}>
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
        </PlainField>
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
        <PlainField id={`${id}-code`} label={t('pages.login.otp.code')}>
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
        </PlainField>
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
      <PlainField id={`${id}-email`} label={t('pages.login.email')}>
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
      </PlainField>
      <PlainField
        id={`${id}-password`}
        label={t('pages.login.password')}
        labelExtra={
          <a className="forgot-link" href={ROUTES.forgotPassword}>
            {t('pages.login.forgotPassword')}
          </a>
        }
      >
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
      </PlainField>
    </StepCard>
  );
};
