// The part of Node.js an ordinary stdin/stdout bot uses, for a program built into a WASI command
// by `cargo xtask build-bot` (`"language": "javascript", "protocol": "stdio"`), and the loop that
// runs it.
//
// Why this exists: componentize-js's engine (StarlingMonkey) has `console` but no `process`, no
// `require` and no way to read stdin. This module reads `wasi:cli/stdin` itself and offers the
// ways bots read their input: `require('readline').createInterface({ input: process.stdin })`
// with `'line'` events, `for await`, `rl.question` (a callback, or `readline/promises`' promise)
// or `events.once(rl, 'line')`; `process.stdin.on('data')`; and a global synchronous
// `readline()` (as on CodinGame and the SpiderMonkey shell). Output is `console.log` or
// `process.stdout.write`. The program's files are CommonJS modules (Node's default for `.js`),
// registered by the generated entry module and required through a resolver that follows Node's
// rules (relative paths, `index.js`, `package.json` `main`, `node_modules` folders).
//
// Ordering matters more than in Node: the arena takes a bot's answer when the bot next reads
// stdin. So the loop hands the program one line, then, if the line set off asynchronous work (a
// `for await` resumed, a listener returned a promise, `process.nextTick`, a `setTimeout` or
// `setImmediate`), lets all of it finish (`settle`: the program's timers, then a zero-delay timer
// of its own, which runs after every microtask), and only then reads the next line. A
// synchronous listener needs no settling, which matters: a timer turn of the engine's event loop
// costs about 100,000 fuel, and Azul sends a dozen lines a turn.

import { getStdin } from 'wasi:cli/stdin@0.2.3';
import { getStdout } from 'wasi:cli/stdout@0.2.3';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** Thrown by `process.exit`: ends the program, like Node's. */
class Exit {
  constructor(code) {
    this.code = code;
  }
}

/** Lines from stdin, read on demand (never at snapshot time: the stream is a run-time handle). */
class StdinLines {
  constructor() {
    this.stream = null;
    this.buffer = '';
    this.ended = false;
  }

  /** The next line without its end, or `null` at the end of input. */
  next() {
    for (;;) {
      const end = this.buffer.indexOf('\n');
      if (end >= 0) {
        const line = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 1);
        return line.endsWith('\r') ? line.slice(0, -1) : line;
      }
      if (this.ended) {
        const rest = this.buffer;
        this.buffer = '';
        return rest.length > 0 ? rest : null;
      }
      this.stream ??= getStdin();
      try {
        this.buffer += decoder.decode(this.stream.blockingRead(65536n), { stream: true });
      } catch {
        // `closed` (or an error): the input has ended.
        this.ended = true;
      }
    }
  }

  /** Everything left, up to the end of input (`fs.readFileSync(0)`). */
  rest() {
    const lines = [];
    for (let line = this.next(); line !== null; line = this.next()) lines.push(line);
    return lines.length > 0 ? lines.join('\n') + '\n' : '';
  }
}

let stdoutStream = null;

/** Writes `text` to stdout and flushes it (at most 4096 bytes per call, as WASI allows). */
function writeStdout(text) {
  stdoutStream ??= getStdout();
  const bytes = encoder.encode(String(text));
  for (let start = 0; start < bytes.length; start += 4096) {
    stdoutStream.blockingWriteAndFlush(bytes.subarray(start, start + 4096));
  }
  return true;
}

/** The program's `process.exit`, once it has called it. */
let exited = null;

/** Whether the program set off asynchronous work since the loop last settled. */
const asyncWork = { started: false };

/**
 * The program's timers: `setTimeout` and `setImmediate` (Node's, which the engine lacks), counted
 * until they fire or are cleared, so that an answer a listener defers to a timer is written
 * before the loop reads the next line (a program's `setInterval` keeps the engine's own: it never
 * ends, so the loop cannot wait for it). The loop's own zero-delay timer uses the engine's
 * `setTimeout`, which is not counted.
 */
const engineSetTimeout = globalThis.setTimeout;
const engineClearTimeout = globalThis.clearTimeout;
const timers = {
  pending: new Set(),
  /** Resolves `settle`'s wait once no counted timer is left. */
  allFired: null,

  set(callback, delay, args) {
    if (typeof callback !== 'function') throw new TypeError('The "callback" argument must be of type function');
    const id = engineSetTimeout(() => {
      try {
        callback(...args);
      } finally {
        timers.done(id);
      }
    }, delay);
    timers.pending.add(id);
    asyncWork.started = true;
    return id;
  },
  clear(id) {
    engineClearTimeout(id);
    timers.done(id);
  },
  done(id) {
    if (timers.pending.delete(id) && timers.pending.size === 0 && timers.allFired !== null) {
      const resolve = timers.allFired;
      timers.allFired = null;
      resolve();
    }
  },
  /** A promise of the moment the last counted timer fires or is cleared. */
  drained() {
    return new Promise((resolve) => (timers.allFired = resolve));
  },
};

/** Notes a listener's result: a promise means the line set off asynchronous work. */
function noteResult(result) {
  if (result !== null && typeof result === 'object' && typeof result.then === 'function') asyncWork.started = true;
}

/**
 * Node's `EventEmitter`, as much of it as programs reading stdin use. Written for an interpreter
 * that meters every instruction (a `for…of`, a closure or a rest parameter costs thousands of
 * fuel): plain arrays of functions, index loops, and `emitOne` for the loop's own events.
 */
class EventEmitter {
  constructor() {
    this._events = Object.create(null);
  }
  on(event, listener) {
    (this._events[event] ??= []).push(listener);
    return this;
  }
  addListener(event, listener) {
    return this.on(event, listener);
  }
  once(event, listener) {
    const emitter = this;
    function onceWrapper(...args) {
      emitter.off(event, onceWrapper);
      // A one-shot listener is how a program reads a line into a promise (`new Promise((resolve)
      // => rl.once('line', resolve))`): what it resolves runs after the listener returns.
      asyncWork.started = true;
      return listener.apply(emitter, args);
    }
    onceWrapper.listener = listener;
    return this.on(event, onceWrapper);
  }
  off(event, listener) {
    const list = this._events[event];
    if (list === undefined) return this;
    const index = list.findIndex((entry) => entry === listener || entry.listener === listener);
    if (index >= 0) list.splice(index, 1);
    return this;
  }
  removeListener(event, listener) {
    return this.off(event, listener);
  }
  removeAllListeners(event) {
    if (event === undefined) this._events = Object.create(null);
    else delete this._events[event];
    return this;
  }
  listenerCount(event) {
    const list = this._events[event];
    return list === undefined ? 0 : list.length;
  }
  emit(event, ...args) {
    const list = this._events[event];
    if (list === undefined || list.length === 0) return false;
    // A copy: a `once` listener removes itself while the loop runs.
    const listeners = list.length === 1 ? list : list.slice();
    for (let i = 0; i < listeners.length; i++) noteResult(listeners[i].apply(this, args));
    return true;
  }
  /** `emit` with one argument, without the rest parameter's array. */
  emitOne(event, arg) {
    const list = this._events[event];
    if (list === undefined || list.length === 0) return false;
    const listeners = list.length === 1 ? list : list.slice();
    for (let i = 0; i < listeners.length; i++) noteResult(listeners[i].call(this, arg));
    return true;
  }
}

/**
 * Where lines go: the readline interfaces and `process.stdin` listeners the program made. The
 * loop in `run` feeds them while any is open.
 */
class Input {
  constructor() {
    this.interfaces = [];
  }

  /** Whether the program still waits for lines. */
  wanted() {
    for (let i = 0; i < this.interfaces.length; i++) if (this.interfaces[i].open) return true;
    return stdin.listenerCount('data') > 0;
  }

  /** Hands `line` to every open interface and to `process.stdin`'s `data` listeners. */
  deliver(line) {
    for (let i = 0; i < this.interfaces.length; i++) if (this.interfaces[i].open) this.interfaces[i]._line(line);
    if (stdin.listenerCount('data') > 0) {
      stdin.emitOne('data', stdin._encoding === null ? encoder.encode(line + '\n') : line + '\n');
    }
  }

  /** The end of input. */
  end() {
    for (let i = 0; i < this.interfaces.length; i++) this.interfaces[i].close();
    stdin.emitOne('end');
    stdin.emitOne('close');
  }
}

/** `process.stdin`: an event emitter that the loop feeds, and an async iterable of chunks. */
class Stdin extends EventEmitter {
  constructor() {
    super();
    this._encoding = null;
    this.fd = 0;
    this.isTTY = false;
  }
  setEncoding(encoding) {
    this._encoding = encoding;
    return this;
  }
  resume() {
    return this;
  }
  pause() {
    return this;
  }
  [Symbol.asyncIterator]() {
    const face = createInterface({ input: this });
    const lines = face[Symbol.asyncIterator]();
    return { next: () => lines.next().then(({ value, done }) => ({ value: done ? value : value + '\n', done })) };
  }
}

/** `readline.Interface`: `'line'` and `'close'` events, `for await`, `question`, `close()`. */
class Interface extends EventEmitter {
  constructor(output) {
    super();
    this.open = true;
    this.queued = [];
    this.waiting = [];
    this._iterating = false;
    /** Where `question` writes its query, as in Node: the `output` the interface was made with. */
    this.output = output ?? null;
    /** The callback of the question waiting for the next line, if one is. */
    this._question = null;
  }
  _line(line) {
    if (this._question !== null) {
      // As in Node: a waiting question takes the line, and no 'line' event is emitted for it.
      // The callback often resolves a promise (the promise API always does): settle after it.
      const answer = this._question;
      this._question = null;
      asyncWork.started = true;
      answer(line);
      return;
    }
    if (this.waiting.length > 0) {
      this.waiting.shift()({ value: line, done: false });
      asyncWork.started = true;
    } else if (this._iterating) this.queued.push(line);
    this.emitOne('line', line);
  }
  close() {
    if (!this.open) return;
    this.open = false;
    const waiting = this.waiting.splice(0);
    for (let i = 0; i < waiting.length; i++) waiting[i]({ value: undefined, done: true });
    this.emitOne('close');
  }
  pause() {
    return this;
  }
  resume() {
    return this;
  }
  setPrompt() {}
  prompt() {}
  /** `rl.question(query[, options], callback)`: the next line goes to `callback`. */
  question(query, options, callback) {
    const answer = typeof options === 'function' ? options : callback;
    if (typeof answer !== 'function') throw new TypeError('The "callback" argument must be of type function');
    this._ask(query, answer);
  }
  _ask(query, answer) {
    if (!this.open) throw new Error('readline was closed');
    // Node ignores a question asked while another waits (it only prompts again).
    if (this._question !== null) return;
    if (this.output !== null && query !== undefined && String(query) !== '') this.output.write(String(query));
    this._question = answer;
  }
  [Symbol.asyncIterator]() {
    this._iterating = true;
    return {
      next: () => {
        if (this.queued.length > 0) return Promise.resolve({ value: this.queued.shift(), done: false });
        if (!this.open) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => this.waiting.push(resolve));
      },
      return: () => {
        this.close();
        return Promise.resolve({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }
}

/** `readline/promises`' `Interface`: `question` returns a promise of the next line. */
class PromisesInterface extends Interface {
  question(query) {
    return new Promise((resolve) => this._ask(query, resolve));
  }
}

const lines = new StdinLines();
const stdin = new Stdin();
const input = new Input();

/** `createInterface({ input, output })` or `createInterface(input, output)`, of `kind`. */
function interfaceOf(kind, options, positionalOutput) {
  const named = options && typeof options === 'object' && 'input' in options;
  const source = named ? options.input : options;
  if (source !== stdin) throw new Error('readline.createInterface: only process.stdin can be read in the arena');
  const face = new kind(named ? options.output : positionalOutput);
  input.interfaces.push(face);
  return face;
}

function createInterface(options, output) {
  return interfaceOf(Interface, options, output);
}

const readlinePromises = {
  createInterface: (options, output) => interfaceOf(PromisesInterface, options, output),
  Interface: PromisesInterface,
};

const processObject = {
  argv: ['node', '/bot/main.js'],
  env: {},
  platform: 'wasi',
  exitCode: undefined,
  stdin,
  stdout: { write: writeStdout, isTTY: false, fd: 1 },
  stderr: { write: (text) => (console.error(String(text).replace(/\n$/, '')), true), isTTY: false, fd: 2 },
  exit(code) {
    // Remembered as well as thrown: thrown inside a promise chain, the exception only rejects
    // that chain, and the loop must still stop.
    exited = new Exit(code ?? processObject.exitCode ?? 0);
    throw exited;
  },
  nextTick(callback, ...args) {
    asyncWork.started = true;
    queueMicrotask(() => callback(...args));
  },
  cwd: () => '/bot',
  on() {
    return processObject;
  },
};

const fileDescriptors = new Map([
  [0, 'stdin'],
  ['/dev/stdin', 'stdin'],
  [1, 'stdout'],
  ['/dev/stdout', 'stdout'],
  [2, 'stderr'],
  ['/dev/stderr', 'stderr'],
]);

function unavailable(what) {
  return () => {
    throw new Error(`${what} is not available in the arena: a bot has no files, only stdin and stdout`);
  };
}

const fs = {
  readFileSync(path, options) {
    if (fileDescriptors.get(path) !== 'stdin') unavailable(`fs.readFileSync(${JSON.stringify(path)})`)();
    const text = lines.rest();
    const encoding = typeof options === 'string' ? options : options?.encoding;
    return encoding ? text : encoder.encode(text);
  },
  writeSync(fd, text) {
    const target = fileDescriptors.get(fd);
    if (target === 'stdout') return writeStdout(text);
    if (target === 'stderr') return processObject.stderr.write(text);
    return unavailable(`fs.writeSync(${fd})`)();
  },
  writeFileSync(path, text) {
    fs.writeSync(path, text);
  },
  existsSync: () => false,
  readdirSync: unavailable('fs.readdirSync'),
  openSync: unavailable('fs.openSync'),
};

/** The built-in modules a program may require (`node:` prefix or not). */
const BUILTINS = {
  readline: { createInterface, Interface, promises: readlinePromises },
  'readline/promises': readlinePromises,
  fs,
  events: Object.assign(EventEmitter, {
    EventEmitter,
    default: EventEmitter,
    // `events.once(emitter, name)`: a promise of the event's arguments.
    once: (emitter, name) => new Promise((resolve) => emitter.once(name, (...args) => resolve(args))),
  }),
  process: processObject,
};

/** Joins `path` onto `dir` and resolves `.` and `..` (paths are relative to the bot folder). */
function joinPath(dir, path) {
  const parts = path.startsWith('/') ? [] : dir.split('/').filter((part) => part !== '');
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

function dirname(path) {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/**
 * The program's module system: `files` maps each path (relative to the bot folder) to a
 * CommonJS module's function, or to a JSON file's value.
 */
class Modules {
  constructor(files) {
    this.files = files;
    this.cache = new Map();
  }

  /** The file a path names, as Node tries it: exact, `.js`, `.cjs`, `.json`, then as a folder. */
  file(path) {
    for (const candidate of [path, `${path}.js`, `${path}.cjs`, `${path}.json`]) {
      if (candidate in this.files) return candidate;
    }
    const manifest = this.files[joinPath(path, 'package.json')];
    if (manifest && typeof manifest === 'object' && typeof manifest.main === 'string') {
      const main = this.file(joinPath(path, manifest.main));
      if (main) return main;
    }
    for (const index of ['index.js', 'index.cjs', 'index.json']) {
      if (joinPath(path, index) in this.files) return joinPath(path, index);
    }
    return null;
  }

  /** Resolves `specifier` required from the module in `dir`. */
  resolve(dir, specifier) {
    if (specifier.startsWith('./') || specifier.startsWith('../') || specifier.startsWith('/') || specifier === '.' || specifier === '..') {
      return this.file(joinPath(dir, specifier));
    }
    for (let at = dir; ; at = dirname(at)) {
      const found = this.file(joinPath(joinPath(at, 'node_modules'), specifier));
      if (found || at === '') return found;
    }
  }

  require(dir, specifier) {
    const name = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
    if (Object.hasOwn(BUILTINS, name)) return BUILTINS[name];
    const path = this.resolve(dir, specifier);
    if (path === null) {
      const error = new Error(`Cannot find module '${specifier}' (required from /bot/${dir})`);
      error.code = 'MODULE_NOT_FOUND';
      throw error;
    }
    return this.load(path);
  }

  load(path) {
    const cached = this.cache.get(path);
    if (cached) return cached.exports;
    const source = this.files[path];
    if (typeof source !== 'function') return source;
    const module = { exports: {}, id: path, filename: `/bot/${path}`, loaded: false };
    this.cache.set(path, module);
    const dir = dirname(path);
    const require = (specifier) => this.require(dir, specifier);
    require.main = this.main;
    require.resolve = (specifier) => `/bot/${this.resolve(dir, specifier) ?? specifier}`;
    this.main ??= module;
    source.call(module.exports, module.exports, require, module, module.filename, `/bot/${dir}`);
    module.loaded = true;
    return module.exports;
  }
}

/**
 * Lets every callback, promise and timer the last line set off run to its end (if it set off
 * any). Timers are waited for as they come due (the arena's clock is virtual: a delay costs no
 * time), then one more turn of the event loop lets what their callbacks started finish too.
 */
async function settle() {
  while (asyncWork.started || timers.pending.size > 0) {
    if (timers.pending.size > 0) {
      await timers.drained();
      asyncWork.started = true;
      continue;
    }
    asyncWork.started = false;
    await new Promise((resolve) => engineSetTimeout(resolve, 0));
  }
}

/**
 * The `wasi:cli/run` export for a program: runs `main` (a path in `files`) as `node main` would,
 * with stdin and stdout the game's line protocol.
 */
export function program(files, main) {
  globalThis.process = processObject;
  globalThis.readline = () => lines.next();
  globalThis.print = (...args) => console.log(...args);
  globalThis.printErr = (...args) => console.error(...args);
  globalThis.global = globalThis;
  globalThis.setTimeout = (callback, delay, ...args) => timers.set(callback, delay, args);
  globalThis.clearTimeout = (id) => timers.clear(id);
  globalThis.setImmediate = (callback, ...args) => timers.set(callback, 0, args);
  globalThis.clearImmediate = (id) => timers.clear(id);
  processObject.argv[1] = `/bot/${main}`;
  return {
    async run() {
      try {
        new Modules(files).load(main);
        // Top-level code may set up its input asynchronously (an async main, a promise chain).
        asyncWork.started = true;
        await settle();
        while (exited === null && input.wanted()) {
          const line = lines.next();
          if (line === null) {
            input.end();
            await settle();
            break;
          }
          input.deliver(line);
          // Not `await settle()` unconditionally: an `await` is a turn of the job queue, which
          // costs fuel on every line.
          if (asyncWork.started) await settle();
        }
        if (exited !== null) throw exited;
      } catch (error) {
        if (error instanceof Exit) {
          if (error.code !== 0) throw new Error(`process.exit(${error.code})`);
          return;
        }
        console.error(error?.stack ? `${error}\n${error.stack}` : String(error));
        throw error;
      }
      if (processObject.exitCode) throw new Error(`process.exitCode = ${processObject.exitCode}`);
    },
  };
}
