import { ApartmentOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

import { useClassroom } from './classroom-context.ts';

/**
 * The current classroom (spec §1): a native select when the company has more than one, its name
 * otherwise. Every classroom-scoped page follows the choice.
 */
export const ClassroomSwitch = () => {
  const { t } = useTranslation();
  const { classrooms, current, select } = useClassroom();
  if (!current) return null;
  if (classrooms.length < 2) {
    return (
      <span className="classroom-switch" title={t('layout.classroom.label')}>
        <ApartmentOutlined aria-hidden />
        <span className="classroom-name">{current.name}</span>
      </span>
    );
  }
  return (
    <label className="classroom-switch">
      <span className="visually-hidden">{t('layout.classroom.label')}</span>
      <ApartmentOutlined aria-hidden />
      <select value={current.uuid} onChange={(event) => select(event.target.value)}>
        {classrooms.map((classroom) => (
          <option key={classroom.uuid} value={classroom.uuid}>
            {classroom.name}
          </option>
        ))}
      </select>
    </label>
  );
};
