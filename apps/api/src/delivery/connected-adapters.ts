import { CHANNEL_KEYS } from '@ccp/schemas';
import type { TChannelKey } from '@ccp/schemas';
import type { CompiledQuery } from 'kysely';

import type { Db } from '../db/index.ts';
import type { Clock } from '../lib/clock.ts';
import { newUuid } from '../lib/ids.ts';
import type { Metrics } from '../lib/metrics.ts';
import type { SecretBox } from '../lib/secrets.ts';
import type { ChannelSettings } from './channel-settings.ts';
import { CHANNELS } from './channels/index.ts';
import { createRateLimiter, outboxRecord } from './channels.ts';
import type { ChannelAdapter, ChannelAdapters } from './channels.ts';
import { channelMessageRecords } from './channel-messages.ts';
import { ChannelSendError, errorText } from './connector.ts';
import type { Connector } from './connector.ts';
import { connectionsVersion, loadConnection } from './connections.ts';
import { findIdentity, identityRecord } from './identities.ts';
import type { ChannelMessage, ClosedQuestion, Connection, Identity } from './message.ts';

// The scheduler's adapters once providers can be connected: a message of a company with a live
// connection for its channel goes through that provider's connector (identity resolved and
// cached, paced per connection, failures classified). A company with no working connection for
// the channel (none, disconnected, the demo sample, or one whose test failed) sends nothing, and
// the message fails with that reason: it is never recorded as sent (issue 25).

export type ConnectorDeps = {
  db: Db;
  clock: Clock;
  secretBox: SecretBox | null;
  channelSettings: ChannelSettings;
  /** Where the time spent waiting for a provider's pace is counted (optional in tests). */
  metrics?: Pick<Metrics, 'pacingWait'>;
};

// Connections are read again after this long, so a new token or a disconnect takes effect.
const CONNECTION_CACHE_MS = 5_000;
const CONNECTOR_MAX_RETRIES = 3;

/** Nothing can go: the channel has no working connection (`status` says which). */
const notConnected = (channel: TChannelKey, status: string) =>
  new ChannelSendError(`${channel}: no working connection (${status})`, {
    kind: 'permanent',
    code: status === 'error' ? 'channel_connection_error' : 'channel_not_connected',
  });

const connectedAdapter = (deps: ConnectorDeps, connector: Connector): ChannelAdapter => {
  const channel = connector.channel;
  const connections = new Map<
    string,
    { at: number; version: number; connection: Promise<Connection | string> }
  >();
  const limiters = new Map<string, () => Promise<void>>();
  const connectionOf = (companyUuid: string) => {
    const cached = connections.get(companyUuid);
    const now = performance.now();
    const version = connectionsVersion(deps.db);
    if (cached && cached.version === version && now - cached.at < CONNECTION_CACHE_MS) {
      return cached.connection;
    }
    // A working connection, or the status that says why there is none.
    const connection = loadConnection(deps, companyUuid, channel).then((found) =>
      found && found.status === 'connected' ? found : (found?.status ?? 'not_connected'),
    );
    connections.set(companyUuid, { at: now, version, connection });
    return connection;
  };
  const limiterOf = (connection: Connection) => {
    let limiter = limiters.get(connection.uuid);
    if (!limiter) {
      limiter = createRateLimiter(connector.ratePerSecond);
      limiters.set(connection.uuid, limiter);
    }
    return limiter;
  };
  /** Where the learner is on the provider, and the row to save when it was just found. */
  const identityOf = async (
    connection: Connection,
    message: ChannelMessage,
  ): Promise<{ identity: Identity; record: CompiledQuery | null }> => {
    const { learnerUuid, address, identity: known } = message.recipient;
    const cached = known !== undefined ? known : await findIdentity(deps, learnerUuid, channel);
    if (cached && cached.address === address) return { identity: cached, record: null };
    try {
      const identity = await connector.resolveIdentity(connection, { uuid: learnerUuid, address });
      const record = identityRecord(
        deps,
        { companyUuid: connection.companyUuid, learnerUuid, channel, address },
        identity,
      );
      return { identity, record };
    } catch (error) {
      // Finding someone changes nothing on the provider: anything but a permanent answer is retried.
      const verdict = connector.classifyError(error);
      throw new ChannelSendError(
        errorText(error),
        verdict.kind === 'unknown_outcome' ? { ...verdict, kind: 'retry' } : verdict,
      );
    }
  };
  /** The connection and identity a message goes by, paced like any call (a send, an edit). */
  const reach = async (message: ChannelMessage) => {
    const connection = await connectionOf(message.companyUuid);
    if (typeof connection === 'string') throw notConnected(channel, connection);
    const { identity, record } = await identityOf(connection, message);
    const waitFrom = performance.now();
    await limiterOf(connection)();
    deps.metrics?.pacingWait.inc({ channel }, (performance.now() - waitFrom) / 1000);
    return { connection, identity, record };
  };
  const close = connector.closeQuestion;
  return {
    key: channel,
    ...(close
      ? {
          closeQuestion: async (question: ClosedQuestion) => {
            const { connection, identity } = await reach(question.message);
            await close(connection, identity, question);
          },
        }
      : {}),
    // Paced per connection inside send; the outbox needs no pacing of its own.
    rateLimitPerSecond: Number.POSITIVE_INFINITY,
    maxRetries: CONNECTOR_MAX_RETRIES,
    classifyError: connector.classifyError,
    send: async (message) => {
      const { connection, identity, record: found } = await reach(message);
      let sent: Awaited<ReturnType<Connector['send']>>;
      try {
        sent = await connector.send(connection, identity, message);
      } catch (error) {
        throw new ChannelSendError(errorText(error), connector.classifyError(error));
      }
      // The outbox keeps the history of every send, with the provider's message id.
      const outboxUuid = newUuid();
      const sentRecord = outboxRecord(deps, channel, message, {
        uuid: outboxUuid,
        recipient: identity.conversationId ?? identity.providerUserId,
        body: {
          provider_message_id: sent.providerMessageId,
          payload: sent.payload,
          ...(sent.pending ? { pending: sent.pending } : {}),
        },
      });
      const accepted = sent.accepted
        ? channelMessageRecords(deps, message, outboxUuid, sent.accepted)
        : [];
      return {
        providerMessageId: sent.providerMessageId,
        records: [...(found ? [found] : []), sentRecord, ...accepted],
      };
    },
  };
};

/** Every channel's adapter: its provider's connector. */
export const createConnectedAdapters = (deps: ConnectorDeps): ChannelAdapters =>
  Object.fromEntries(
    CHANNEL_KEYS.map((key) => [
      key,
      connectedAdapter(deps, CHANNELS[key].createConnector(deps.channelSettings, deps)),
    ]),
  ) as ChannelAdapters;
