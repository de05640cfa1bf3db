import type { TLearner } from '@ccp/schemas';
import { useTranslation } from 'react-i18next';

/** A learner's reachability (reachable, unreachable, unknown) as a badge. */
export const Reachability = ({ value }: { value: TLearner['reachability'] }) => {
  const { t } = useTranslation();
  return <span className={`badge badge-${value}`}>{t(`enum.reachability.${value}`)}</span>;
};

/** A learner's state: archived, or the spec's active flag (active or inactive). */
export const LearnerState = ({ learner }: { learner: TLearner }) => {
  const { t } = useTranslation();
  if (learner.status === 'archived') {
    return <span className="badge badge-archived">{t('learners.state.archived')}</span>;
  }
  return learner.active ? (
    <span className="badge badge-learning">{t('learners.state.active')}</span>
  ) : (
    <span className="badge">{t('learners.state.inactive')}</span>
  );
};

/** Channel names, comma-separated. */
export const channelNames = (learner: Pick<TLearner, 'channels'>) =>
  learner.channels.map((channel) => channel.name).join(', ');
