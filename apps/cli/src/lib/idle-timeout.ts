// A limit on silence rather than on length: a 700 MB upload may take longer than --timeout, but
// an upload that stops moving (or a server that never answers once the body is sent) fails after
// --timeout without progress. Aborts with a TimeoutError, which the HTTP client reports as one.

export type IdleTimeout = {
  signal: AbortSignal | undefined;
  /** Progress: the limit starts again. */
  touch: () => void;
  clear: () => void;
};

export const idleTimeout = (ms: number): IdleTimeout => {
  if (ms <= 0) return { signal: undefined, touch: () => undefined, clear: () => undefined };
  const controller = new AbortController();
  const expire = () =>
    controller.abort(new DOMException(`No progress for ${ms} ms`, 'TimeoutError'));
  let timer = setTimeout(expire, ms);
  return {
    signal: controller.signal,
    touch: () => {
      clearTimeout(timer);
      timer = setTimeout(expire, ms);
    },
    clear: () => clearTimeout(timer),
  };
};
