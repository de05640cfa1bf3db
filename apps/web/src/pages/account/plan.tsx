import { actionRequests } from '@ccp/data-provider';
import { SUBSCRIPTION_FUNCTION_KEYS, UNLIMITED } from '@ccp/schemas';
import type { TSubscription, TSubscriptionFunctionKey, TUsage } from '@ccp/schemas';
import { useCustom, useOne } from '@refinedev/core';
import { Button, Card, Progress, Skeleton, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

import { PageHeader } from '../../components/page-header.tsx';
import { ROUTES } from '../../config.ts';
import { formatNumber } from '../../lib/format.ts';
import { uiEvents } from '../../lib/ui-events.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';

// The functions the plan page shows (issue 17); weekends are a switch shown in the wizard.
const SHOWN: readonly TSubscriptionFunctionKey[] = SUBSCRIPTION_FUNCTION_KEYS.filter(
  (key) => key !== 'exclusion-days',
);
// Access switches: 0 is "not included", anything else "included".
const SWITCHES: readonly TSubscriptionFunctionKey[] = ['learner-portal'];
/** From this share of a limit on, the bar turns orange; at the limit, red. */
const NEAR_LIMIT = 0.8;

const statusOf = (used: number, limit: number) =>
  limit === UNLIMITED || limit === 0
    ? 'normal'
    : used >= limit
      ? 'exception'
      : used / limit >= NEAR_LIMIT
        ? 'active'
        : 'normal';

/** One plan function: its usage against its limit, with the period it counts over. */
const UsageRow = ({ feature }: { feature: TSubscriptionFunctionKey }) => {
  const { t } = useTranslation();
  const { result, query } = useCustom<TUsage>({ ...actionRequests.usage(feature) });
  const usage = result.data;
  const name = t(`enum.subscriptionFunction.${feature}`);
  if (query.isLoading || !usage) {
    return (
      <div className="usage-row">
        <Skeleton active paragraph={false} />
      </div>
    );
  }
  const unlimited = usage.limit === UNLIMITED;
  const isSwitch = SWITCHES.includes(feature);
  const full = !unlimited && usage.used >= usage.limit;
  const requestUpgrade = () =>
    uiEvents.emit('upgrade', {
      message: null,
      limit: { feature, required: usage.used + 1, limit: usage.limit },
    });
  return (
    <div className="usage-row" data-feature={feature}>
      <div className="usage-head">
        <strong>{name}</strong>
        <span className="usage-figure">
          {isSwitch
            ? usage.limit === 0
              ? t('plan.notIncluded')
              : t('plan.included')
            : unlimited
              ? t('plan.usedUnlimited', { used: formatNumber(usage.used) })
              : t('plan.used', {
                  used: formatNumber(usage.used),
                  limit: formatNumber(usage.limit),
                })}
        </span>
      </div>
      {!isSwitch && !unlimited && (
        <Progress
          percent={
            unlimited
              ? 0
              : usage.limit === 0
                ? 100
                : Math.min(100, (usage.used / usage.limit) * 100)
          }
          showInfo={false}
          status={statusOf(usage.used, usage.limit)}
          strokeColor={statusOf(usage.used, usage.limit) === 'active' ? '#f59f00' : undefined}
          aria-label={name}
        />
      )}
      <div className="usage-foot">
        <span className="usage-period">{isSwitch ? '' : t(`plan.period.${usage.period}`)}</span>
        {(full || (isSwitch && usage.limit === 0)) && (
          <Button size="small" type="link" onClick={requestUpgrade}>
            {t('plan.requestUpgrade')}
          </Button>
        )}
      </div>
    </div>
  );
};

/** /account/plan: the company's plan and each function's usage against its limit. */
export const PlanUsage = () => {
  const { t } = useTranslation();
  usePageTitle(t('plan.title'));
  const { result: subscription } = useOne<TSubscription>({
    resource: 'subscription',
    id: 'current',
  });
  const limits = new Map(
    (subscription?.subscription_functions ?? []).map((entry) => [entry.function.key, entry.limit]),
  );
  const shown = SHOWN.filter((key) => limits.size === 0 || limits.has(key));
  return (
    <section className="page-section page-narrow">
      <PageHeader
        title={t('plan.title')}
        subtitle={t('plan.intro')}
        back={{ to: ROUTES.account, label: t('account.title') }}
        extra={
          <Button type="primary" onClick={() => uiEvents.emit('upgrade', { message: null })}>
            {t('plan.requestUpgrade')}
          </Button>
        }
      />
      <Card
        className="account-card"
        title={
          <span>
            {t('plan.current')} <Tag color="blue">{subscription?.plan.name ?? '…'}</Tag>
          </span>
        }
      >
        <div className="usage-list">
          {shown.map((feature) => (
            <UsageRow key={feature} feature={feature} />
          ))}
        </div>
      </Card>
    </section>
  );
};
