import type { NotificationProvider } from '@refinedev/core';
import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * Refine's notifications as antd toasts (top right, set on antd's <App>).
 *
 * Errors are not shown here: the http client already told the user once, as spec §7 decides
 * (toast, error modal, upgrade modal), and Refine would add a second, untranslated toast. A
 * screen that wants its own error toast opens it with a key starting with `ccp:`.
 *
 * Written here rather than taken from @refinedev/antd, whose entry adds ~50 KB gzip to /login.
 */
export const useNotificationProvider = (): NotificationProvider => {
  const { notification } = App.useApp();
  const { t } = useTranslation();
  return {
    open: ({ key, message, description, type, cancelMutation, undoableTimeout }) => {
      if (type === 'error' && !key?.startsWith('ccp:')) return;
      // Refine's `message` is the main text and `description` its title.
      const title = description ?? message;
      const text = description ? message : undefined;
      if (type === 'progress') {
        notification.info({
          key,
          message: title,
          description: text,
          duration: undoableTimeout ?? 5,
          btn: cancelMutation ? (
            <Button
              size="small"
              onClick={() => {
                cancelMutation();
                if (key) notification.destroy(key);
              }}
            >
              {t('buttons.undo')}
            </Button>
          ) : undefined,
        });
        return;
      }
      notification.open({ key, type, message: title, description: text });
    },
    close: (key) => notification.destroy(key),
  };
};
