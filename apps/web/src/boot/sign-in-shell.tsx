import { PublicLayout } from '../components/layout/public-layout.tsx';
import { OfflineBanner } from '../components/layout/offline-banner.tsx';
import { LoginPage } from '../pages/login/index.tsx';
import { SignInFeedback } from './sign-in-feedback.tsx';

type Props = {
  /** Loads the app and hands the page over to it (its guards then leave /login). */
  onSignedIn: () => Promise<void>;
  /** Starts loading the app while the user reads their authenticator. */
  onCredentialsAccepted: () => void;
};

/**
 * /login for a visitor without a session: the sign-in page in the public frame with only React
 * loaded and its own texts (lib/translator.ts), so the form shows about as fast as a bare React
 * page (issues 4 and 32). i18next follows once the user types; Refine, antd and the router once
 * the password is accepted.
 */
export const SignInShell = ({ onSignedIn, onCredentialsAccepted }: Props) => (
  <>
    <OfflineBanner />
    <PublicLayout signedIn={false}>
      <LoginPage onSignedIn={onSignedIn} onCredentialsAccepted={onCredentialsAccepted} />
    </PublicLayout>
    <SignInFeedback />
  </>
);
