import {
  DeleteOutlined,
  EditOutlined,
  InboxOutlined,
  PlusOutlined,
  UndoOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import type { TLearner } from '@ccp/schemas';
import { useInfiniteList } from '@refinedev/core';
import { Button, Input, Segmented, Table, Tooltip } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { ButtonLink } from '../../components/button-link.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { LEARNERS_PAGE_SIZE, ROUTES, learnerEditPath, learnerViewPath } from '../../config.ts';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { LearnerState, Reachability, channelNames } from './components/learner-badges.tsx';
import { ListsPanel } from './components/lists-panel.tsx';
import { useLearnerActions } from './components/use-learner-actions.ts';

const SEARCH_DELAY_MS = 300;

/**
 * The learners centre (spec §2, /learners): the lists, and the learners of the chosen one by page
 * number from 1 with the next pages appended (spec §4), searchable, live or archived. The list,
 * search and mode are in the address (`?list=`, `?q=`, `?archived=1`), so reload and Back keep them.
 */
export const LearnerList = () => {
  const { t } = useTranslation();
  usePageTitle(t('learners.titles.list'));
  const [params, setParams] = useSearchParams();
  const listUuid = params.get('list') ?? '';
  const archived = params.get('archived') === '1';
  const search = params.get('q') ?? '';
  const [typed, setTyped] = useState(search);
  const actions = useLearnerActions();

  const update = (changes: Record<string, string | null>) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );

  // Searching waits for a pause in typing.
  useEffect(() => {
    if (typed === search) return;
    const timer = setTimeout(() => update({ q: typed.trim() || null }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  });

  const { result, query } = useInfiniteList<TLearner>({
    resource: 'learners',
    pagination: { pageSize: LEARNERS_PAGE_SIZE },
    filters: [
      { field: 'archived', operator: 'eq', value: archived },
      { field: 'learners_lists', operator: 'eq', value: listUuid },
      { field: 'search', operator: 'contains', value: search },
    ],
  });
  const learners = useMemo(
    () => result.data?.pages.flatMap((page) => page.data) ?? [],
    [result.data],
  );
  const total = result.data?.pages[0]?.total;
  const busy = (action: string, learner: TLearner) =>
    actions.pending === `${action}:${learner.uuid}`;

  return (
    <section className="page-section learners-page">
      <PageHeader
        title={t('learners.titles.list')}
        subtitle={t('learners.intro')}
        extra={
          <>
            <ButtonLink icon={<UploadOutlined />} to={ROUTES.learnersUpload}>
              {t('learners.actions.import')}
            </ButtonLink>
            <ButtonLink type="primary" icon={<PlusOutlined />} to={learnerEditPath('new')}>
              {t('learners.actions.create')}
            </ButtonLink>
          </>
        }
      />
      <div className="learners-layout">
        <ListsPanel
          selected={listUuid}
          allCount={listUuid === '' && !archived && !search ? total : undefined}
          onSelect={(uuid) => update({ list: uuid || null })}
          onDelete={(list) => actions.removeList(list, () => update({ list: null }))}
          pending={actions.pending}
        />
        <div className="learners-main">
          <div className="learners-toolbar">
            <Input.Search
              allowClear
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              onSearch={(value) => update({ q: value.trim() || null })}
              placeholder={t('learners.search.placeholder')}
              aria-label={t('learners.search.label')}
              className="learners-search"
            />
            <Segmented<'live' | 'archived'>
              value={archived ? 'archived' : 'live'}
              onChange={(value) => update({ archived: value === 'archived' ? '1' : null })}
              aria-label={t('learners.mode.label')}
              options={[
                { value: 'live', label: t('learners.mode.live') },
                {
                  value: 'archived',
                  label: (
                    <span>
                      <InboxOutlined aria-hidden /> {t('learners.mode.archived')}
                    </span>
                  ),
                },
              ]}
            />
          </div>
          <Table<TLearner>
            rowKey="uuid"
            size="middle"
            dataSource={learners}
            loading={query.isLoading}
            pagination={false}
            scroll={{ x: 824 }}
            locale={{
              emptyText: search
                ? t('learners.empty.search', { search })
                : archived
                  ? t('learners.empty.archived')
                  : t('learners.empty.list'),
            }}
            columns={[
              {
                key: 'learner',
                title: t('learners.fields.learner'),
                width: 240,
                render: (_, learner) => (
                  <div className="learner-cell">
                    <Link to={learnerViewPath(learner.uuid)} className="learner-name">
                      {`${learner.first_name} ${learner.last_name}`.trim()}
                    </Link>
                    <span className="learner-contact" title={learner.email ?? undefined}>
                      {learner.email ?? t('learners.noEmail')}
                    </span>
                    <span className="learner-contact">
                      {learner.phone ?? t('learners.noPhone')} ·{' '}
                      {t(`enum.locale.${learner.locale}`)}
                    </span>
                  </div>
                ),
              },
              {
                key: 'channels',
                title: t('learners.fields.channels'),
                width: 120,
                render: (_, l) => channelNames(l),
              },
              {
                key: 'lists',
                title: t('learners.fields.lists'),
                width: 140,
                render: (_, l) => l.learners_lists.map((list) => list.name).join(', ') || '—',
              },
              {
                key: 'state',
                title: t('learners.fields.status'),
                width: 130,
                render: (_, l) => (
                  <div className="badge-stack">
                    <LearnerState learner={l} />
                    <Reachability value={l.reachability} />
                  </div>
                ),
              },
              {
                key: 'created',
                title: t('learners.fields.created'),
                width: 110,
                render: (_, l) => formatDate(l.created_at),
              },
              {
                key: 'actions',
                title: <span className="visually-hidden">{t('learners.fields.actions')}</span>,
                width: 84,
                render: (_, learner) => {
                  const name = `${learner.first_name} ${learner.last_name}`.trim();
                  return archived ? (
                    <div className="row-actions">
                      <Tooltip title={t('learners.actions.restore')}>
                        <Button
                          size="small"
                          icon={<UndoOutlined />}
                          loading={busy('restore', learner)}
                          aria-label={t('learners.actions.restoreNamed', { name })}
                          onClick={() => void actions.restore(learner)}
                        />
                      </Tooltip>
                      <Tooltip title={t('learners.actions.delete')}>
                        <Button
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          loading={busy('delete', learner)}
                          aria-label={t('learners.actions.deleteNamed', { name })}
                          onClick={() => actions.remove(learner)}
                        />
                      </Tooltip>
                    </div>
                  ) : (
                    <div className="row-actions">
                      <Tooltip title={t('learners.actions.edit')}>
                        <ButtonLink
                          size="small"
                          icon={<EditOutlined />}
                          to={learnerEditPath(learner.uuid)}
                          aria-label={t('learners.actions.editNamed', { name })}
                        />
                      </Tooltip>
                      <Tooltip title={t('learners.actions.archive')}>
                        <Button
                          size="small"
                          icon={<InboxOutlined />}
                          loading={busy('archive', learner)}
                          aria-label={t('learners.actions.archiveNamed', { name })}
                          onClick={() => void actions.archive(learner)}
                        />
                      </Tooltip>
                    </div>
                  );
                },
              },
            ]}
          />
          <div className="grid-footer">
            {total !== undefined && (
              <span className="muted" role="status">
                {t('learners.shown', {
                  shown: formatNumber(learners.length),
                  total: formatNumber(total),
                })}
              </span>
            )}
            {result.hasNextPage && (
              <Button loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                {t('learners.loadMore')}
              </Button>
            )}
          </div>
        </div>
      </div>
    </section>
  );
};
