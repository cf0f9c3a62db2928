// The fuel table's trivial Azul program (Azul's text protocol): it reads every line and plays the
// first legal move, sources in order (center first), each source's colours in order, pattern
// lines 0 to 4, then the floor.

const readline = require('readline');

console.log('state');
let seat = null;
let factories = [];
let center = '-';
let board = null;

function firstLegalMove() {
  const wall = board[4].split('/');
  const lines = board.slice(5, 10);
  const sources = [center].concat(factories);
  for (let source = 0; source < sources.length; source++) {
    const tiles = sources[source].replace('-', '');
    for (let i = 0; i < tiles.length; i++) {
      const colour = tiles[i];
      for (let row = 0; row < 5; row++) {
        const held = lines[row].replace('-', '');
        if (held.length <= row && held === colour.repeat(held.length) && !wall[row].includes(colour)) {
          return `${source} ${colour} ${row}`;
        }
      }
      return `${source} ${colour} 5`;
    }
  }
  return '0 b 5';
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const words = line.split(' ');
  if (words[0] === 'azul') seat = words[1];
  else if (words[0] === 'factories') factories = words.slice(1);
  else if (words[0] === 'center') center = words[1];
  else if (words[0] === 'board' && words[1] === seat) board = words;
  else if (words[0] === 'go') console.log(firstLegalMove());
});
