import type { TCourseStatus } from '@ccp/schemas';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<TCourseStatus, string> = {
  draft: 'default',
  scheduled: 'blue',
  active: 'green',
  delivered: 'purple',
  canceled: 'red',
  paused: 'orange',
};

/** A course's status badge (spec §4 statuses), in the interface language. */
export const CourseStatus = ({ status }: { status: TCourseStatus }) => {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[status]} className="course-status" data-status={status}>
      {t(`enum.courseStatus.${status}`)}
    </Tag>
  );
};
