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
          {days.map((entry) => {
            const title = store.lesson(entry, language).title;
            return (
              <li key={entry} className={entry === day ? 'day-item day-item-current' : 'day-item'}>
                <button
                  type="button"
                  className="day-button"
                  aria-current={entry === day ? 'step' : undefined}
                  onClick={() => onSelect(entry, language)}
                >
                  <span className="day-label">
                    {t('courses.wizard.content.day', { day: entry })}
                  </span>
                  <span className="day-title">{title || t('courses.wizard.content.untitled')}</span>
                  <span className="day-markers">
                    {snapshot.languages.map((entryLanguage) => {
                      const state = store.state(entry, entryLanguage.short_name);
                      const label = t(`courses.wizard.content.marker.${state}`, {
                        day: entry,
                        language: languageName(entryLanguage.short_name),
                      });
                      return (
                        <span
                          key={entryLanguage.short_name}
                          className={`day-marker day-marker-${state}`}
                          title={label}
                          data-language={entryLanguage.short_name}
                          data-state={state}
                        >
                          <span className="visually-hidden">{label}</span>
                          <span aria-hidden>{entryLanguage.short_name}</span>
                        </span>
                      );
                    })}
                  </span>
                </button>
                {!readOnly && snapshot.days > 1 && (
                  <Popconfirm
                    title={t('courses.wizard.content.removeDayConfirm', { day: entry })}
                    okText={t('courses.wizard.content.removeDay')}
                    cancelText={t('buttons.cancel')}
                    onConfirm={() => onRemove(entry)}
                  >
                    <Button
                      type="text"
                      size="small"
                      icon={<DeleteOutlined />}
                      className="day-remove"
                      aria-label={t('courses.wizard.content.removeDayNamed', { day: entry })}
                    />
                  </Popconfirm>
                )}
              </li>
            );
          })}
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
