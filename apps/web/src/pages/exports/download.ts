import { EXPORT_DEFAULTS } from '@ccp/schemas';
import type { TExportDownload } from '@ccp/schemas';

/** The download page's outcomes (spec §8 "Export download errors"), by what went wrong. */
export type TDownloadError =
  | 'invalid_url'
  | 'no_data'
  | 'download_error'
  | 'no_privileges'
  | 'export_not_found'
  | 'session_expired'
  | 'server_error'
  | 'connection_error'
  | 'unknown_error';

type TFailure = { status?: unknown; statusCode?: unknown; code?: unknown };

/** Which error of spec §8 a failed download is. */
export const downloadErrorOf = (error: unknown): TDownloadError => {
  const { status, statusCode, code } = (error ?? {}) as TFailure;
  const http =
    typeof statusCode === 'number' ? statusCode : typeof status === 'number' ? status : undefined;
  if (http === 0 || code === 'NETWORK_ERROR') return 'connection_error';
  if (http === 401) return 'session_expired';
  if (http === 403) return 'no_privileges';
  if (http === 404) return 'export_not_found';
  if (http !== undefined && http >= 500) return 'server_error';
  return 'unknown_error';
};

/** The file of a download as a Blob with its name; `no_data` when it holds nothing. */
export const fileOf = (
  download: Partial<TExportDownload>,
): { blob: Blob; name: string } | { error: 'no_data' | 'download_error' } => {
  const content = download.file_content ?? '';
  if (content === '') return { error: 'no_data' };
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = Uint8Array.from(atob(content), (char) => char.charCodeAt(0));
  } catch {
    return { error: 'download_error' };
  }
  // Spec §9: export.csv and application/octet-stream when the answer names none.
  const name = download.file_name || EXPORT_DEFAULTS.fileName;
  const type = download.content_type || EXPORT_DEFAULTS.contentType;
  return { blob: new Blob([bytes], { type }), name };
};
