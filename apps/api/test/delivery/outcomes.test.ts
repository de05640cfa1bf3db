import { describe, expect, it } from 'vitest';

import { DAY1, START, channelWorld } from '../fixtures/channels.ts';
import { enrolmentsOf, outboxOf } from '../fixtures/delivery.ts';

// Issue 25: a lesson is "sent" only when a provider accepted it. A company with no working
// connection for the course's channel (none, the demo sample, or one whose test failed) sends
// nothing: its lessons and invitations fail with a reason a trainer is told, never as sent.

const connectionRow = (companyUuid: string, status: string) => ({
  uuid: crypto.randomUUID(),
  company_uuid: companyUuid,
  channel: 'webex',
  status,
  provider_ids: '{}',
  provider_key: null,
  secrets: '',
  last_error: status === 'error' ? '401 Unauthorized' : null,
  last_tested_at: START,
  created_by: null,
  created_at: START,
  updated_at: START,
});

describe('a channel with no working connection sends nothing', async () => {
  const { app, world, enrol, tickAt, deliveriesOfDay } = await channelWorld('webex', {});

  it('no connection: the lesson fails as "channel not connected", with no outbox record of a send', async () => {
    const { course } = await enrol([{}, {}]);
    const result = await tickAt(DAY1);
    expect(result).toMatchObject({ sent: 0, failed: 2 });
    const rows = await deliveriesOfDay(course);
    expect(rows.map((row) => [row.status, row.sent_at, row.failure_code])).toEqual([
      ['failed', null, 'channel_not_connected'],
      ['failed', null, 'channel_not_connected'],
    ]);
    expect(await outboxOf(app, world.company.uuid)).toEqual([]);
  });

  it('an invitation that cannot go is not marked sent: it keeps its reason and waits for a resend', async () => {
    const { course } = await enrol([{}], { distribution: { disabled_enrolment_opt_in: false } });
    const result = await tickAt(DAY1);
    expect(result.invitations).toBe(0);
    const [enrolment] = await enrolmentsOf(app, course);
    expect(enrolment).toMatchObject({
      status: 'invited',
      invitation_sent_at: null,
      invitation_failure_code: 'channel_not_connected',
      invitation_retry_at: null,
      invitation_attempts: 1,
    });
    // Nothing changes until someone resends it: it is not tried again on every tick.
    await tickAt(new Date(Date.parse(DAY1) + 3_600_000).toISOString());
    expect((await enrolmentsOf(app, course))[0]).toMatchObject({ invitation_attempts: 1 });
  });
});

// The demo seed's sample connections, and a connection whose last test failed.
describe.each([
  ['demo', 'channel_not_connected'],
  ['error', 'channel_connection_error'],
])('a %s connection sends nothing', async (status, reason) => {
  const { app, world, enrol, tickAt, deliveriesOfDay } = await channelWorld('webex', {});

  it(`fails the lesson as ${reason}`, async () => {
    await app.db
      .insertInto('channel_connections')
      .values(connectionRow(world.company.uuid, status))
      .execute();
    const { course } = await enrol([{}]);
    expect(await tickAt(DAY1)).toMatchObject({ sent: 0, failed: 1 });
    expect((await deliveriesOfDay(course))[0]).toMatchObject({
      status: 'failed',
      sent_at: null,
      failure_code: reason,
    });
    expect(await outboxOf(app, world.company.uuid)).toEqual([]);
  });
});
