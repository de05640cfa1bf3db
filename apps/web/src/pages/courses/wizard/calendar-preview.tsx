import { SwapOutlined } from '@ant-design/icons';
import { DELIVERY_TIME_ZONE, NUMBER_LOCALES } from '@ccp/schemas';
import type { TDeliveryCalendar, TDistributionInput, TLearner } from '@ccp/schemas';
import { useSelect } from '@refinedev/antd';
import { useCustom } from '@refinedev/core';
import { Alert, Form, Select, Spin, Tag } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { timeZoneLabel } from '../../../components/time-zone-select.tsx';
import { currentLanguage } from '../../../lib/texts.ts';

// The exact calendar of every lesson send (no peer has it): asked of the API, which computes it
// with the scheduler's own schedule function, so the preview and the sends cannot differ. Each
// send in CET (Europe/Rome, with its summer time), or for a chosen learner in their zone with
// the company's quiet hours and their holidays (issue 28), and in the creator's own time zone;
// skipped weekends, delays and daylight-saving changes are marked. Its own chunk, loaded with the
// Delivery step.

const DEBOUNCE_MS = 250;

const useDebounced = <T,>(value: T): T => {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [value]);
  return debounced;
};

const ownTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

type Props = { distribution: TDistributionInput; days: number };

const learnerLabel = (learner: TLearner) => {
  const name = `${learner.first_name} ${learner.last_name}`.trim();
  return learner.time_zone ? `${name} · ${timeZoneLabel(learner.time_zone)}` : name;
};

export const CalendarPreview = ({ distribution, days }: Props) => {
  const { t } = useTranslation();
  const [learner, setLearner] = useState<string | undefined>();
  const { selectProps } = useSelect<TLearner>({
    resource: 'learners',
    optionLabel: learnerLabel,
    optionValue: 'uuid',
    pagination: { pageSize: 20, mode: 'server' },
    onSearch: (value) => [{ field: 'search', operator: 'contains', value }],
  });
  const request = useDebounced(
    useMemo(
      () => ({ distribution, days, ...(learner ? { learner_uuid: learner } : {}) }),
      [distribution, days, learner],
    ),
  );
  const ready = !!request.distribution.start_date;
  const { query } = useCustom<TDeliveryCalendar>({
    url: '/api/v1/courses/helpers/delivery-calendar',
    method: 'post',
    config: { payload: request },
    queryOptions: { enabled: ready, placeholderData: (previous) => previous },
    meta: { errorFeedback: 'caller' },
  });
  const zone = ownTimeZone();
  const formats = useMemo(() => {
    const locale = currentLanguage();
    return {
      weekday: new Intl.DateTimeFormat(NUMBER_LOCALES[locale], {
        weekday: 'short',
        timeZone: 'UTC',
      }),
      // The weekday alone, as in the CET column: inside a full date German writes "So." and
      // alone "So".
      ownWeekday: new Intl.DateTimeFormat(NUMBER_LOCALES[locale], {
        weekday: 'short',
        timeZone: zone,
      }),
      own: new Intl.DateTimeFormat(NUMBER_LOCALES[locale], {
        day: '2-digit',
        month: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone: zone,
      }),
    };
  }, [zone]);

  const calendar = query.data?.data;
  const ddmm = (date: string) => date.split('-').reverse().join('-');
  const weekday = (date: string) => formats.weekday.format(new Date(`${date}T12:00:00Z`));
  // The creator's own time as the CET column shows it: weekday dd-MM HH:mm.
  const ownTime = (at: string) => {
    const parts = formats.own.formatToParts(new Date(at));
    const part = (type: Intl.DateTimeFormatPartTypes) =>
      parts.find((entry) => entry.type === type)?.value ?? '';
    const day = formats.ownWeekday.format(new Date(at));
    return `${day} ${part('day')}-${part('month')} ${part('hour')}:${part('minute')}`;
  };
  const rows = useMemo(() => {
    if (!calendar) return [];
    type TRow =
      | { kind: 'send'; slot: TDeliveryCalendar['slots'][number] }
      | { kind: 'skipped'; date: string };
    const all: TRow[] = [
      ...calendar.slots.map((slot) => ({ kind: 'send' as const, slot })),
      ...calendar.skipped.map((entry) => ({ kind: 'skipped' as const, date: entry.date })),
    ];
    return all.sort((a, b) =>
      (a.kind === 'send' ? a.slot.date : a.date).localeCompare(
        b.kind === 'send' ? b.slot.date : b.date,
      ),
    );
  }, [calendar]);

  const inRome = !calendar || calendar.time_zone === DELIVERY_TIME_ZONE;
  return (
    <section className="calendar-preview" aria-label={t('courses.wizard.calendar.title')}>
      <h3 className="section-title">{t('courses.wizard.calendar.title')}</h3>
      <p className="muted">
        {inRome
          ? t('courses.wizard.calendar.intro', { zone })
          : t('courses.wizard.calendar.introLearner', {
              learnerZone: timeZoneLabel(calendar.time_zone),
              zone,
            })}
      </p>
      <Form.Item label={t('courses.wizard.calendar.learner')} className="calendar-learner">
        <Select
          showSearch
          filterOption={false}
          options={selectProps.options}
          onSearch={selectProps.onSearch}
          loading={selectProps.loading}
          allowClear
          value={learner}
          onChange={(value) => setLearner(value ?? undefined)}
          placeholder={t('courses.wizard.calendar.learnerPlaceholder')}
          notFoundContent={t('courses.wizard.calendar.noLearner')}
        />
      </Form.Item>
      {!ready ? (
        <p className="muted">{t('courses.wizard.calendar.pickDate')}</p>
      ) : query.isError ? (
        <Alert type="error" showIcon message={t('courses.wizard.calendar.failed')} />
      ) : !calendar ? (
        <Spin />
      ) : (
        <table className="calendar-table">
          <thead>
            <tr>
              <th scope="col">{t('courses.wizard.calendar.day')}</th>
              <th scope="col">
                {inRome
                  ? t('courses.wizard.calendar.cet')
                  : t('courses.wizard.calendar.learnerTime')}
              </th>
              <th scope="col">{t('courses.wizard.calendar.own')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) =>
              row.kind === 'skipped' ? (
                <tr key={`skip-${row.date}`} className="calendar-skipped" data-skipped={row.date}>
                  <td />
                  <td colSpan={2}>
                    {weekday(row.date)} {ddmm(row.date)} · {t('courses.wizard.calendar.skipped')}
                  </td>
                </tr>
              ) : (
                <tr key={row.slot.day} data-day={row.slot.day} data-at={row.slot.at}>
                  <th scope="row">{t('courses.wizard.content.day', { day: row.slot.day })}</th>
                  <td>
                    {weekday(row.slot.date)} {ddmm(row.slot.date)} {row.slot.time}{' '}
                    <Tag className="calendar-zone">
                      {!inRome
                        ? t('courses.wizard.calendar.utcOffset', { offset: row.slot.offset })
                        : row.slot.offset === '+02:00'
                          ? t('courses.wizard.calendar.cest')
                          : t('courses.wizard.calendar.cetShort')}
                    </Tag>
                    {row.slot.delayed && (
                      <Tag color="gold" className="calendar-delay">
                        {row.slot.delayed === 'holiday'
                          ? t('courses.wizard.calendar.holiday', { name: row.slot.holiday ?? '' })
                          : t('courses.wizard.calendar.quietHours')}
                      </Tag>
                    )}
                    {row.slot.offset_changed && (
                      <span className="calendar-dst">
                        <SwapOutlined aria-hidden /> {t('courses.wizard.calendar.dstChange')}
                      </span>
                    )}
                  </td>
                  <td>{ownTime(row.slot.at)}</td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      )}
    </section>
  );
};
