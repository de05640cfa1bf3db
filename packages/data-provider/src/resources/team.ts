import type { TAuditEntry, TInvitation, TSession, TTeamMember } from '@ccp/schemas';

import type { CustomParams } from '@refinedev/core';

import { apiData, segment, wholeList } from '../utils/api.ts';
import { readFilters, rejectSorters } from '../utils/query.ts';
import type { ResourceHandlers } from './types.ts';

// The account and team resources of issue 17.

type ActionRequest = Pick<CustomParams, 'url' | 'method'>;

const TEAM = '/api/v1/team';

/** team-members: the company's creators (administrators only); update changes the role. */
export const teamMembersResource: ResourceHandlers = {
  getList: async (params, context) => {
    rejectSorters('team-members', params.sorters);
    readFilters('team-members', params.filters, {});
    return wholeList(await apiData<TTeamMember[]>(context, 'GET', `${TEAM}/members`));
  },
  update: async (id, variables, context) =>
    apiData<TTeamMember>(context, 'PATCH', `${TEAM}/members/${segment(id)}`, { body: variables }),
};

/** team-invitations: pending invitations; create invites by e-mail, delete revokes. */
export const teamInvitationsResource: ResourceHandlers = {
  getList: async (params, context) => {
    rejectSorters('team-invitations', params.sorters);
    readFilters('team-invitations', params.filters, {});
    return wholeList(await apiData<TInvitation[]>(context, 'GET', `${TEAM}/invitations`));
  },
  create: async (variables, context) =>
    apiData<TInvitation>(context, 'POST', `${TEAM}/invitations`, { body: variables }),
  deleteOne: async (id, context) =>
    apiData(context, 'DELETE', `${TEAM}/invitations/${segment(id)}`),
};

/** audit-log: newest first, the first page's 100 entries. */
export const auditLogResource: ResourceHandlers = {
  getList: async (params, context) => {
    rejectSorters('audit-log', params.sorters);
    readFilters('audit-log', params.filters, {});
    return wholeList(
      await apiData<TAuditEntry[]>(context, 'GET', `${TEAM}/audit-log?per_page=100`),
    );
  },
};

/** sessions: the signed-in user's open sessions; delete signs one out. */
export const sessionsResource: ResourceHandlers = {
  getList: async (params, context) => {
    rejectSorters('sessions', params.sorters);
    readFilters('sessions', params.filters, {});
    return wholeList(await apiData<TSession[]>(context, 'GET', '/api/v1/users/me/sessions'));
  },
  deleteOne: async (id, context) =>
    apiData(context, 'DELETE', `/api/v1/users/me/sessions/${segment(id)}`),
};

/** Account and team actions, as `{url, method}` for `custom`. */
export const teamActionRequests = {
  deactivate: (uuid: string) =>
    ({
      url: `${TEAM}/members/${segment(uuid)}/deactivate`,
      method: 'post',
    }) satisfies ActionRequest,
  reactivate: (uuid: string) =>
    ({
      url: `${TEAM}/members/${segment(uuid)}/reactivate`,
      method: 'post',
    }) satisfies ActionRequest,
  /** Payload `{ code }`: a fresh code of the administrator's own authenticator. */
  resetTwoFactor: (uuid: string) =>
    ({ url: `${TEAM}/members/${segment(uuid)}/reset-2fa`, method: 'post' }) satisfies ActionRequest,
  /** Payload `{ first_name, last_name, locale }`. */
  updateProfile: () => ({ url: '/api/v1/users/me', method: 'patch' }) satisfies ActionRequest,
  /** Payload `{ current_password, password }`. */
  changePassword: () =>
    ({ url: '/api/v1/users/me/password', method: 'post' }) satisfies ActionRequest,
  signOutOthers: () =>
    ({ url: '/api/v1/users/me/sessions/sign-out-others', method: 'post' }) satisfies ActionRequest,
  recoveryCodesStatus: () =>
    ({ url: '/api/v1/users/me/recovery-codes', method: 'get' }) satisfies ActionRequest,
  /** Payload `{ code }`: a fresh authenticator code. */
  newRecoveryCodes: () =>
    ({ url: '/api/v1/users/me/recovery-codes', method: 'post' }) satisfies ActionRequest,
  /** Payload `{ code }`. */
  reenrolTwoFactor: () =>
    ({ url: '/api/v1/users/me/2fa/reset', method: 'post' }) satisfies ActionRequest,
};
