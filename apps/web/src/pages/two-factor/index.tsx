import { useInvalidateAuthStore } from '@refinedev/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Input, Typography } from 'antd';
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { TWO_FACTOR_REDIRECT_SECONDS } from '../../config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { loadProviders } from '../../providers/lazy.ts';

const SIX_DIGITS = /^\d{6}$/;
const digitsOnly = (value: string) => value.replace(/\D/g, '').slice(0, 6);

/** After a successful setup: the message and a countdown in seconds, then the dashboard. */
const SetupDone = () => {
  const { t } = useTranslation();
  const invalidateAuthStore = useInvalidateAuthStore();
  const [seconds, setSeconds] = useState(TWO_FACTOR_REDIRECT_SECONDS);

  useEffect(() => {
    const timer = window.setInterval(() => setSeconds((left) => Math.max(0, left - 1)), 1000);
    return () => window.clearInterval(timer);
  }, []);
  useEffect(() => {
    // Signed in now: refreshing the auth state lets the guard move on to /dashboard.
    if (seconds === 0) void invalidateAuthStore();
  }, [seconds, invalidateAuthStore]);

  return (
    <div className="two-factor-done" role="status">
      <Alert type="success" showIcon message={t('pages.twoFactor.success')} />
      <p className="countdown">{t('pages.twoFactor.redirect', { count: seconds })}</p>
      <Button type="primary" onClick={() => void invalidateAuthStore()}>
        {t('pages.twoFactor.goNow')}
      </Button>
    </div>
  );
};

/**
 * First-time two-factor setup (spec §2): install an authenticator app, scan the QR code (or type
 * the secret), enter two consecutive codes.
 */
export const TwoFactorPage = () => {
  const { t } = useTranslation();
  const id = useId();
  const invalidateAuthStore = useInvalidateAuthStore();
  usePageTitle(t('pages.twoFactor.title'));
  const qr = useQuery({
    queryKey: ['ccp', '2fa-qrcode'],
    queryFn: async () => (await loadProviders()).auth.twoFactorQrCode(),
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const [error, setError] = useState<'format' | 'wrong' | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!SIX_DIGITS.test(first) || !SIX_DIGITS.test(second)) {
      setError('format');
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const { auth, signInFailures } = await loadProviders();
      const result = await auth.verifyTwoFactorSetup([first, second]);
      if (result.success) {
        setDone(true);
        return;
      }
      if (signInFailures.wrongSetupCodes(result.error)) {
        setError('wrong');
        setFirst('');
        setSecond('');
      } else if (result.redirectTo) {
        await invalidateAuthStore();
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="auth-card auth-card-wide" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`} className="auth-title">
        {t('pages.twoFactor.title')}
      </h1>
      <p className="auth-intro">{t('pages.twoFactor.intro')}</p>
      {done ? (
        <SetupDone />
      ) : (
        <ol className="setup-steps">
          <li>
            <h2>{t('pages.twoFactor.install.title')}</h2>
            <p>{t('pages.twoFactor.install.text')}</p>
          </li>
          <li>
            <h2>{t('pages.twoFactor.scan.title')}</h2>
            {qr.isPending ? (
              <div className="qr-placeholder" role="status" aria-label={t('layout.loading')} />
            ) : qr.isError ? (
              <Alert
                type="error"
                showIcon
                message={t('pages.twoFactor.qrFailed')}
                action={
                  <Button size="small" onClick={() => void qr.refetch()}>
                    {t('buttons.retry')}
                  </Button>
                }
              />
            ) : (
              <div className="qr-block">
                <img
                  className="qr-image"
                  src={qr.data.qr_code}
                  alt={t('pages.twoFactor.scan.qrAlt')}
                  width={200}
                  height={200}
                />
                <div className="qr-manual">
                  <p>{t('pages.twoFactor.scan.manual')}</p>
                  <Typography.Text code copyable className="qr-secret">
                    {qr.data.secret}
                  </Typography.Text>
                </div>
              </div>
            )}
          </li>
          <li>
            <h2>{t('pages.twoFactor.codes.title')}</h2>
            <p>{t('pages.twoFactor.codes.text')}</p>
            <form className="codes-form" onSubmit={(event) => void submit(event)} noValidate>
              <div className="codes-row">
                <div className="field">
                  <label htmlFor={`${id}-first`}>{t('pages.twoFactor.codes.first')}</label>
                  <Input
                    id={`${id}-first`}
                    size="large"
                    value={first}
                    onChange={(event) => setFirst(digitsOnly(event.target.value))}
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={6}
                    status={error ? 'error' : undefined}
                  />
                </div>
                <div className="field">
                  <label htmlFor={`${id}-second`}>{t('pages.twoFactor.codes.second')}</label>
                  <Input
                    id={`${id}-second`}
                    size="large"
                    value={second}
                    onChange={(event) => setSecond(digitsOnly(event.target.value))}
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={6}
                    status={error ? 'error' : undefined}
                  />
                </div>
              </div>
              {error && (
                <Alert
                  type="error"
                  showIcon
                  role="alert"
                  message={
                    error === 'wrong'
                      ? t('validation.otpWrongSetup')
                      : t('validation.twoFactorCodesFormat')
                  }
                />
              )}
              <Button type="primary" htmlType="submit" size="large" loading={busy}>
                {t('pages.twoFactor.codes.submit')}
              </Button>
            </form>
          </li>
        </ol>
      )}
    </section>
  );
};
