import { DownloadOutlined } from '@ant-design/icons';
import { exportDownloadPath } from '@ccp/schemas';
import type { TExport, TExportType } from '@ccp/schemas';
import { useCreate } from '@refinedev/core';
import { App, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { useClassroomMeta } from '../../../components/layout/classroom-context.ts';
import { isLeftToCaller } from '../../../lib/report-failure.ts';

// Spec §3: two kinds of export. The classroom course export (`course`) is the same statistics
// file: a third button downloaded a byte-identical copy under another name (issue 27).
const TYPES: TExportType[] = ['statistics', 'not_enrolled_learners'];

/**
 * The course's exports (spec §2, §4): each is requested, e-mailed to the user, and its download
 * page opens. "Error during export request. Please try again later." when the request fails.
 */
export const ExportButtons = ({ courseUuid }: { courseUuid: string }) => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const classroomMeta = useClassroomMeta();
  const { mutateAsync } = useCreate<TExport>();
  const [pending, setPending] = useState<TExportType | null>(null);

  const request = async (type: TExportType) => {
    setPending(type);
    try {
      const { data } = await mutateAsync({
        resource: 'exports',
        values: { type, course_id: courseUuid },
        meta: { ...classroomMeta, errorFeedback: 'caller' },
        successNotification: false,
        errorNotification: false,
      });
      notification.success({
        key: 'ccp:export-requested',
        message: t('analytics.exports.requested', { name: t(`analytics.exports.types.${type}`) }),
        description: t('analytics.exports.mailed'),
      });
      void navigate(exportDownloadPath(data.export_id));
    } catch (error) {
      if (!isLeftToCaller(error)) return;
      notification.error({
        key: 'ccp:export-failed',
        message: t('validation.exportRequestFailed'),
        description: error instanceof Error && error.message ? error.message : undefined,
      });
    } finally {
      setPending(null);
    }
  };

  return (
    <div className="export-buttons" role="group" aria-label={t('analytics.exports.label')}>
      {TYPES.map((type) => (
        <Button
          key={type}
          icon={<DownloadOutlined />}
          loading={pending === type}
          disabled={pending !== null && pending !== type}
          onClick={() => void request(type)}
        >
          {t(`analytics.exports.types.${type}`)}
        </Button>
      ))}
    </div>
  );
};
