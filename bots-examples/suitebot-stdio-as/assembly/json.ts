// A small JSON reader that walks one line in place: the caller asks for the values it expects, in
// the order they come, and skips the others. It builds nothing but the keys and strings it
// returns, which keeps a turn cheap: a JSON library that builds the whole document (every
// object, array and number of the line) spends several times the fuel.
//
// It trusts its input, the host's lines: on anything unexpected it returns what it can (0, "",
// no more keys or items) and reads on, rather than aborting the program.
export class Json {
  private at: i32 = 0;

  constructor(private text: string) {}

  // The next character that is not white space (-1 at the end), left unread.
  private peek(): i32 {
    while (this.at < this.text.length) {
      const c = this.text.charCodeAt(this.at);
      if (c != 0x20 && c != 0x09 && c != 0x0a && c != 0x0d) return c;
      this.at++;
    }
    return -1;
  }

  // Reads the character c if it comes next.
  private eat(c: i32): bool {
    if (this.peek() != c) return false;
    this.at++;
    return true;
  }

  // Enters an object: then nextKey() until it returns null.
  beginObject(): void {
    this.eat(0x7b); // {
  }

  // The next key of the object, its value left to read; null after the last one.
  nextKey(): string | null {
    this.eat(0x2c); // ,
    if (this.peek() != 0x22) {
      this.eat(0x7d); // }
      return null;
    }
    const key = this.str();
    this.eat(0x3a); // :
    return key;
  }

  // Enters an array: then nextItem() until it returns false.
  beginArray(): void {
    this.eat(0x5b); // [
  }

  // Whether another item of the array is left to read.
  nextItem(): bool {
    this.eat(0x2c); // ,
    const c = this.peek();
    if (c == 0x5d || c == 0x7d || c < 0) {
      this.eat(0x5d); // ]
      return false;
    }
    return true;
  }

  // Reads null if it comes next.
  isNull(): bool {
    if (this.peek() != 0x6e) return false; // n
    this.at += 4;
    return true;
  }

  // An integer.
  int(): i32 {
    let sign = 1;
    if (this.eat(0x2d)) sign = -1; // -
    const from = this.at;
    let value = 0;
    while (this.at < this.text.length) {
      const digit = this.text.charCodeAt(this.at) - 0x30;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
      this.at++;
    }
    if (this.at == from) this.skip(); // not a number
    return sign * value;
  }

  // An array of integers, such as a square [i, j].
  ints(): i32[] {
    const values: i32[] = [];
    this.beginArray();
    while (this.nextItem()) values.push(this.int());
    return values;
  }

  // A string. Escapes are kept as written: the protocols send none.
  str(): string {
    const from = this.skipStr();
    return from < 0 ? "" : this.text.substring(from, this.at - 1);
  }

  // Reads a string, and tells whether it is value, without building it.
  strIs(value: string): bool {
    const from = this.skipStr();
    return from >= 0 && this.at - 1 - from == value.length && this.text.startsWith(value, from);
  }

  // Reads past a string and its closing quote; where its text starts, -1 if no string comes next.
  private skipStr(): i32 {
    if (!this.eat(0x22)) {
      this.skip(); // not a string
      return -1;
    }
    const from = this.at;
    while (this.at < this.text.length) {
      const c = this.text.charCodeAt(this.at++);
      if (c == 0x22) break;
      if (c == 0x5c) this.at++; // a backslash: skip what it escapes
    }
    return from;
  }

  // Skips one value, whatever it is.
  skip(): void {
    const c = this.peek();
    if (c == 0x22) {
      this.skipStr();
    } else if (c == 0x7b || c == 0x5b) {
      let depth = 0;
      while (this.at < this.text.length) {
        const d = this.text.charCodeAt(this.at++);
        if (d == 0x22) {
          this.at--;
          this.skipStr();
        } else if (d == 0x7b || d == 0x5b) {
          depth++;
        } else if ((d == 0x7d || d == 0x5d) && --depth == 0) {
          return;
        }
      }
    } else {
      // A number, true, false or null: up to the next delimiter.
      while (this.at < this.text.length) {
        const d = this.text.charCodeAt(this.at);
        if (d == 0x2c || d == 0x7d || d == 0x5d) return;
        this.at++;
      }
    }
  }
}
