import { aiImportsResource } from './ai-imports.ts';
import { analyticsResource } from './analytics.ts';
import { apiTokensResource } from './api-tokens.ts';
import { channelConnectionsResource } from './channel-connections.ts';
import { coursesResource, coursesShortResource } from './courses.ts';
import { exportsResource } from './exports.ts';
import { learnersImportsResource } from './learners-imports.ts';
import { learnersListsResource } from './learners-lists.ts';
import { learnersResource } from './learners.ts';
import {
  channelsResource,
  classroomsResource,
  companyResource,
  languagesResource,
  subscriptionResource,
  termsResource,
  translationsResource,
} from './reference.ts';
import {
  auditLogResource,
  sessionsResource,
  teamInvitationsResource,
  teamMembersResource,
} from './team.ts';
import type { ResourceHandlers } from './types.ts';

/** Every resource of the provider by its key: the same words in the web registry and the CLI. */
export const RESOURCE_HANDLERS = {
  courses: coursesResource,
  'courses-short': coursesShortResource,
  learners: learnersResource,
  'learners-lists': learnersListsResource,
  channels: channelsResource,
  languages: languagesResource,
  translations: translationsResource,
  classrooms: classroomsResource,
  company: companyResource,
  subscription: subscriptionResource,
  terms: termsResource,
  analytics: analyticsResource,
  exports: exportsResource,
  'api-tokens': apiTokensResource,
  'channel-connections': channelConnectionsResource,
  'learners-imports': learnersImportsResource,
  'ai-imports': aiImportsResource,
  'team-members': teamMembersResource,
  'team-invitations': teamInvitationsResource,
  'audit-log': auditLogResource,
  sessions: sessionsResource,
} satisfies Record<string, ResourceHandlers>;

export type TResource = keyof typeof RESOURCE_HANDLERS;

/** The resources the provider maps onto the API (spec §7). */
export const RESOURCES = Object.keys(RESOURCE_HANDLERS) as TResource[];
