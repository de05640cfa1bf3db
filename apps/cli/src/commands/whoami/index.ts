import { currentUser } from '@ccp/data-provider';
import type { TUser } from '@ccp/schemas';

import type { GlobalOptions } from '../../lib/client.ts';
import { requireSession } from '../../lib/client.ts';
import { canSpin } from '../../lib/interactive.ts';
import type { CliIo } from '../../lib/io.ts';
import { printJson, printOut } from '../../lib/io.ts';
import { withSpinner } from '../../lib/spinner.ts';

export type WhoamiOptions = GlobalOptions & { json?: boolean };

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** The signed-in user as aligned `label: value` lines. */
export const describeUser = (user: TUser, apiUrl: string): string => {
  const rows: [string, string][] = [
    ['Email', user.email],
    ['Name', `${user.first_name} ${user.last_name}`.trim()],
    ['Company', user.company.name],
    ['Admin', yesNo(user.is_admin)],
    ['2FA', user.is_2fa_enabled ? 'on' : 'off'],
    ['API', apiUrl],
  ];
  const width = Math.max(...rows.map(([label]) => label.length)) + 1;
  return rows.map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}`).join('\n');
};

/** `ccp whoami`: the signed-in user (`--json`: the API's user object). Exit 4 when signed out. */
export async function whoami(options: WhoamiOptions, io: CliIo): Promise<void> {
  const { apiUrl, client } = requireSession(options, io);
  const user = await withSpinner(io, canSpin(io, options), 'Loading…', () => currentUser(client));
  if (options.json) printJson(io, user);
  else printOut(io, describeUser(user, apiUrl));
}
