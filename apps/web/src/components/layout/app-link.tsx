import { createContext, useContext } from 'react';
import type { ReactElement, ReactNode } from 'react';

export type TAppLinkProps = {
  to: string;
  className?: string;
  'aria-label'?: string;
  children: ReactNode;
};

type TRenderLink = (props: TAppLinkProps) => ReactElement;

const renderPageLink: TRenderLink = ({ to, ...rest }) => <a href={to} {...rest} />;

/**
 * How the shared frame (logo, footer) links to our own pages: a plain link by default, which
 * is what the sign-in screen uses (it loads no router); the app renders the router's Link.
 */
export const AppLinkContext = createContext<TRenderLink>(renderPageLink);

export const AppLink = (props: TAppLinkProps) => useContext(AppLinkContext)(props);
