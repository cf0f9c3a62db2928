// The fuel table's trivial Paint program (Paint's original protocol): it parses every state and
// always shoots to the right, a valid action.

const readline = require('readline');

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if ('player_id' in message) console.log(JSON.stringify({ ready: true }));
  else console.log(JSON.stringify({ turns_left: message.turns_left, type: 'shoot', direction: [0, 1] }));
});
