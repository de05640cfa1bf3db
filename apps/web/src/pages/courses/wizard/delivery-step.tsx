import {
  AUTO_PAUSE_AFTER_MAX,
  MESSAGES,
  REMINDER_COUNT_MAX,
  REMINDER_INTERVAL_HOURS_MAX,
  REPEAT_PERIODS,
  TARGET_RETENTION_RANGE,
  checkPlanLimit,
  deliveryDateWindow,
  deliveryStepSchema,
} from '@ccp/schemas';
import type { TDeliveryOptions, TSubscription } from '@ccp/schemas';
import { useCustom, useOne } from '@refinedev/core';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  DatePicker,
  Form,
  InputNumber,
  Select,
  Spin,
  Switch,
  TimePicker,
} from 'antd';
import dayjs from 'dayjs';
import type { Dayjs } from 'dayjs';
import { lazy, Suspense, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { useClassroomMeta } from '../../../components/layout/classroom-context.ts';
import { ROUTES } from '../../../config.ts';
import { describeMessage } from '../../../lib/messages.ts';
import { translateMessage } from '../../../lib/translate-message.ts';
import { uiEvents } from '../../../lib/ui-events.ts';
import { schemaField } from '../../../lib/zod-form.ts';
import type { TDeliveryDraft } from './draft.ts';
import { DeliveryHoursNote } from './delivery-hours-note.tsx';
import { useCourseSave } from './use-course-save.ts';
import { useDraftSnapshot, useWizard } from './wizard-context.ts';

// The Delivery step (spec §2, §5): the channel (only those the plan allows), the learners lists
// reachable on it, the first delivery date (tomorrow to three months ahead), the time in CET or
// in each learner's own zone (issue 28) under the company's quiet hours and holidays, the repeat,
// skipping weekends (plan-gated), the enrolment opt-in and its close time. Beside it, the
// calendar of every send as the scheduler will make it, for a chosen learner if asked.

const CalendarPreview = lazy(() =>
  import('./calendar-preview.tsx').then((module) => ({ default: module.CalendarPreview })),
);

const WEEKENDS = ['saturday', 'sunday'] as const;
const DATE = 'YYYY-MM-DD';
const DATE_TIME = 'YYYY-MM-DDTHH:mm';

type TListChoicesProps = {
  value?: string[];
  onChange?: (value: string[]) => void;
  options: { value: string; label: ReactNode }[];
  /** Said instead of the choices (no channel yet, no list reachable on it). */
  empty: string | null;
  loading: boolean;
};

const ListChoices = ({ value = [], onChange, options, empty, loading }: TListChoicesProps) => {
  if (loading) return <Spin />;
  if (empty) return <p className="muted list-choices-empty">{empty}</p>;
  if (options.length === 0) return null;
  return (
    <Checkbox.Group
      className="list-choices"
      value={value}
      onChange={(next) => onChange?.(next)}
      options={options}
    />
  );
};

export const DeliveryStep = () => {
  const { t } = useTranslation();
  const { store, goTo, editable, hasLearnersLists, course } = useWizard();
  const snapshot = useDraftSnapshot(store);
  const classroomMeta = useClassroomMeta();
  const [form] = Form.useForm<TDeliveryDraft>();
  const save = useCourseSave(store);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string[] | null>(null);
  const now = useMemo(() => new Date(), []);
  const window3 = useMemo(() => deliveryDateWindow(now), [now]);
  const schema = useMemo(
    () => deliveryStepSchema(now, { hasLearnersLists }),
    [now, hasLearnersLists],
  );
  const field = useMemo(
    () => schemaField(schema, (text) => translateMessage(describeMessage(text), t)),
    [schema, t],
  );
  const delivery = snapshot.delivery;
  const channel = delivery.distribution.channels?.[0] ?? null;
  const savedChannel = course.distribution?.channels[0] ?? null;

  const { result: subscription } = useOne<TSubscription>({
    resource: 'subscription',
    id: 'current',
  });
  const { query: optionsQuery } = useCustom<TDeliveryOptions>({
    url: `/api/v1/classrooms/{classroomUuid}/courses/${snapshot.uuid}/delivery-options`,
    method: 'get',
    config: {
      query: {
        ...(channel ? { channel } : {}),
        ...(delivery.learners_lists.length ? { lists: delivery.learners_lists.join(',') } : {}),
      },
    },
    queryOptions: { placeholderData: (previous) => previous },
    meta: classroomMeta,
  });
  const options = optionsQuery.data?.data;
  const allowedChannels = options?.channels.filter((entry) => entry.allowed) ?? [];
  const reachableLists =
    options && channel ? options.lists.filter((list) => list.reachable[channel] > 0) : [];

  const weekendGate = subscription
    ? checkPlanLimit(subscription.subscription_functions, 'exclusion-days', 1)
    : ({ allowed: true } as const);

  const update = () => {
    const values = form.getFieldsValue(true) as TDeliveryDraft;
    store.setDelivery({
      distribution: { ...values.distribution },
      learners_lists: [...(values.learners_lists ?? [])],
    });
  };

  const next = async () => {
    setFailure(null);
    try {
      await form.validateFields({ recursive: true });
    } catch {
      return;
    }
    setSaving(true);
    const result = await save({ delivery: true });
    setSaving(false);
    if (result.ok) goTo('finish');
    else if (result.invalid) {
      setFailure(result.invalid.other.flatMap((entry) => entry.messages));
    }
  };

  const limit = options?.channel_limit;
  return (
    <div className="delivery-step">
      <div className="delivery-layout">
        <Card className="wizard-card">
          <Form<TDeliveryDraft>
            form={form}
            layout="vertical"
            requiredMark
            disabled={!editable}
            initialValues={delivery}
            onValuesChange={(changed: Partial<TDeliveryDraft>) => {
              if (changed.distribution?.channels) {
                // A list nobody on the new channel can be reached in is no longer a choice.
                const next = changed.distribution.channels[0];
                const keep = (form.getFieldValue('learners_lists') as string[]).filter((uuid) =>
                  options?.lists.some(
                    (list) => list.uuid === uuid && next && list.reachable[next] > 0,
                  ),
                );
                form.setFieldValue('learners_lists', keep);
              }
              update();
            }}
          >
            <Form.Item
              {...field(['distribution', 'channels'])}
              required
              label={t('courses.wizard.delivery.channel')}
              getValueProps={(value: string[] | undefined) => ({ value: value?.[0] ?? null })}
              normalize={(value: string | null) => (value ? [value] : [])}
            >
              <Select
                placeholder={t('courses.wizard.delivery.channelPlaceholder')}
                loading={optionsQuery.isLoading}
                options={allowedChannels.map((entry) => ({
                  value: entry.key,
                  label: t(`courses.wizard.channels.${entry.key}`),
                }))}
              />
            </Form.Item>
            {options && allowedChannels.length === 0 && (
              <Alert
                type="warning"
                showIcon
                className="form-alert"
                message={translateMessage(describeMessage(MESSAGES.noChannelAccess), t)}
              />
            )}
            {limit &&
              limit.limit !== -1 &&
              allowedChannels.length < (options?.channels.length ?? 0) && (
                <p className="muted">
                  {t('courses.wizard.delivery.channelLimit', {
                    used: limit.used,
                    limit: limit.limit,
                  })}{' '}
                  <Button
                    type="link"
                    size="small"
                    onClick={() =>
                      uiEvents.emit('upgrade', {
                        message: null,
                        limit: {
                          feature: limit.feature,
                          required: limit.used + 1,
                          limit: limit.limit,
                        },
                      })
                    }
                  >
                    {t('courses.wizard.delivery.moreChannels')}
                  </Button>
                </p>
              )}
            {savedChannel && course.status !== 'draft' && channel && channel !== savedChannel && (
              <Alert
                type="info"
                showIcon
                className="form-alert"
                message={t('courses.wizard.delivery.channelChange')}
              />
            )}

            <Form.Item
              {...field(['learners_lists'])}
              required
              label={t('courses.wizard.delivery.lists')}
            >
              <ListChoices
                empty={
                  !hasLearnersLists
                    ? null
                    : !channel
                      ? t('courses.wizard.delivery.pickChannelFirst')
                      : reachableLists.length === 0 && options
                        ? translateMessage(describeMessage(MESSAGES.noListsForChannel), t)
                        : null
                }
                loading={optionsQuery.isLoading && !options}
                options={reachableLists.map((list) => ({
                  value: list.uuid,
                  label: (
                    <>
                      <span className="list-choice-name">{list.name}</span>{' '}
                      <span className="muted">
                        {t('courses.wizard.delivery.reachable', {
                          reachable: channel ? list.reachable[channel] : 0,
                          total: list.learners_count,
                          channel: channel ? t(`courses.wizard.channels.${channel}`) : '',
                        })}
                      </span>
                    </>
                  ),
                }))}
              />
            </Form.Item>
            {!hasLearnersLists && (
              <Alert
                type="warning"
                showIcon
                className="form-alert"
                message={translateMessage(describeMessage(MESSAGES.learnersListRequired), t)}
                action={
                  <Link to={ROUTES.learnersListCreate}>
                    {t('courses.wizard.delivery.createList')}
                  </Link>
                }
              />
            )}
            {options?.reached !== null && options?.reached !== undefined && (
              <p className="reached">
                {t('courses.wizard.delivery.reached', { count: options.reached })}
              </p>
            )}

            <div className="form-grid">
              <Form.Item
                {...field(['distribution', 'start_date'])}
                required
                label={t('courses.wizard.delivery.startDate')}
                getValueProps={(value: string | null) => ({
                  value: value ? dayjs(value, DATE) : null,
                })}
                normalize={(value: Dayjs | null) => (value ? value.format(DATE) : null)}
              >
                <DatePicker
                  className="input-number-full"
                  format="DD-MM-YYYY"
                  disabledDate={(date) => {
                    const day = date.format(DATE);
                    return day < window3.from || day > window3.to;
                  }}
                />
              </Form.Item>
              <Form.Item
                {...field(['distribution', 'time'])}
                label={t('courses.wizard.delivery.time')}
                extra={
                  delivery.distribution.learner_time_zone
                    ? t('courses.wizard.delivery.timeHelpLocal')
                    : t('courses.wizard.delivery.timeHelp')
                }
                getValueProps={(value: string | undefined) => ({
                  value: value ? dayjs(value, 'HH:mm') : null,
                })}
                normalize={(value: Dayjs | null) => (value ? value.format('HH:mm') : undefined)}
              >
                <TimePicker
                  className="input-number-full"
                  format="HH:mm"
                  minuteStep={5}
                  needConfirm={false}
                />
              </Form.Item>
              <Form.Item
                {...field(['distribution', 'learner_time_zone'])}
                label={t('courses.wizard.delivery.learnerTimeZone')}
                extra={t('courses.wizard.delivery.learnerTimeZoneHelp')}
                valuePropName="checked"
                className="form-grid-wide"
              >
                <Switch />
              </Form.Item>
              <DeliveryHoursNote />
              <Form.Item
                {...field(['distribution', 'repeat_questions'])}
                label={t('courses.wizard.delivery.repeatQuestions')}
                extra={t('courses.wizard.delivery.repeatQuestionsHelp')}
                valuePropName="checked"
              >
                <Switch />
              </Form.Item>
              <Form.Item
                {...field(['distribution', 'target_retention'])}
                label={t('courses.wizard.delivery.targetRetention')}
                extra={t('courses.wizard.delivery.targetRetentionHelp')}
              >
                <InputNumber
                  className="input-number-full"
                  min={TARGET_RETENTION_RANGE.min}
                  max={TARGET_RETENTION_RANGE.max}
                  precision={0}
                />
              </Form.Item>
              <Form.Item
                {...field(['distribution', 'repeat_period'])}
                label={t('courses.wizard.delivery.repeatPeriod')}
              >
                <Select
                  options={REPEAT_PERIODS.map((period) => ({
                    value: period,
                    label: t(`courses.wizard.delivery.periods.${period}`),
                  }))}
                />
              </Form.Item>
              <Form.Item
                {...field(['distribution', 'repeat_every'])}
                label={t('courses.wizard.delivery.repeatEvery')}
              >
                <InputNumber className="input-number-full" />
              </Form.Item>
              <Form.Item
                {...field(['distribution', 'exclusion_days'])}
                label={t('courses.wizard.delivery.skipWeekends')}
                extra={weekendGate.allowed ? null : t('courses.wizard.delivery.skipWeekendsPlan')}
                valuePropName="checked"
                getValueProps={(value: string[] | undefined) => ({
                  checked: (value?.length ?? 0) > 0,
                })}
                normalize={(checked: boolean) => {
                  if (checked && !weekendGate.allowed) {
                    uiEvents.emit('upgrade', { message: null, limit: weekendGate.upgrade });
                    return [];
                  }
                  return checked ? [...WEEKENDS] : [];
                }}
              >
                <Switch />
              </Form.Item>
              <Form.Item
                {...field(['distribution', 'disabled_enrolment_opt_in'])}
                label={t('courses.wizard.delivery.optIn')}
                extra={t('courses.wizard.delivery.optInHelp')}
                valuePropName="checked"
                getValueProps={(value: boolean | undefined) => ({ checked: !value })}
                normalize={(checked: boolean) => !checked}
              >
                <Switch />
              </Form.Item>
              <Form.Item
                {...field(['distribution', 'reminder_count'])}
                label={t('courses.wizard.delivery.reminderCount')}
                extra={t('courses.wizard.delivery.reminderCountHelp')}
              >
                <InputNumber className="input-number-full" min={0} max={REMINDER_COUNT_MAX} />
              </Form.Item>
              <Form.Item
                {...field(['distribution', 'reminder_interval_hours'])}
                label={t('courses.wizard.delivery.reminderInterval')}
                extra={t('courses.wizard.delivery.reminderIntervalHelp')}
              >
                <InputNumber
                  className="input-number-full"
                  min={1}
                  max={REMINDER_INTERVAL_HOURS_MAX}
                  disabled={delivery.distribution.reminder_count === 0}
                />
              </Form.Item>
              <Form.Item
                {...field(['distribution', 'auto_pause_after'])}
                label={t('courses.wizard.delivery.autoPause')}
                extra={t('courses.wizard.delivery.autoPauseHelp')}
                className="form-grid-wide"
              >
                <InputNumber className="input-number-full" min={0} max={AUTO_PAUSE_AFTER_MAX} />
              </Form.Item>
              <Form.Item
                {...field(['distribution', 'enrollment_close_time'])}
                label={t('courses.wizard.delivery.closeTime')}
                extra={t('courses.wizard.delivery.closeTimeHelp')}
                className="form-grid-wide"
                getValueProps={(value: string | null) => ({
                  value: value ? dayjs(value, DATE_TIME) : null,
                })}
                normalize={(value: Dayjs | null) => (value ? value.format(DATE_TIME) : null)}
              >
                <DatePicker
                  showTime={{ format: 'HH:mm' }}
                  format="DD-MM-YYYY HH:mm"
                  className="input-number-full"
                />
              </Form.Item>
            </div>
            {failure && failure.length > 0 && (
              <Alert
                type="error"
                showIcon
                className="form-alert"
                message={failure
                  .map((text) => translateMessage(describeMessage(text), t))
                  .join(' ')}
              />
            )}
          </Form>
        </Card>
        <Card className="wizard-card calendar-card">
          <Suspense fallback={<Spin />}>
            <CalendarPreview distribution={delivery.distribution} days={snapshot.days} />
          </Suspense>
        </Card>
      </div>
      <div className="wizard-footer">
        <Button onClick={() => goTo('content')}>{t('courses.wizard.back')}</Button>
        <span className="wizard-footer-end">
          <Button type="primary" loading={saving} onClick={() => void next()}>
            {t('courses.wizard.next')}
          </Button>
        </span>
      </div>
    </div>
  );
};
