import { CloudUploadOutlined, EditOutlined } from '@ant-design/icons';
import { Modal } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';

import { createCourseTarget } from '../../lib/create-course.ts';
import type { TCreateCourseOption } from '../../lib/create-course.ts';

type Props = { open: boolean; onClose: () => void };

/**
 * The create-course modal (spec §2): from scratch (/courses/create) or by transforming existing
 * content (/courses/import). Either option closes it; one does nothing when already on its route.
 */
export const CreateCourseModal = ({ open, onClose }: Props) => {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const id = useId();

  const choose = (option: TCreateCourseOption) => {
    onClose();
    const target = createCourseTarget(pathname, option);
    if (target) void navigate(target);
  };

  return (
    <Modal
      open={open}
      title={t('modals.createCourse.title')}
      onCancel={onClose}
      footer={null}
      closable={{ 'aria-label': t('buttons.close') }}
      width={640}
      centered
      destroyOnHidden
    >
      <p>{t('modals.createCourse.intro')}</p>
      <div className="create-course-options">
        <button
          type="button"
          className="create-course-option"
          aria-labelledby={`${id}-scratch`}
          aria-describedby={`${id}-scratch-text`}
          onClick={() => choose('scratch')}
        >
          <EditOutlined aria-hidden className="create-course-icon" />
          <span id={`${id}-scratch`} className="create-course-title">
            {t('modals.createCourse.scratch.title')}
          </span>
          <span id={`${id}-scratch-text`} className="create-course-text">
            {t('modals.createCourse.scratch.description')}
          </span>
        </button>
        <button
          type="button"
          className="create-course-option"
          aria-labelledby={`${id}-import`}
          aria-describedby={`${id}-import-text`}
          onClick={() => choose('import')}
        >
          <CloudUploadOutlined aria-hidden className="create-course-icon" />
          <span id={`${id}-import`} className="create-course-title">
            {t('modals.createCourse.import.title')}
          </span>
          <span id={`${id}-import-text`} className="create-course-text">
            {t('modals.createCourse.import.description')}
          </span>
        </button>
      </div>
    </Modal>
  );
};
