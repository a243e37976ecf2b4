import fc from 'fast-check';
import { jsonListUtf8, jsonTextsUtf8, wrappedJsonUtf8 } from './json-utf8';

describe('jsonListUtf8', () => {
  it('is the bytes of open + the texts joined by commas + close', () => {
    const texts = ['{"a":1}', '"Kovač — 🚚"', '[1,2]'];
    const bytes = jsonListUtf8(
      '{"status":0,"jobs":[',
      texts.map((t) => Buffer.from(t)),
      ']}',
    );
    expect(bytes.equals(Buffer.from(`{"status":0,"jobs":[${texts.join(',')}]}`))).toBe(true);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({ status: 0, jobs: [{ a: 1 }, 'Kovač — 🚚', [1, 2]] });
  });

  it('with no parts is open + close', () => {
    expect(jsonListUtf8('[', [], ']').toString('utf8')).toBe('[]');
  });

  it('equals Buffer.from of the joined text for any JSON values (property, fixed seed)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 20 }), (values) => {
        const texts = values.map((v) => JSON.stringify(v));
        const bytes = jsonListUtf8(
          '[',
          texts.map((t) => Buffer.from(t)),
          ']',
        );
        return bytes.equals(Buffer.from(`[${texts.join(',')}]`));
      }),
      { seed: 29, numRuns: 500 },
    );
  });
});

describe('jsonTextsUtf8', () => {
  it('is the bytes of open + the texts joined by commas + close, with nothing left unwritten', () => {
    const texts = ['{"a":1}', '"Kovač — 🚚"', '[1,2]'];
    const bytes = jsonTextsUtf8('{"status":0,"accounts":[', texts, ']}');
    expect(bytes.equals(Buffer.from(`{"status":0,"accounts":[${texts.join(',')}]}`))).toBe(true);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({ status: 0, accounts: [{ a: 1 }, 'Kovač — 🚚', [1, 2]] });
  });

  it('with no texts is open + close; with one, no comma', () => {
    expect(jsonTextsUtf8('[', [], ']').toString('utf8')).toBe('[]');
    expect(jsonTextsUtf8('{"x":[', ['"é"'], ']}').toString('utf8')).toBe('{"x":["é"]}');
  });

  it('equals Buffer.from of the joined text for any JSON values, opening and closing texts (property, fixed seed)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 20 }), fc.string(), fc.string(), (values, open, close) => {
        const texts = values.map((v) => JSON.stringify(v));
        return jsonTextsUtf8(open, texts, close).equals(Buffer.from(`${open}${texts.join(',')}${close}`));
      }),
      { seed: 29, numRuns: 500 },
    );
  });
});

describe('wrappedJsonUtf8', () => {
  it('answers [json] and json as bytes, the inner one a view of the wrapped one', () => {
    const json = JSON.stringify({ name: 'Potočnik', note: '✓ 🚚' });
    const { wrapped, inner } = wrappedJsonUtf8(json);
    expect(wrapped.toString('utf8')).toBe(`[${json}]`);
    expect(inner.toString('utf8')).toBe(json);
    expect(inner.buffer).toBe(wrapped.buffer);
    expect(inner.byteOffset).toBe(wrapped.byteOffset + 1);
  });

  it('equals Buffer.from of `[json]` for any JSON value, any text included (property, fixed seed)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'grapheme' }), (value) => {
        const json = JSON.stringify(value);
        const { wrapped, inner } = wrappedJsonUtf8(json);
        return wrapped.equals(Buffer.from(`[${json}]`)) && inner.equals(Buffer.from(json));
      }),
      { seed: 29, numRuns: 1000 },
    );
  });
});
