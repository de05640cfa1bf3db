// A `fetch` made of XMLHttpRequest, for the one thing fetch cannot do in a browser: report the
// bytes of a request body as they are sent (an import file of up to 700 MB). The client uses it
// only for requests that ask for upload progress, where XMLHttpRequest exists.

export type TUploadProgress = (sent: number, total: number) => void;

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

const headersOf = (raw: string): Headers => {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const at = line.indexOf(':');
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return headers;
};

export const canReportUploadProgress = (): boolean => typeof XMLHttpRequest !== 'undefined';

/** A fetch whose upload calls `onProgress(sent, total)`; aborts through `init.signal`. */
export const xhrFetch =
  (onProgress: TUploadProgress) =>
  (input: string | URL | Request, init: RequestInit = {}): Promise<Response> =>
    new Promise((resolve, reject) => {
      const abortError = () => new DOMException('The upload was canceled.', 'AbortError');
      if (init.signal?.aborted) {
        reject(abortError());
        return;
      }
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? 'GET', input instanceof Request ? input.url : input.toString());
      new Headers(init.headers).forEach((value, name) => {
        // The browser sets the length itself (and refuses to be told).
        if (name !== 'content-length') xhr.setRequestHeader(name, value);
      });
      xhr.responseType = 'blob';
      xhr.upload.onprogress = (event) =>
        onProgress(event.loaded, event.lengthComputable ? event.total : 0);
      xhr.onload = () =>
        resolve(
          new Response(NULL_BODY_STATUSES.has(xhr.status) ? null : (xhr.response as Blob), {
            status: xhr.status,
            statusText: xhr.statusText,
            headers: headersOf(xhr.getAllResponseHeaders()),
          }),
        );
      xhr.onerror = () => reject(new TypeError('Network request failed'));
      xhr.ontimeout = () => reject(new TypeError('Network request timed out'));
      xhr.onabort = () => reject(abortError());
      init.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
    });
