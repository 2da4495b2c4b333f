/**
 * Where a JSON text first goes wrong, as an offset: Node's JSON.parse does not always say (its
 * "Unexpected token" messages carry no position). A small validating scanner of the JSON grammar;
 * null when the text is valid JSON.
 */
export function jsonErrorOffset(text: string): number | null {
  let at = 0;
  const fail = (): never => {
    throw new JsonStop(at);
  };
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at] ?? '')) at += 1;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, at)) at += word.length;
    else fail();
  };
  const string = () => {
    if (text[at] !== '"') fail();
    at += 1;
    while (at < text.length) {
      const char = text[at] ?? '';
      if (char === '"') {
        at += 1;
        return;
      }
      if (char < ' ') fail();
      if (char === '\\') {
        at += 1;
        const escape = text[at] ?? '';
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail();
          at += 4;
        } else if (!'"\\/bfnrt'.includes(escape) || escape === '') fail();
      }
      at += 1;
    }
    fail();
  };
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(at));
    if (match === null) fail();
    else at += match[0].length;
  };
  const value = (): void => {
    space();
    const char = text[at];
    if (char === '{') return object();
    if (char === '[') return array();
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    return number();
  };
  const object = () => {
    at += 1;
    space();
    if (text[at] === '}') {
      at += 1;
      return;
    }
    for (;;) {
      space();
      string();
      space();
      if (text[at] !== ':') fail();
      at += 1;
      value();
      space();
      if (text[at] === '}') {
        at += 1;
        return;
      }
      if (text[at] !== ',') fail();
      at += 1;
    }
  };
  const array = () => {
    at += 1;
    space();
    if (text[at] === ']') {
      at += 1;
      return;
    }
    for (;;) {
      value();
      space();
      if (text[at] === ']') {
        at += 1;
        return;
      }
      if (text[at] !== ',') fail();
      at += 1;
    }
  };
  try {
    value();
    space();
    return at < text.length ? at : null;
  } catch (error) {
    if (error instanceof JsonStop) return error.offset;
    throw error;
  }
}

class JsonStop extends Error {
  constructor(readonly offset: number) {
    super('invalid JSON');
  }
}
