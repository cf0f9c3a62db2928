#!/usr/bin/env node
// A test fixture: an ordinary SuiteBot II program (stdin/stdout, the original protocol) with a
// helper module in a folder, a vendored package (node_modules/minirand) and a JSON file. It
// echoes every line it reads to stderr, as a program logs, so a test can feed the same lines to
// the same program run natively. In round `failInRound` the helper throws, so a test can read
// the traceback in the bot's log. Most answers are deferred, the ways Node programs defer work
// (a zero-delay timer, `setImmediate`, a timer with a delay): each must still answer its own
// round.

const readline = require('readline');
const XorShift = require('minirand');
const tactics = require('./lib/tactics');
const settings = require('./settings.json');

const deferrals = [
  (write) => write(),
  (write) => setTimeout(write, 0),
  (write) => setImmediate(write),
  (write) => setTimeout(() => setTimeout(write, 25), 5),
];

let rng = null;
let round = 0;
const input = readline.createInterface({ input: process.stdin });
input.on('line', (line) => {
  console.error('in: ' + line);
  const state = JSON.parse(line);
  if (rng === null) rng = new XorShift(line.length * 31 + state.aiPlayerId);
  const moves = tactics.safeMoves(state, settings);
  const move = moves[rng.below(moves.length)];
  deferrals[round++ % deferrals.length](() => process.stdout.write(move + '\n'));
});
