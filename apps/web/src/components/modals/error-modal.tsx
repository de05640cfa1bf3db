import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';

import type { TMessage } from '../../lib/messages.ts';
import { translateMessage } from '../../lib/translate-message.ts';

/** The error modal of spec §7 (403, 422, 429 and "Wow, slow down…"). */
export const ErrorModal = ({ message, onClose }: { message: TMessage; onClose: () => void }) => {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t('modals.error.title')}
      onOk={onClose}
      onCancel={onClose}
      okText={t('buttons.ok')}
      cancelButtonProps={{ style: { display: 'none' } }}
      closable={{ 'aria-label': t('buttons.close') }}
      centered
    >
      <p className="modal-message">{translateMessage(message, t)}</p>
    </Modal>
  );
};
