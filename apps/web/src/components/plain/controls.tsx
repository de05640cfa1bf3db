import { useState } from 'react';
import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode } from 'react';

import { useTexts } from '../../lib/texts.ts';

// Form controls for the screen that loads before antd (sign-in): plain elements styled in
// styles.css (.plain-*) to match the app's antd theme, so the first screen needs only React.
// Everything after sign-in uses antd.

type TAlertProps = { type: 'error' | 'warning'; children: ReactNode };

/** A message under a form: `role="alert"` for errors (announced), a plain note for warnings. */
export const PlainAlert = ({ type, children }: TAlertProps) => (
  <div className={`plain-alert plain-alert-${type}`} role={type === 'error' ? 'alert' : undefined}>
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
      <circle cx="8" cy="8" r="8" fill="currentColor" />
      <path d="M8 4v5M8 11.2v.1" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
    <span>{children}</span>
  </div>
);

type TButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className' | 'type'> & {
  type: 'submit' | 'button';
  variant?: 'primary' | 'link';
  block?: boolean;
  loading?: boolean;
};

/** A large button; `loading` shows a spinner and ignores clicks, as antd's does. */
export const PlainButton = ({
  variant = 'primary',
  block = false,
  loading = false,
  children,
  type,
  onClick,
  ...rest
}: TButtonProps) => (
  <button
    type={type === 'submit' ? 'submit' : 'button'}
    className={`plain-button plain-button-${variant}${block ? ' plain-button-block' : ''}`}
    aria-busy={loading || undefined}
    onClick={(event) => {
      if (loading) event.preventDefault();
      else onClick?.(event);
    }}
    {...rest}
  >
    {loading && <span className="plain-spinner" aria-hidden="true" />}
    {children}
  </button>
);

type TInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'className' | 'size'> & {
  invalid?: boolean;
};

export const PlainInput = ({ invalid = false, ...rest }: TInputProps) => (
  <input className="plain-input" aria-invalid={invalid || undefined} {...rest} />
);

const EYE =
  'M8 3C4.4 3 1.7 5.6.6 8c1.1 2.4 3.8 5 7.4 5s6.3-2.6 7.4-5C14.3 5.6 11.6 3 8 3Zm0 8.2A3.2 3.2 0 1 1 8 4.8a3.2 3.2 0 0 1 0 6.4Zm0-5A1.8 1.8 0 1 0 8 9.8 1.8 1.8 0 0 0 8 6.2Z';

/** A password input with a show/hide button named for what it does. */
export const PlainPassword = ({ invalid = false, ...rest }: Omit<TInputProps, 'type'>) => {
  const { t } = useTexts();
  const [visible, setVisible] = useState(false);
  return (
    <span className="plain-affix">
      <input
        className="plain-input"
        type={visible ? 'text' : 'password'}
        aria-invalid={invalid || undefined}
        {...rest}
      />
      <button
        type="button"
        className="plain-affix-button"
        aria-label={visible ? t('pages.login.hidePassword') : t('pages.login.showPassword')}
        onClick={() => setVisible((shown) => !shown)}
      >
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
          <path fill="currentColor" d={EYE} />
          {!visible && (
            <path d="M2 14 14 2" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
          )}
        </svg>
      </button>
    </span>
  );
};
