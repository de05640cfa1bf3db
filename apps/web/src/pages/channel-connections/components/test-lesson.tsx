import { actionRequests } from '@ccp/data-provider';
import {
  CHANNEL_CONTACT,
  TEST_LESSON_POLL_INTERVAL_MS,
  TEST_LESSON_POLL_MS,
  testLessonAddressIssue,
} from '@ccp/schemas';
import type { TChannelKey, TTestLesson, TTestLessonState } from '@ccp/schemas';
import type { HttpError } from '@refinedev/core';
import { useCustom, useCustomMutation } from '@refinedev/core';
import { Alert, Button, Form, Input, Space, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { formatDate } from '../../../lib/format.ts';
import { describeMessage } from '../../../lib/messages.ts';
import { reportFailure } from '../../../lib/report-failure.ts';
import { translateMessage } from '../../../lib/translate-message.ts';
import { showFieldErrors } from '../../../lib/use-schema-form.ts';

/** A test lesson still on its way to an answer. */
const OPEN: readonly TTestLesson['status'][] = ['sending', 'sent', 'waiting'];

/** Until when the page asks for the answer: a few minutes after the send (or "Check again"); 0: not. */
const pollingUntil = (last: TTestLesson | null | undefined, checkedAt: number) =>
  last && OPEN.includes(last.status)
    ? Math.max(Date.parse(last.sent_at), checkedAt) + TEST_LESSON_POLL_MS
    : 0;

const polling = (last: TTestLesson | null | undefined, checkedAt: number) =>
  Date.now() < pollingUntil(last, checkedAt);

/** What became of the last test lesson: sent and waiting, failed with what to do, or answered. */
const TestLessonStatus = ({
  last,
  asking,
  onCheck,
}: {
  last: TTestLesson;
  asking: boolean;
  onCheck: () => void;
}) => {
  const { t, i18n } = useTranslation();
  const channel = t(`courses.wizard.channels.${last.channel}`);
  if (last.status === 'failed' && last.failure) {
    const specific = `channel-connections.testLesson.failure.${last.failure.reason}_${last.channel}`;
    return (
      <Alert
        type="error"
        showIcon
        role="alert"
        message={t('channel-connections.testLesson.failed', { date: formatDate(last.sent_at) })}
        description={
          <>
            <p>
              {i18n.exists(specific)
                ? t(specific)
                : t(`channel-connections.testLesson.failure.${last.failure.reason}`)}
            </p>
            <Typography.Text type="secondary">{last.failure.detail}</Typography.Text>
          </>
        }
      />
    );
  }
  if (last.status === 'answered' && last.answer) {
    return (
      <Alert
        type={last.feedback_sent === false ? 'warning' : 'success'}
        showIcon
        role="status"
        message={t('channel-connections.testLesson.answered', {
          date: formatDate(last.answered_at),
          number: last.answer.index + 1,
        })}
        description={
          last.feedback_sent === false
            ? t('channel-connections.testLesson.feedbackNotSent')
            : t('channel-connections.testLesson.feedbackSent', { channel })
        }
      />
    );
  }
  return (
    <Alert
      type="info"
      showIcon
      role="status"
      message={t(
        last.status === 'waiting'
          ? 'channel-connections.testLesson.waiting'
          : 'channel-connections.testLesson.sent',
        { date: formatDate(last.sent_at), channel },
      )}
      description={
        asking ? (
          <Space>
            <Spin size="small" />
            {t('channel-connections.testLesson.asking')}
          </Space>
        ) : (
          <Space wrap>
            {t('channel-connections.testLesson.noAnswerYet')}
            <Button size="small" onClick={onCheck}>
              {t('channel-connections.testLesson.checkAgain')}
            </Button>
          </Space>
        )
      }
    />
  );
};

/**
 * "Send me a test lesson" (issue 29) on a connected channel's card: the administrator's own
 * e-mail or phone (prefilled from their account, or their last WhatsApp test), the send, and
 * what became of it, asked again every few seconds until the answer came back (a few minutes at
 * most; then "Check again").
 */
export const TestLesson = ({
  channel,
  onAnswered,
}: {
  channel: TChannelKey;
  /** The answer came back: the connection's proofs now say a learner was reached. */
  onAnswered: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ address: string }>();
  const [checkedAt, setCheckedAt] = useState(0);
  const { result, query } = useCustom<TTestLessonState>({
    ...actionRequests.testLessonState(channel),
    queryOptions: {
      refetchInterval: (state) =>
        polling(state.state.data?.data.last, checkedAt) ? TEST_LESSON_POLL_INTERVAL_MS : false,
    },
  });
  const { mutate, mutation } = useCustomMutation<TTestLesson>();
  // Until it answers, Refine's result holds an empty object.
  const loaded = typeof result.data?.default_address === 'string' ? result.data : undefined;
  const last = loaded?.last ?? null;
  const contact = CHANNEL_CONTACT[channel];
  // Once per answer the page waited for (not for one answered before the page opened).
  const waitedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!last) return;
    if (OPEN.includes(last.status)) waitedFor.current = last.uuid;
    else if (last.status === 'answered' && waitedFor.current === last.uuid) {
      waitedFor.current = null;
      onAnswered();
    }
  }, [last, onAnswered]);
  // When the asking stops, the status says so ("Check again") without waiting for another render.
  const [, setStopped] = useState(0);
  const until = pollingUntil(last, checkedAt);
  useEffect(() => {
    const left = until - Date.now();
    if (left <= 0) return undefined;
    const timer = setTimeout(() => setStopped(Date.now()), left + 100);
    return () => clearTimeout(timer);
  }, [until]);

  const send = ({ address }: { address: string }) =>
    mutate(
      {
        ...actionRequests.sendTestLesson(channel),
        values: { address },
        successNotification: false,
        errorNotification: false,
        meta: { errorFeedback: 'caller' },
      },
      {
        onSuccess: () => {
          setCheckedAt(Date.now());
          void query.refetch();
        },
        onError: (error: HttpError) => {
          if (!showFieldErrors(form, error)) reportFailure(error);
        },
      },
    );

  return (
    <section className="channel-test-lesson" aria-label={t('channel-connections.testLesson.title')}>
      <Typography.Title level={5}>{t('channel-connections.testLesson.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">
        {t(`channel-connections.testLesson.intro.${contact}`)}
      </Typography.Paragraph>
      {loaded && (
        <Form
          form={form}
          name={`test-lesson-${channel}`}
          layout="vertical"
          initialValues={{ address: loaded.default_address }}
          onFinish={send}
        >
          <Form.Item
            name="address"
            label={t(`channel-connections.testLesson.address.${contact}`)}
            rules={[
              {
                validator: async (_, value: string | undefined) => {
                  const issue = testLessonAddressIssue(channel, value ?? '');
                  if (issue) throw new Error(translateMessage(describeMessage(issue), t));
                },
              },
            ]}
          >
            <Input
              autoComplete={contact === 'phone' ? 'tel' : 'email'}
              inputMode={contact === 'phone' ? 'tel' : 'email'}
            />
          </Form.Item>
          <Button htmlType="submit" loading={mutation.isPending}>
            {t('channel-connections.testLesson.send')}
          </Button>
        </Form>
      )}
      {last && (
        <TestLessonStatus
          last={last}
          asking={polling(last, checkedAt)}
          onCheck={() => {
            setCheckedAt(Date.now());
            void query.refetch();
          }}
        />
      )}
    </section>
  );
};
