// Typed errors of the ledger and verification clients. Every message says what failed, where and what to do.

/** A query or path parameter failed client-side validation; no request was sent. */
export class InvalidParameterError extends Error {
  override readonly name = 'InvalidParameterError';
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(`Invalid parameter: ${parameter}: ${message}`);
  }
}

/** A non-retryable (or retries exhausted) HTTP error from the query service, with its `_status.messages`. */
export class LedgerHttpError extends Error {
  override readonly name = 'LedgerHttpError';
  constructor(
    readonly status: number,
    readonly messages: readonly string[],
    readonly url: string,
  ) {
    const detail = messages.length > 0 ? messages.join('; ') : 'no message';
    super(`query service answered ${status} for ${url}: ${detail}`);
  }
}

/** Retries exhausted on network failures (reset, refused, timeout). */
export class LedgerNetworkError extends Error {
  override readonly name = 'LedgerNetworkError';
  constructor(
    readonly reason: 'timeout' | 'deadline' | 'reset',
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(`request to ${url} failed (${reason}) after all retries; check the service and network`, options);
  }
}

/**
 * One attempt outlived its total deadline (ledger.timeouts.total): connect, headers and the whole body. undici's
 * body timeout restarts on every chunk, so a server trickling a byte at a time is only caught by this one.
 */
export class RequestDeadlineError extends Error {
  override readonly name = 'RequestDeadlineError';
  readonly code = 'LEDGER_REQUEST_DEADLINE';
  constructor(
    readonly url: string,
    readonly deadlineMs: number,
  ) {
    super(
      `request to ${url} did not complete within its total deadline of ${deadlineMs} ms (connect, headers and whole body); the service is too slow or trickling its answer, raise ledger.timeouts.total if it is just slow`,
    );
  }
}

/** A next link pointing to another origin; we never follow it (it could leak requests elsewhere). */
export class ForeignLinkError extends Error {
  override readonly name = 'ForeignLinkError';
  constructor(
    readonly link: string,
    readonly origin: string,
  ) {
    super(`next link "${link}" leaves the configured origin ${origin}; refusing to follow it`);
  }
}

/** A next link equal to the request that produced it (docs/ledger-api.md §11.4); following it would loop forever. */
export class SelfLinkError extends Error {
  override readonly name = 'SelfLinkError';
  constructor(readonly link: string) {
    super(
      `next link "${link}" equals the current request; use a range filter (gt/lt) instead of eq to paginate`,
    );
  }
}

/** A next link back to a page already read in the same walk (A → B → A): following it would loop forever. */
export class LinkLoopError extends Error {
  override readonly name = 'LinkLoopError';
  constructor(
    readonly link: string,
    readonly current: string,
  ) {
    super(
      `next link "${link}" of ${current} returns to a page already read in this walk; the query service is paginating in a loop, so the walk stops here (the pages read so far are kept)`,
    );
  }
}

export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
  constructor(
    readonly url: string,
    readonly limitBytes: number,
  ) {
    super(
      `response from ${url} exceeds ${limitBytes} bytes; lower the limit parameter or raise max_response_bytes`,
    );
  }
}

/** The body was not JSON or not the expected envelope (`{transactions|rewards|actions, links}`). */
export class MalformedResponseError extends Error {
  override readonly name = 'MalformedResponseError';
  constructor(
    readonly url: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`malformed response from ${url}: ${detail}`, options);
  }
}

export type VerifyErrorKind =
  | 'bad-request'
  | 'not-verified'
  | 'rate-limited'
  | 'upstream'
  | 'too-large'
  | 'server'
  | 'network'
  | 'malformed';

/** A failed verification call. `message` never contains the API key. */
export class VerifyError extends Error {
  override readonly name = 'VerifyError';
  constructor(
    readonly kind: VerifyErrorKind,
    readonly status: number | null,
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}
