// JSON text exactly as Go 1.17's encoding/json writes it through go-openapi's JSONProducer
// (json.Encoder with HTML escaping off): what qdb_rest answers, byte for byte. It differs from
// JSON.stringify in three ways: U+2028 and U+2029 are escaped, control characters other than
// \n \r \t are \u00XX (Go 1.17 writes \b and \f that way too), and the encoder ends with '\n'.

const HEX = '0123456789abcdef';

/** `s` as a Go-encoded JSON string, quotes included. */
export function goJsonString(s: string): string {
  let out = '"';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | null = null;
    if (c === 0x22) esc = '\\"';
    else if (c === 0x5c) esc = '\\\\';
    else if (c < 0x20) esc = c === 0x0a ? '\\n' : c === 0x0d ? '\\r' : c === 0x09 ? '\\t' : `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
    else if (c === 0x2028 || c === 0x2029) esc = `\\u202${HEX[c & 15]}`;
    else if (c >= 0xd800 && c <= 0xdfff) {
      // A lone surrogate is invalid UTF-8 for Go: written as U+FFFD.
      const isPair = c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      if (isPair) {
        i++;
        continue;
      }
      esc = '\\ufffd';
    }
    if (esc !== null) {
      out += s.slice(from, i) + esc;
      from = i + 1;
    }
  }
  return `${out}${s.slice(from)}"`;
}

/**
 * qdb_rest's answer to GET /api/tags: one table without a name, one string column `name`
 * (models.QueryResult → QueryTable{Columns, Name omitempty} → QueryColumn{Data, Name, Type}).
 */
export function tagsAnswer(names: readonly string[]): string {
  return `{"tables":[{"columns":[{"data":[${names.map(goJsonString).join(',')}],"name":"name","type":"string"}]}]}\n`;
}
