// An ADIF reader written for the tests from the ADIF 3.1.4 specification, sharing nothing with
// src/logbook/adif.ts. Spec points it enforces:
//   - a file with a header starts with any character but '<'; the header ends at <EOH>
//   - a data-specifier is <F:L> or <F:L:T>; F is case-insensitive; L is the count of characters
//     of data that follow the '>' exactly, and characters between specifiers are ignored
//   - a record ends at <EOR>; field names are unique within a record
// It is strict where the spec is: a length that runs past the end, a missing <EOR>, a repeated
// field or a non-ASCII character in a String field fail loudly.

export interface AdifFile {
  header: Record<string, string>;
  /** Free text before the first header field. */
  preamble: string;
  records: Array<Record<string, string>>;
}

export function readAdif(text: string): AdifFile {
  let i = 0;
  const header: Record<string, string> = {};
  let preamble = '';
  const records: Array<Record<string, string>> = [];
  let current: Record<string, string> | null = null;
  let inHeader = text.length > 0 && text[0] !== '<';
  if (inHeader) {
    const first = text.indexOf('<');
    if (first < 0) throw new Error('ADIF: a header without <EOH>');
    preamble = text.slice(0, first);
    i = first;
  }
  while (i < text.length) {
    const open = text.indexOf('<', i);
    if (open < 0) {
      if (text.slice(i).trim() !== '') throw new Error(`ADIF: stray text at ${i}`);
      break;
    }
    const close = text.indexOf('>', open);
    if (close < 0) throw new Error(`ADIF: unterminated data-specifier at ${open}`);
    const spec = text.slice(open + 1, close);
    const parts = spec.split(':');
    const name = parts[0].trim().toUpperCase();
    if (!/^[A-Z0-9_]+$/.test(name)) throw new Error(`ADIF: bad field name "${parts[0]}" at ${open}`);
    if (parts.length === 1) {
      if (name === 'EOH') {
        if (!inHeader) throw new Error('ADIF: <EOH> outside a header');
        inHeader = false;
      } else if (name === 'EOR') {
        if (inHeader) throw new Error('ADIF: <EOR> inside the header');
        if (!current) throw new Error(`ADIF: empty record at ${open}`);
        records.push(current);
        current = null;
      } else throw new Error(`ADIF: <${name}> without a length`);
      i = close + 1;
      continue;
    }
    if (parts.length > 3 || !/^\d+$/.test(parts[1])) throw new Error(`ADIF: bad data-specifier <${spec}>`);
    const len = Number(parts[1]);
    const start = close + 1;
    if (start + len > text.length) throw new Error(`ADIF: ${name} length ${len} runs past the end`);
    const data = text.slice(start, start + len);
    if (!/^[\x20-\x7e]*$/.test(data)) throw new Error(`ADIF: ${name} holds a non-ASCII or control character`);
    const target = inHeader ? header : (current ??= {});
    if (name in target) throw new Error(`ADIF: ${name} twice in one ${inHeader ? 'header' : 'record'}`);
    target[name] = data;
    i = start + len;
  }
  if (inHeader) throw new Error('ADIF: a header without <EOH>');
  if (current) throw new Error('ADIF: the last record has no <EOR>');
  return { header, preamble, records };
}
