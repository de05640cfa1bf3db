import { Component } from 'react';
import type { ErrorInfo, ReactNode } from 'react';
import { useLocation } from 'react-router';

import { ServerErrorPage } from '../pages/errors/server-error.tsx';

type Props = { children: ReactNode };
type BoundaryProps = Props & { resetKey: string };
type State = { error: Error | null };

class Boundary extends Component<BoundaryProps, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override componentDidUpdate(previous: BoundaryProps) {
    // Leaving the broken page (browser back, a link) shows the next page again.
    if (this.state.error && previous.resetKey !== this.props.resetKey) {
      this.setState({ error: null });
    }
  }

  override render() {
    if (this.state.error) return <ServerErrorPage error={this.state.error} />;
    return this.props.children;
  }
}

/** Any render error (or a page chunk that fails to load) shows the 500 page (spec §2). */
export const ErrorBoundary = ({ children }: Props) => {
  const { pathname } = useLocation();
  return <Boundary resetKey={pathname}>{children}</Boundary>;
};
