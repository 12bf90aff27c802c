// The HTTP bench's response framer (bench/http-response-parser.ts): every split of a byte stream
// of keep-alive responses gives the same statuses and body lengths, and malformed framing throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResponseParser } from '../../bench/http-response-parser.js';

function framed(bytes: Buffer, cuts: readonly number[]): [number, number][] {
  const seen: [number, number][] = [];
  const parser = new ResponseParser({ response: (status, n) => seen.push([status, n]) });
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    parser.push(bytes.subarray(at, cut));
    at = cut;
  }
  assert.equal(parser.isIdle, true, 'a whole stream leaves the parser between responses');
  return seen;
}

const body = (n: number) => 'x'.repeat(n);
const STREAMS: { name: string; text: string; expected: [number, number][] }[] = [
  {
    name: 'Content-Length bodies, any header case, a 204 and a 404',
    text: `HTTP/1.1 200 OK\r\nDate: x\r\nconTENT-length: 5\r\n\r\n${body(5)}` +
      'HTTP/1.1 204 No Content\r\n\r\n' +
      `HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 12\r\n\r\n${body(12)}` +
      'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n',
    expected: [[200, 5], [204, 0], [404, 12], [200, 0]],
  },
  {
    name: 'chunked bodies with extensions, upper-case hex and trailers',
    text: `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\nA;ext=1\r\n${body(10)}\r\n0\r\n\r\n` +
      `HTTP/1.1 200 OK\r\ntransfer-encoding: Chunked\r\n\r\n1f\r\n${body(31)}\r\n0\r\nX-Trailer: 1\r\n\r\n` +
      `HTTP/1.1 500 Internal Server Error\r\nContent-Length: 2\r\n\r\n{}`,
    expected: [[200, 13], [200, 31], [500, 2]],
  },
];

for (const s of STREAMS) {
  test(`framing: ${s.name}, split at every byte and in one piece`, () => {
    const bytes = Buffer.from(s.text, 'latin1');
    assert.deepEqual(framed(bytes, []), s.expected);
    for (let cut = 1; cut < bytes.length; cut++) assert.deepEqual(framed(bytes, [cut]), s.expected, `one cut at ${cut}`);
    assert.deepEqual(framed(bytes, Array.from({ length: bytes.length - 1 }, (_, k) => k + 1)), s.expected, 'one byte per read');
  });
}

const BAD: { name: string; text: string }[] = [
  { name: 'not HTTP', text: 'SSH-2.0-OpenSSH\r\n\r\n' },
  { name: 'no framing (read to close)', text: 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n' },
  { name: 'bad Content-Length', text: 'HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n' },
  { name: 'conflicting Content-Lengths', text: 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n' },
  { name: 'both framings', text: 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n' },
  { name: 'bad chunk size', text: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n' },
  { name: 'chunk without CRLF after its data', text: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab' },
  { name: 'interim 100', text: 'HTTP/1.1 100 Continue\r\n\r\n' },
];

for (const b of BAD) {
  test(`framing refuses: ${b.name}`, () => {
    const parser = new ResponseParser({ response: () => {} });
    assert.throws(() => parser.push(Buffer.from(b.text, 'latin1')));
  });
}
