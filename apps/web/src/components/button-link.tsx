import { Button } from 'antd';
import type { ButtonProps } from 'antd';
import { useNavigate } from 'react-router';

type Props = Omit<ButtonProps, 'href' | 'onClick'> & { to: string };

/**
 * An antd button that is a link (`<a href>`: opens in a new tab with a middle click, reads as a
 * link), navigating inside the app on a plain click.
 */
export const ButtonLink = ({ to, ...props }: Props) => {
  const navigate = useNavigate();
  return (
    <Button
      {...props}
      href={to}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        void navigate(to);
      }}
    />
  );
};
