// Receiving a request body within max_in_buffer_size. A declared Content-Length over the limit is
// refused before a byte is buffered; a chunked body is refused as soon as it passes the limit.
// uWS hands each chunk in an ArrayBuffer it neuters on return, so chunks are copied as they come.
// onData must be attached in the route callback itself (data that arrives before is dropped),
// so reading starts at dispatch and handlers await the promise.
import { HttpError } from '../errors.js';
import type { HttpResponse } from '../uws.js';

export interface BodyReader {
  readonly body: Promise<Buffer>;
  /** True once the last chunk arrived (an early reply must close the connection otherwise). */
  isComplete(): boolean;
}

/** Throws BodyTooLarge at once when the declared length is over `limit`. */
export function startBody(res: HttpResponse, contentLength: string, limit: number, onAbort: (fn: () => void) => void): BodyReader {
  if (contentLength !== '') {
    const declared = Number(contentLength);
    if (!/^\d+$/.test(contentLength.trim()) || !Number.isSafeInteger(declared)) throw new HttpError('BadRequest', 'Content-Length is not a byte count');
    if (declared > limit) throw tooLarge(limit);
  }
  let isComplete = false;
  const body = new Promise<Buffer>((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let isRefused = false;
    // A client gone mid-body never sends the rest: fail the wait instead of hanging on it.
    onAbort(() => reject(new HttpError('BadRequest', 'the client closed the connection before the body was complete')));
    res.onData((chunk, isLast) => {
      if (isRefused) return;
      size += chunk.byteLength;
      if (size > limit) {
        isRefused = true;
        reject(tooLarge(limit));
        return;
      }
      parts.push(Buffer.from(chunk.slice(0)));
      if (isLast) {
        isComplete = true;
        resolve(parts.length === 1 ? parts[0]! : Buffer.concat(parts, size));
      }
    });
  });
  // A handler may fail before it awaits the body; the rejection is then nobody's business.
  body.catch(() => undefined);
  return { body, isComplete: () => isComplete };
}

function tooLarge(limit: number): HttpError {
  return new HttpError('BodyTooLarge', `request body is over ${limit} bytes (max_in_buffer_size, or the smaller limit of this route)`);
}
