// A SuiteBot II bot written as an ordinary Node.js program: it reads one JSON object per round
// on stdin and prints its move (U, D, L, R, H or B) on stdout, SuiteBot II's original protocol.
// It walks towards the richest fields, plants a bomb where the blast would clear several points,
// and keeps out of the way of bombs about to explode. Run it as `node bot.js`;
// `cargo xtask build-bot bots-examples/suitebot-stdio-js` makes the same program an arena bot.

'use strict';

const readline = require('readline');
const { chooseMove } = require('./strategy');

const input = readline.createInterface({ input: process.stdin });

async function main() {
  for await (const line of input) {
    if (line.trim() === '') continue;
    console.log(chooseMove(JSON.parse(line)));
  }
}

main();
