import { PictureOutlined } from '@ant-design/icons';
import {
  TEXT_LIMITS,
  ZCreateCourseRequestSchema,
  ZUpdateCourseIntroRequestSchema,
} from '@ccp/schemas';
import type { TCourse } from '@ccp/schemas';
import { Button, Card, Form, Input } from 'antd';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { useClassroomMeta } from '../../../components/layout/classroom-context.ts';
import { COVER_ACCEPT, checkCoverFile } from '../../../lib/cover-image.ts';
import { describeMessage } from '../../../lib/messages.ts';
import { translateMessage } from '../../../lib/translate-message.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';

// The Intro step: name, public description, category and cover (spec §2, §5). A new course is
// created here (POST …/courses, multipart when there is a cover); an existing one saves its
// Intro as multipart. The cover is checked in the browser first and sent only when chosen.

type TIntroValues = { name: string; description: string; category?: string | null; image?: File };

type CoverProps = { value?: File; onChange?: (file?: File) => void; current: string | null };

const CoverInput = ({ value, onChange, current }: CoverProps) => {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const preview = useMemo(() => (value ? URL.createObjectURL(value) : null), [value]);
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );
  const shown = preview ?? current;
  return (
    <div className="cover-input">
      <div className="cover-preview">
        {shown ? (
          <img src={shown} alt={t('courses.wizard.intro.coverPreview')} />
        ) : (
          <PictureOutlined aria-hidden className="cover-placeholder" />
        )}
      </div>
      <div className="cover-actions">
        <input
          ref={input}
          type="file"
          accept={COVER_ACCEPT}
          className="visually-hidden"
          aria-label={t('courses.wizard.intro.cover')}
          onChange={(event) => {
            onChange?.(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
        <Button onClick={() => input.current?.click()}>
          {shown ? t('courses.wizard.intro.coverReplace') : t('courses.wizard.intro.coverChoose')}
        </Button>
        {value && (
          <Button type="text" onClick={() => onChange?.(undefined)}>
            {t('courses.wizard.intro.coverRemove')}
          </Button>
        )}
        <p className="muted cover-help">{t('courses.wizard.intro.coverHelp')}</p>
      </div>
    </div>
  );
};

type Props = {
  /** The course being edited; none: a new course is created. */
  course?: TCourse;
  onSaved: (course: TCourse) => void;
  readOnly?: boolean;
};

export const IntroStep = ({ course, onSaved, readOnly = false }: Props) => {
  const { t } = useTranslation();
  const classroomMeta = useClassroomMeta();
  const creating = !course;
  const { formProps, field, onFinish, mutation } = useSchemaForm<TCourse, TIntroValues>({
    resource: 'courses',
    action: creating ? 'create' : 'edit',
    ...(course ? { id: course.uuid } : {}),
    schema: creating ? ZCreateCourseRequestSchema : ZUpdateCourseIntroRequestSchema,
    meta: { ...classroomMeta, ...(creating ? {} : { intro: true }) },
    // The wizard already holds the course: no second read.
    queryOptions: { enabled: false },
    redirect: false,
    successNotification: false,
    failureMessage: t('courses.wizard.saveFailed'),
  });
  const coverRule = useMemo(
    () => ({
      validator: async (_: unknown, file?: File) => {
        if (!file) return;
        const message = await checkCoverFile(file);
        if (message) throw new Error(translateMessage(describeMessage(message), t));
      },
    }),
    [t],
  );

  const save = async (values: TIntroValues) => {
    const { image, ...fields } = values;
    const saved = await onFinish({ ...fields, ...(image ? { image } : {}) }).catch(() => undefined);
    if (saved?.data) onSaved(saved.data);
  };

  return (
    <Card className="wizard-card">
      <Form
        {...formProps}
        layout="vertical"
        requiredMark
        disabled={readOnly}
        initialValues={
          course
            ? { name: course.name, description: course.description, category: course.category }
            : {}
        }
        onFinish={(values) => void save(values)}
      >
        <div className="form-grid">
          <Form.Item {...field('name')} label={t('courses.wizard.intro.name')}>
            <Input count={{ show: true, max: TEXT_LIMITS.courseName }} />
          </Form.Item>
          <Form.Item
            {...field('category')}
            label={t('courses.wizard.intro.category')}
            extra={t('courses.wizard.intro.categoryHelp')}
          >
            <Input />
          </Form.Item>
          <Form.Item
            {...field('description')}
            label={t('courses.wizard.intro.description')}
            extra={t('courses.wizard.intro.descriptionHelp')}
            className="form-grid-wide"
          >
            <Input.TextArea
              autoSize={{ minRows: 3, maxRows: 6 }}
              count={{ show: true, max: TEXT_LIMITS.description }}
            />
          </Form.Item>
          <Form.Item
            name="image"
            label={t('courses.wizard.intro.cover')}
            rules={[coverRule]}
            className="form-grid-wide"
            validateTrigger="onChange"
          >
            <CoverInput current={course?.image ?? null} />
          </Form.Item>
        </div>
        <div className="form-actions">
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            {t('courses.wizard.saveAndContinue')}
          </Button>
        </div>
      </Form>
    </Card>
  );
};
