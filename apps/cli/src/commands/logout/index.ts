import type { GlobalOptions } from '../../lib/client.ts';
import { clientTuning, cliClientEvents, openSession, revokeSession } from '../../lib/client.ts';
import { SESSION_EXPIRED } from '../../lib/errors.ts';
import { canSpin } from '../../lib/interactive.ts';
import type { CliIo } from '../../lib/io.ts';
import { printErr } from '../../lib/io.ts';
import { withSpinner } from '../../lib/spinner.ts';

export type LogoutOptions = GlobalOptions;

/**
 * `ccp logout`: ends the session on the server and forgets the stored tokens. Always succeeds
 * locally, even offline or with a dead session; not being signed in is not an error.
 */
export async function logout(options: LogoutOptions, io: CliIo): Promise<void> {
  const { apiUrl, lang, store } = openSession(options, io);
  const tokens = store.get();
  if (!tokens) {
    printErr(io, `Not signed in to ${apiUrl}.`);
    return;
  }
  try {
    await withSpinner(io, canSpin(io), 'Signing out…', () =>
      revokeSession(
        apiUrl,
        tokens,
        cliClientEvents(io, apiUrl, lang, SESSION_EXPIRED, clientTuning(options, io).timeoutMs),
        lang,
        clientTuning(options, io),
      ),
    );
  } finally {
    store.clear();
  }
  printErr(io, `Signed out of ${apiUrl}.`);
}
