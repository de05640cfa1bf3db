import { DeleteOutlined, PlusOutlined, TeamOutlined } from '@ant-design/icons';
import type { TLearnersList } from '@ccp/schemas';
import { useList } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ROUTES } from '../../../config.ts';
import { formatNumber } from '../../../lib/format.ts';

type Props = {
  /** The chosen list; '' is "All users" (spec §3: the pseudo-list with an empty uuid). */
  selected: string;
  /** Learners in "All users", when known. */
  allCount: number | undefined;
  onSelect: (uuid: string) => void;
  onDelete: (list: TLearnersList) => void;
  pending: string | null;
};

/** The lists beside the learners: "All users" first, each list with its members. */
export const ListsPanel = ({ selected, allCount, onSelect, onDelete, pending }: Props) => {
  const { t } = useTranslation();
  const { result, query } = useList<TLearnersList>({
    resource: 'learners-lists',
    pagination: { mode: 'off' },
  });
  const entries = [
    { uuid: '', name: t('learners.lists.all'), count: allCount, list: null },
    ...result.data.map((list) => ({
      uuid: list.uuid,
      name: list.name,
      count: list.learners_count,
      list,
    })),
  ];
  return (
    <nav className="lists-panel" aria-label={t('learners.lists.label')} aria-busy={query.isLoading}>
      <div className="lists-head">
        <h2 className="lists-title">{t('learners.lists.title')}</h2>
        <Link to={ROUTES.learnersListCreate} className="lists-new">
          <PlusOutlined aria-hidden /> {t('learners.lists.new')}
        </Link>
      </div>
      <ul className="lists-items">
        {entries.map((entry) => (
          <li
            key={entry.uuid || 'all'}
            className={entry.uuid === selected ? 'is-selected' : undefined}
          >
            <button
              type="button"
              className="lists-item"
              aria-current={entry.uuid === selected ? 'true' : undefined}
              onClick={() => onSelect(entry.uuid)}
            >
              {entry.uuid === '' && <TeamOutlined aria-hidden />}
              <span className="lists-name">{entry.name}</span>
              {entry.count !== undefined && (
                <span className="lists-count">{formatNumber(entry.count)}</span>
              )}
            </button>
            {entry.list && (
              <button
                type="button"
                className="lists-delete"
                aria-label={t('learners-lists.actions.deleteNamed', { name: entry.name })}
                disabled={pending === `delete-list:${entry.uuid}`}
                onClick={() => onDelete(entry.list)}
              >
                <DeleteOutlined aria-hidden />
              </button>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
};
