import type { TChannelConnection, TProofOutcome } from '@ccp/schemas';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

const OUTCOME_COLOR: Record<TProofOutcome, string> = {
  proved: 'green',
  pending: 'gold',
  not_provable: 'default',
  failed: 'red',
};

/**
 * What the last "Test" proved of the path a lesson takes, and what it could not: one line per
 * step (credentials, bot, templates, webhook, signed event, a learner), its outcome first.
 */
export const ConnectionProofs = ({ row }: { row: TChannelConnection }) => {
  const { t } = useTranslation();
  if (row.proofs.length === 0) return null;
  const provider = t(`courses.wizard.channels.${row.channel}`);
  return (
    <ul className="channel-connection-proofs" aria-label={t('channel-connections.proofs.title')}>
      {row.proofs.map((item) => (
        <li key={`${item.key}:${item.outcome}`} data-proof={item.key} data-outcome={item.outcome}>
          <Tag color={OUTCOME_COLOR[item.outcome]}>
            {t(`channel-connections.proofs.outcomes.${item.outcome}`)}
          </Tag>
          {t(`channel-connections.proofs.items.${item.key}.${item.outcome}`, { provider })}
          {item.detail && (
            <>
              {' '}
              <Typography.Text code>{item.detail}</Typography.Text>
            </>
          )}
        </li>
      ))}
    </ul>
  );
};
