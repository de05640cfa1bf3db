import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { TLocale } from '@ccp/schemas';
import { Button, Popconfirm, Tooltip } from 'antd';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';

import type { TDraftStore } from './draft.ts';
import { useDraftSnapshot } from './wizard-context.ts';

// The days of the course with a marker per language (spec §2: errors show as a per-day and
// per-language marker): written and valid, has errors, not written yet.

type Props = {
  store: TDraftStore;
  day: number;
  language: TLocale;
  languageName: (language: string) => string;
  onSelect: (day: number, language: TLocale) => void;
  onAdd: () => void;
  onRemove: (day: number) => void;
  /** Why no day can be added now, or null. */
  addBlocked: string | null;
  readOnly: boolean;
};

type TItemProps = {
  day: number;
  current: boolean;
  title: string;
  /** Each language's short name and its lesson's state, `en:valid it:empty`. */
  markers: string;
  language: TLocale;
  languageName: (language: string) => string;
  onSelect: (day: number, language: TLocale) => void;
  onRemove: (day: number) => void;
  removable: boolean;
};

/** One day: re-rendered only when its own title, markers or selection change. */
const DayItem = memo(
  ({
    day,
    current,
    title,
    markers,
    language,
    languageName,
    onSelect,
    onRemove,
    removable,
  }: TItemProps) => {
    const { t } = useTranslation();
    return (
      <li className={current ? 'day-item day-item-current' : 'day-item'}>
        <button
          type="button"
          className="day-button"
          aria-current={current ? 'step' : undefined}
          onClick={() => onSelect(day, language)}
        >
          <span className="day-label">{t('courses.wizard.content.day', { day })}</span>
          <span className="day-title">{title || t('courses.wizard.content.untitled')}</span>
          <span className="day-markers">
            {markers.split(' ').map((marker) => {
              const [short = '', state = 'empty'] = marker.split(':');
              const label = t(`courses.wizard.content.marker.${state}`, {
                day,
                language: languageName(short),
              });
              return (
                <span
                  key={short}
                  className={`day-marker day-marker-${state}`}
                  title={label}
                  data-language={short}
                  data-state={state}
                >
                  <span className="visually-hidden">{label}</span>
                  <span aria-hidden>{short}</span>
                </span>
              );
            })}
          </span>
        </button>
        {removable && (
          <Popconfirm
            title={t('courses.wizard.content.removeDayConfirm', { day })}
            okText={t('courses.wizard.content.removeDay')}
            cancelText={t('buttons.cancel')}
            onConfirm={() => onRemove(day)}
          >
            <Button
              type="text"
              size="small"
              icon={<DeleteOutlined />}
              className="day-remove"
              aria-label={t('courses.wizard.content.removeDayNamed', { day })}
            />
          </Popconfirm>
        )}
      </li>
    );
  },
);
DayItem.displayName = 'DayItem';

export const DayList = memo(
  ({
    store,
    day,
    language,
    languageName,
    onSelect,
    onAdd,
    onRemove,
    addBlocked,
    readOnly,
  }: Props) => {
    const { t } = useTranslation();
    const snapshot = useDraftSnapshot(store);
    const days = Array.from({ length: snapshot.days }, (_, index) => index + 1);
    return (
      <nav className="day-list" aria-label={t('courses.wizard.content.days')}>
        <ol>
          {days.map((entry) => (
            <DayItem
              key={entry}
              day={entry}
              current={entry === day}
              // A day not written in this language yet goes by its primary-language title.
              title={
                store.lesson(entry, language).title || store.lesson(entry, store.primary()).title
              }
              markers={snapshot.languages
                .map(({ short_name }) => `${short_name}:${store.state(entry, short_name)}`)
                .join(' ')}
              language={language}
              languageName={languageName}
              onSelect={onSelect}
              onRemove={onRemove}
              removable={!readOnly && snapshot.days > 1}
            />
          ))}
        </ol>
        {!readOnly && (
          <Tooltip title={addBlocked}>
            <Button
              block
              icon={<PlusOutlined />}
              onClick={onAdd}
              disabled={addBlocked !== null}
              className="day-add"
            >
              {t('courses.wizard.content.addDay')}
            </Button>
          </Tooltip>
        )}
        {addBlocked && <p className="muted day-add-note">{addBlocked}</p>}
      </nav>
    );
  },
);
DayList.displayName = 'DayList';
