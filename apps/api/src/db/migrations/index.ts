import type { Migration } from 'kysely';

import * as init from './0001_init.ts';
import * as referenceData from './0002_reference_data.ts';
import * as translations from './0003_translations.ts';
import * as delivery from './0004_delivery.ts';
import * as deliveryExtra from './0005_delivery_extra.ts';
import * as analytics from './0006_analytics.ts';
import * as jobs from './0007_jobs.ts';
import * as translationsFromLocales from './0008_translations_from_locales.ts';
import * as apiTokens from './0009_api_tokens.ts';
import * as channelConnections from './0010_channel_connections.ts';
import * as accounts from './0013_accounts.ts';
import * as learnersPaging from './0019_learners_paging.ts';
import * as outboxDeliveryIndex from './0023_outbox_delivery_index.ts';
import * as learnersOrderIndexes from './0024_learners_order_indexes.ts';
import * as deliveryOutcomes from './0025_delivery_outcomes.ts';
import * as channelMessages from './0026_channel_messages.ts';
import * as teamsReferences from './0027_teams_references.ts';
import * as connectionKeyUnique from './0028_connection_key_unique.ts';
import * as deliveryPartsAndChatUsers from './0032_delivery_parts_and_chat_users.ts';
import * as dueLessonsOrder from './0033_due_lessons_order.ts';
import * as learnerHours from './0034_learner_hours.ts';
import * as answerFeedback from './0035_answer_feedback.ts';
import * as reminderPolicy from './0036_reminder_policy.ts';
import * as questionRepeats from './0037_question_repeats.ts';
import * as whatsappName from './0039_whatsapp_name.ts';
import * as retention from './0040_retention.ts';
import * as connectionProofs from './0044_connection_proofs.ts';
import * as testLessons from './0045_test_lessons.ts';
import * as claimNotCounted from './0046_claim_not_counted.ts';
import * as refreshSuccessor from './0049_refresh_successor.ts';

// Every migration, in order. A static list (not a folder scan) so tsx, vitest and a bundle agree.
export const migrations: Record<string, Migration> = {
  '0001_init': init,
  '0002_reference_data': referenceData,
  '0003_translations': translations,
  '0004_delivery': delivery,
  '0005_delivery_extra': deliveryExtra,
  '0006_analytics': analytics,
  '0007_jobs': jobs,
  '0008_translations_from_locales': translationsFromLocales,
  '0009_api_tokens': apiTokens,
  '0010_channel_connections': channelConnections,
  '0013_accounts': accounts,
  '0019_learners_paging': learnersPaging,
  '0023_outbox_delivery_index': outboxDeliveryIndex,
  '0024_learners_order_indexes': learnersOrderIndexes,
  '0025_delivery_outcomes': deliveryOutcomes,
  '0026_channel_messages': channelMessages,
  '0027_teams_references': teamsReferences,
  '0028_connection_key_unique': connectionKeyUnique,
  '0032_delivery_parts_and_chat_users': deliveryPartsAndChatUsers,
  '0033_due_lessons_order': dueLessonsOrder,
  '0034_learner_hours': learnerHours,
  '0035_answer_feedback': answerFeedback,
  '0036_reminder_policy': reminderPolicy,
  '0037_question_repeats': questionRepeats,
  '0039_whatsapp_name': whatsappName,
  '0040_retention': retention,
  '0044_connection_proofs': connectionProofs,
  '0045_test_lessons': testLessons,
  '0046_claim_not_counted': claimNotCounted,
  '0049_refresh_successor': refreshSuccessor,
};
