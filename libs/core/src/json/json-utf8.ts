/**
 * JSON held as UTF-8 bytes: for a large document put together from texts that are also sent
 * elsewhere (createjobs' 1,000 job views are both the answer's `jobs` and their events' payloads).
 * Encoding each part once and copying bytes is cheaper than joining the texts into a new string
 * for each use and encoding each of those again: Node then scans the joined text for its UTF-8
 * length and writes it out, per use (docs/jobs-writes.md, "One encoding of the views").
 */

const COMMA = Buffer.from(',');

/**
 * The UTF-8 bytes of `open + parts.join(',') + close`, where each part is the UTF-8 bytes of a JSON
 * value: e.g. `jsonListUtf8('[', parts, ']')` is a JSON array of the parts, byte for byte what
 * `Buffer.from('[' + texts.join(',') + ']')` gives for the texts the parts encode. The parts are
 * copied, not kept.
 * @param open ASCII or any text written before the first part (e.g. `{"status":0,"jobs":[`)
 * @param parts each a UTF-8 encoded JSON value
 * @param close text written after the last part (e.g. `]}`)
 */
export function jsonListUtf8(open: string, parts: readonly Buffer[], close: string): Buffer {
  const list: Buffer[] = [Buffer.from(open)];
  parts.forEach((part, i) => {
    if (i > 0) list.push(COMMA);
    list.push(part);
  });
  list.push(Buffer.from(close));
  return Buffer.concat(list);
}

/**
 * The UTF-8 bytes of `open + texts.join(',') + close`, written text by text into one buffer of the
 * exact length: no joined string is built, flattened and encoded again (a joined text of more than
 * ~128 kB is allocated by V8 in its large-object space; a buffer's bytes live outside the JavaScript
 * heap). For an answer put together from many kept texts: locate's records, ~500 kB for 2,000
 * members, 1.85 → 0.7 ms a call (docs/locate.md, "No joined text").
 * @param open text written before the first one (e.g. `{"status":0,"accounts":[`)
 * @param texts JSON values as text
 * @param close text written after the last one (e.g. `]}`)
 */
export function jsonTextsUtf8(open: string, texts: readonly string[], close: string): Buffer {
  let length = Buffer.byteLength(open) + Buffer.byteLength(close) + Math.max(texts.length - 1, 0);
  for (const text of texts) length += Buffer.byteLength(text);
  const out = Buffer.allocUnsafe(length);
  let at = out.write(open, 0);
  for (let i = 0; i < texts.length; i++) {
    if (i > 0) out[at++] = 0x2c; // ,
    at += out.write(texts[i], at);
  }
  out.write(close, at);
  return out;
}

/**
 * The UTF-8 bytes of `[${json}]` (a one-element JSON array of `json`'s value) and, without copying,
 * the bytes of `json` itself inside them: `inner` is `wrapped` without its first and last byte
 * (`[` and `]` are one byte each in UTF-8).
 */
export function wrappedJsonUtf8(json: string): { wrapped: Buffer; inner: Buffer } {
  // written around the text, not `Buffer.from(`[${json}]`)`: that joined string is flattened into a
  // copy of the text before it is encoded (2 MB a createjobs of 1,000 jobs)
  const length = Buffer.byteLength(json);
  const wrapped = Buffer.allocUnsafe(length + 2);
  wrapped[0] = 0x5b; // [
  wrapped.write(json, 1);
  wrapped[length + 1] = 0x5d; // ]
  return { wrapped, inner: wrapped.subarray(1, length + 1) };
}
