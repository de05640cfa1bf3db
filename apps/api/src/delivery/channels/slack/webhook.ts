import { connectionsOfChannel, findConnectionByKey } from '../../connections.ts';
import { applyInbound, applyReply } from '../../inbound.ts';
import { unsigned } from '../webhook.ts';
import type { ChannelWebhooks, WebhookDeps, WebhookRequest } from '../webhook.ts';
import { parseSlackEvent, parseSlackInteraction, verifySlackRequest } from './inbound.ts';

// Slack: the Events API (JSON: the URL check, a learner's message in the app's DM) and
// interactivity (form-encoded: a tapped button) may share this Request URL; both are signed v0
// with the app's signing secret.

export const slackWebhooks = (deps: WebhookDeps): ChannelWebhooks => {
  const signed = (request: WebhookRequest, secret: string | undefined) =>
    secret !== undefined &&
    verifySlackRequest(
      secret,
      {
        signature: request.header('x-slack-signature'),
        timestamp: request.header('x-slack-request-timestamp'),
      },
      request.raw,
      deps.clock.now().getTime(),
    );

  const events = async (request: WebhookRequest) => {
    const event = parseSlackEvent(request.raw);
    if (!event) throw unsigned();
    // The URL check names no team: any Slack connection's secret may have signed it.
    const candidates =
      event.kind === 'url_verification'
        ? await connectionsOfChannel(deps, 'slack')
        : [await findConnectionByKey(deps, 'slack', event.teamId)];
    const connection = candidates.find(
      (candidate) => candidate && signed(request, candidate.secrets.signing_secret),
    );
    if (!connection) throw unsigned();
    if (event.kind === 'url_verification') return { challenge: event.challenge };
    if (event.kind === 'other') return { status: 'ignored' };
    const status = await applyReply(deps, {
      channel: 'slack',
      companyUuid: connection.companyUuid,
      providerUserId: event.userId,
      providerMessageId: event.eventId,
      text: event.text,
    });
    return { status };
  };

  return {
    receive: {
      summary:
        'Slack: a learner tapped an answer (interactivity) or wrote one in the DM (Events API); signed v0',
      handle: async (request) => {
        if (request.raw.trimStart().startsWith('{')) return { body: await events(request) };
        const interaction = parseSlackInteraction(request.raw);
        const connection = interaction
          ? await findConnectionByKey(deps, 'slack', interaction.teamId)
          : null;
        if (!interaction || !connection || !signed(request, connection.secrets.signing_secret)) {
          throw unsigned();
        }
        // Not one of our buttons (a link's click): acknowledged, nothing to record.
        if (!interaction.action) return {};
        const status = await applyInbound(deps, {
          channel: 'slack',
          companyUuid: connection.companyUuid,
          providerUserId: interaction.userId,
          providerMessageId: interaction.eventId,
          action: interaction.action,
        });
        return { body: { status } };
      },
    },
  };
};
