import { INVITATION_TTL_DAYS, PASSWORD_RESET_TTL_MINUTES } from '@ccp/schemas';
import type { TLocale } from '@ccp/schemas';

import { t } from '../i18n/texts.ts';

// The e-mails of issue 17, in the recipient's language. They carry a link, never a password or
// a code; the token rides in the link's fragment (#token=…), which browsers do not send to the
// server or in a Referer header, so it reaches no log.

/** The web app's pages that take a link token. */
export const LINK_PATHS = { reset: '/reset-password', invitation: '/invitation' } as const;

export const linkUrl = (publicUrl: string, path: string, token: string): string =>
  `${publicUrl.replace(/\/+$/, '')}${path}#token=${token}`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const render = (lines: string[], url: string) => {
  const text = `${lines.join('\n')}\n`;
  const html = `<p>${lines
    .map((line) =>
      line === url ? `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>` : escapeHtml(line),
    )
    .join('<br>\n')}</p>\n`;
  return { text, html };
};

export const passwordResetMail = (lang: TLocale, name: string, url: string) => ({
  subject: t(lang, 'server.mail.reset.subject'),
  ...render(
    [
      t(lang, 'server.mail.reset.greeting', { name }),
      '',
      t(lang, 'server.mail.reset.text', { minutes: PASSWORD_RESET_TTL_MINUTES }),
      '',
      url,
      '',
      t(lang, 'server.mail.reset.ignore'),
    ],
    url,
  ),
});

export const invitationMail = (
  lang: TLocale,
  { inviter, company }: { inviter: string; company: string },
  url: string,
) => ({
  subject: t(lang, 'server.mail.invitation.subject', { company }),
  ...render(
    [
      t(lang, 'server.mail.invitation.text', { inviter, company }),
      '',
      url,
      '',
      t(lang, 'server.mail.invitation.expiry', { days: INVITATION_TTL_DAYS }),
    ],
    url,
  ),
});
