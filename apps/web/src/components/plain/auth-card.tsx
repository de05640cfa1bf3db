import { useId, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';

import { useTexts } from '../../lib/texts.ts';
import { PlainAlert, PlainButton } from './controls.tsx';

// The cards of the pages a visitor sees before the app (sign-in, password reset, invitation):
// plain React, no antd, so they show with React and i18next alone.

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
  /** Below the form (a way back, another way in). */
  after?: ReactNode;
  children: ReactNode;
};

/** One form step: its title, intro and fields, what went wrong, and its submit button. */
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
  const { t } = useTexts();
  return (
    <NoticeCard title={title}>
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
    </NoticeCard>
  );
};

/** A card that only says something (sent, done, a broken link), with what to do next. */
export const NoticeCard = ({ title, children }: { title: string; children: ReactNode }) => {
  const id = useId();
  return (
    <section className="auth-card" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`} className="auth-title">
        {title}
      </h1>
      {children}
    </section>
  );
};

type PlainFieldProps = {
  id: string;
  label: string;
  /** Beside the label (e.g. "Forgot password?"). */
  labelExtra?: ReactNode;
  /** The field's own error, shown instead of its help. */
  error?: string | undefined;
  help?: string;
  children: ReactNode;
};

/** A labelled field of a plain form, with its error or its help under it. */
export const PlainField = ({ id, label, labelExtra, error, help, children }: PlainFieldProps) => (
  <div className="field">
    {labelExtra ? (
      <div className="field-label-row">
        <label htmlFor={id}>{label}</label>
        {labelExtra}
      </div>
    ) : (
      <label htmlFor={id}>{label}</label>
    )}
    {children}
    {error ? (
      <PlainAlert type="error">{error}</PlainAlert>
    ) : (
      help && <p className="field-help">{help}</p>
    )}
  </div>
);

type TStepSubmit = {
  /** Clears the previous attempt's failure. */
  reset?: () => void;
  /** Whether every required field is filled; if not, "required" shows and nothing is sent. */
  complete: () => boolean;
  /** Sends the step; the submit button spins meanwhile. */
  run: () => Promise<void>;
};

/**
 * The submit of a plain step: the previous failure cleared, a missing field said without a
 * request, the button busy while the step is sent.
 */
export const useStepSubmit = () => {
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const submitWith =
    ({ reset, complete, run }: TStepSubmit) =>
    async (event: FormEvent) => {
      event.preventDefault();
      reset?.();
      if (!complete()) {
        setMissing(true);
        return;
      }
      setMissing(false);
      setBusy(true);
      try {
        await run();
      } finally {
        setBusy(false);
      }
    };
  return { missing, setMissing, busy, submitWith };
};
