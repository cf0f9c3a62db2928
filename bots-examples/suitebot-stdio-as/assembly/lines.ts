// The lines of stdin, one at a time, without their "\n".
//
// The WASI shim's process.stdin.read(buffer, offset) fills the buffer from offset on with what
// stdin has (0 bytes at the end of input), so a line may take several reads, and one read may
// bring several lines. A state line grows with the board (and, in Paint, with every turn when
// previous_actions holds the whole history): the buffer grows as needed.
export class Lines {
  private buf: Uint8Array = new Uint8Array(1 << 16);
  private start: i32 = 0; // the first byte not returned yet
  private scanned: i32 = 0; // the bytes before this one hold no newline
  private end: i32 = 0; // the end of the bytes read

  // The next line, or null at the end of input.
  next(): string | null {
    while (true) {
      for (let at = this.scanned; at < this.end; at++) {
        if (unchecked(this.buf[at]) == 0x0a) { // unchecked: at < end <= buf.length
          const line = String.UTF8.decodeUnsafe(this.buf.dataStart + <usize>this.start, <usize>(at - this.start));
          this.start = this.scanned = at + 1;
          return line;
        }
      }
      this.scanned = this.end;
      if (this.start > 0) {
        // Move the unfinished line to the front.
        this.buf.copyWithin(0, this.start, this.end);
        this.end -= this.start;
        this.scanned -= this.start;
        this.start = 0;
      }
      if (this.end == this.buf.length) {
        const bigger = new Uint8Array(this.buf.length * 2);
        bigger.set(this.buf);
        this.buf = bigger;
      }
      const read = process.stdin.read(this.buf.buffer, this.end);
      if (read <= 0) return null;
      this.end += read;
    }
  }
}
