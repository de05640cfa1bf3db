import { ArrowLeftOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

type Props = {
  title: ReactNode;
  subtitle?: ReactNode;
  /** A link back to where the page was opened from. */
  back?: { to: string; label: string };
  /** Buttons on the right (wrapping below the title on narrow screens). */
  extra?: ReactNode;
};

/**
 * The head of every page: title, an optional line under it, a way back, the page's main
 * actions. Written here rather than Refine's `<List>`/`<Create>`, whose PageHeader pulls
 * @ant-design/pro-layout into every page chunk.
 */
export const PageHeader = ({ title, subtitle, back, extra }: Props) => (
  <header className="page-header">
    <div className="page-header-main">
      {back && (
        <Link to={back.to} className="page-back">
          <ArrowLeftOutlined aria-hidden /> {back.label}
        </Link>
      )}
      <h1 className="page-title">{title}</h1>
      {subtitle && <p className="page-subtitle">{subtitle}</p>}
    </div>
    {extra && <div className="page-header-extra">{extra}</div>}
  </header>
);
