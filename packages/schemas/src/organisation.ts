import { z } from 'zod';

import { ZUuidSchema, dataEnvelope } from './common.ts';
import { CHANNEL_KEYS, LOCALES } from './constants.ts';
import { MESSAGES } from './messages.ts';

// Spec §1/§3: a company has classrooms; courses and analytics belong to a classroom.

export const ZCompanySchema = z.object({ uuid: ZUuidSchema, name: z.string() });
export type TCompany = z.infer<typeof ZCompanySchema>;

export const ZClassroomSchema = z.object({ uuid: ZUuidSchema, name: z.string() });
export type TClassroom = z.infer<typeof ZClassroomSchema>;

/** `GET /api/v1/companies/{companyUuid}/classrooms` */
export const ZCompanyClassroomsParamsSchema = z.object({ companyUuid: ZUuidSchema });

/** A delivery channel; `contact` says whether it reaches a learner by e-mail or by phone. */
export const ZChannelSchema = z.object({
  uuid: ZUuidSchema,
  key: z.enum(CHANNEL_KEYS),
  name: z.string(),
  contact: z.enum(['email', 'phone']),
});
export type TChannel = z.infer<typeof ZChannelSchema>;

/** A course language; `short_name` is the locale code (en, it, de). */
export const ZLanguageSchema = z.object({
  uuid: ZUuidSchema,
  name: z.string(),
  short_name: z.enum(LOCALES),
});
export type TLanguage = z.infer<typeof ZLanguageSchema>;

export const ZLocaleSchema = z.enum(LOCALES, { message: MESSAGES.localeInvalid });

/** A server-side text: the upgrade modal's titles and descriptions, plan descriptions. */
export const ZTranslationSchema = z.object({
  locale: z.enum(LOCALES),
  key: z.string(),
  value: z.string(),
});
export type TTranslation = z.infer<typeof ZTranslationSchema>;

/** `?locale=en|it|de`; without it every locale is returned. */
export const ZListTranslationsQuerySchema = z.object({ locale: ZLocaleSchema.optional() });
export type TListTranslationsQuery = z.infer<typeof ZListTranslationsQuerySchema>;

export const ZCompanyResponseSchema = dataEnvelope(ZCompanySchema);
export const ZListClassroomsResponseSchema = dataEnvelope(z.array(ZClassroomSchema));
export const ZListChannelsResponseSchema = dataEnvelope(z.array(ZChannelSchema));
export const ZListLanguagesResponseSchema = dataEnvelope(z.array(ZLanguageSchema));
export const ZListTranslationsResponseSchema = dataEnvelope(z.array(ZTranslationSchema));
export type TListTranslationsResponse = z.infer<typeof ZListTranslationsResponseSchema>;

/** The server-side translation keys of the upgrade modal for a 402 text key (spec §6). */
export const upgradeTranslationKeys = (textKey: string) => ({
  title: `upgrade.${textKey}.title`,
  description: `upgrade.${textKey}.description`,
});

/** The modal's fallback when no feature-specific texts exist. */
export const UPGRADE_GENERIC_TEXT_KEY = 'generic';
