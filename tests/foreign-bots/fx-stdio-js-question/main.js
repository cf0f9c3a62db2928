#!/usr/bin/env node
// A test fixture: a SuiteBot II program that reads its input from an async loop, a line at a
// time, in turn with `readline`'s `rl.question` (a callback), `readline/promises`'
// `rl.question` (a promise) and `events.once(rl, 'line')`. It echoes every line to stderr, as
// the other fixtures do, and answers a move that depends on the line and the round, so a test
// can compare its answers with the same program run natively, fed one line at a time.

const events = require('events');
const readline = require('readline');
const readlinePromises = require('readline/promises');

const withCallback = readline.createInterface({ input: process.stdin, output: process.stdout });
const withPromise = readlinePromises.createInterface({ input: process.stdin, output: process.stdout });
const MOVES = ['U', 'D', 'L', 'R', 'H'];

async function ask(round) {
  if (round % 3 === 0) return new Promise((resolve) => withCallback.question('', resolve));
  if (round % 3 === 1) return withPromise.question('');
  const [line] = await events.once(withCallback, 'line');
  return line;
}

async function main() {
  for (let round = 0; ; round++) {
    const line = await ask(round);
    console.error('in: ' + line);
    const state = JSON.parse(line);
    console.log(MOVES[(line.length + round + state.currentRound) % MOVES.length]);
  }
}

main();
