// The fuel table's trivial SuiteBot II program (the original protocol): it parses every round's
// state and holds.

const readline = require('readline');

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  JSON.parse(line);
  console.log('H');
});
