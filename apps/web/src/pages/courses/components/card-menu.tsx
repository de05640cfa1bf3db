import { MoreOutlined } from '@ant-design/icons';
import { Dropdown } from 'antd';
import type { MenuProps } from 'antd';
import { useEffect, useRef, useState } from 'react';

type Props = {
  label: string;
  items: NonNullable<MenuProps['items']>;
  onSelect: (key: string) => void;
  busy: boolean;
};

/**
 * A card's "more actions" menu. The button is plain until first opened, and only then becomes
 * an antd Dropdown: a hundred cards each with a Dropdown cost the dashboard a third of its first
 * render (bench/dashboard.ts).
 */
export const CardMenu = ({ label, items, onSelect, busy }: Props) => {
  const [mounted, setMounted] = useState(false);
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  // Back to the button when the menu closes, as a menu button does.
  useEffect(() => {
    if (wasOpen.current && !open) trigger.current?.focus();
    wasOpen.current = open;
  }, [open]);

  const button = (
    <button
      ref={trigger}
      type="button"
      className="card-button card-button-icon"
      aria-label={label}
      aria-haspopup="menu"
      aria-expanded={open}
      aria-busy={busy}
      disabled={busy}
      onClick={
        mounted
          ? undefined
          : () => {
              setMounted(true);
              setOpen(true);
            }
      }
    >
      <MoreOutlined aria-hidden />
    </button>
  );
  if (!mounted) return button;
  return (
    <Dropdown
      open={open}
      onOpenChange={setOpen}
      trigger={['click']}
      autoFocus
      menu={{
        items,
        onClick: ({ key }) => {
          setOpen(false);
          onSelect(key);
        },
      }}
    >
      {button}
    </Dropdown>
  );
};
