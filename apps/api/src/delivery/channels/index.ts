import type { TChannelKey } from '@ccp/schemas';

import { googleChat } from './google-chat/index.ts';
import type { ChannelModule } from './module.ts';
import { slack } from './slack/index.ts';
import { teams } from './teams/index.ts';
import { webex } from './webex/index.ts';
import { whatsapp } from './whatsapp/index.ts';

// Every chat channel, by its key: exhaustive over CHANNEL_KEYS, so a sixth key fails to compile
// here until its folder exists, and everything that reads CHANNELS knows it from then on.

export const CHANNELS: Record<TChannelKey, ChannelModule> = {
  slack,
  'ms-teams': teams,
  whatsapp,
  webex,
  'google-chat': googleChat,
};
