#!/usr/bin/env node
// A test fixture: an ordinary SuiteBot II program (stdin/stdout, the original protocol) with a
// helper module in a folder, a vendored package (node_modules/minirand) and a JSON file. It
// echoes every line it reads to stderr, as a program logs, so a test can feed the same lines to
// the same program run natively. In round `failInRound` the helper throws, so a test can read
// the traceback in the bot's log.

const readline = require('readline');
const XorShift = require('minirand');
const tactics = require('./lib/tactics');
const settings = require('./settings.json');

let rng = null;
const input = readline.createInterface({ input: process.stdin });
input.on('line', (line) => {
  console.error('in: ' + line);
  const state = JSON.parse(line);
  if (rng === null) rng = new XorShift(line.length * 31 + state.aiPlayerId);
  const moves = tactics.safeMoves(state, settings);
  process.stdout.write(moves[rng.below(moves.length)] + '\n');
});
