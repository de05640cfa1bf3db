import { ApiError } from '@ccp/data-provider';
import { describe, expect, it } from 'vitest';

import { downloadErrorOf, fileOf } from './download.ts';

describe('the export download page', () => {
  it('names each failure as spec §8 does', () => {
    const failure = (status: number, code = 'X') => new ApiError({ status, code, message: 'm' });
    expect(downloadErrorOf(failure(0, 'NETWORK_ERROR'))).toBe('connection_error');
    expect(downloadErrorOf(failure(401))).toBe('session_expired');
    expect(downloadErrorOf(failure(403, 'NO_PRIVILEGES'))).toBe('no_privileges');
    expect(downloadErrorOf(failure(404, 'EXPORT_NOT_FOUND'))).toBe('export_not_found');
    expect(downloadErrorOf(failure(502))).toBe('server_error');
    expect(downloadErrorOf(failure(418))).toBe('unknown_error');
    expect(downloadErrorOf(new Error('boom'))).toBe('unknown_error');
  });

  it('makes the file with its name and type, spec §9 defaults, no_data and broken content', async () => {
    const named = fileOf({
      file_content: btoa('a;b\r\n'),
      file_name: 'stats.csv',
      content_type: 'text/csv',
    });
    expect('blob' in named && named.name).toBe('stats.csv');
    expect('blob' in named && (await named.blob.text())).toBe('a;b\r\n');
    const unnamed = fileOf({ file_content: btoa('x') });
    expect('blob' in unnamed && [unnamed.name, unnamed.blob.type]).toEqual([
      'export.csv',
      'application/octet-stream',
    ]);
    expect(fileOf({ file_content: '' })).toEqual({ error: 'no_data' });
    expect(fileOf({ file_content: '%%%not base64' })).toEqual({ error: 'download_error' });
  });
});
