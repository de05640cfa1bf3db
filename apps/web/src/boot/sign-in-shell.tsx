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
 * and i18next loaded, so the form shows about as fast as a bare React page (issue 4's target).
 * Refine, antd and the router load once the password is accepted.
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
