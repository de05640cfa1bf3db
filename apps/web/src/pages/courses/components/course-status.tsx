import type { TCourseStatus } from '@ccp/schemas';
import { useTranslation } from 'react-i18next';

/**
 * A course's status badge (spec §4 statuses), in the interface language. Plain markup with the
 * colours of antd's Tag presets: a page can show a hundred of them.
 */
export const CourseStatus = ({ status }: { status: TCourseStatus }) => {
  const { t } = useTranslation();
  return (
    <span className={`course-status status-${status}`} data-status={status}>
      {t(`enum.courseStatus.${status}`)}
    </span>
  );
};
