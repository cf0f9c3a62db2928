//! Stdio behaves as pipes for a line-protocol bot's positional and seek calls: the fixture
//! `fx-stdio-pipes` logs, at start-up, what each call answers on fds 0, 1 and 2, then plays
//! Paint. As a `wasm32-wasip1` command (wrapped by the host with wasmtime's preview1 adapter,
//! stdio made to answer as pipes by `arena_load::stdio_pipes`) it calls preview1 directly and
//! reads stdin as Zig's standard reader does; as a `wasm32-wasip2` command its C library answers
//! inside the guest, which the host does not see.
//!
//! Needs the bots built: `cargo xtask bots`.

use arena_host::Budget;
use arena_host::log::LogSource;
use arena_host::record::MatchRecord;
use arena_paint::Paint;
use arena_tests::{play_registered, turns_of};

/// Seat 0's start-up log (stderr), line by line.
fn startup_log(record: &MatchRecord<Paint>) -> Vec<String> {
    let entries = record.setup[0].log.entries.iter().filter(|entry| entry.source == LogSource::Stderr);
    entries.flat_map(|entry| entry.text.lines().map(str::to_owned).collect::<Vec<_>>()).collect()
}

/// Plays the fixture build `name` in seat 0 against the greedy bot; asserts it played every turn
/// cleanly (an answer applied each turn, no fault) and returns the match.
fn play_cleanly(name: &str) -> MatchRecord<Paint> {
    let (_, record) = play_registered::<Paint>("paint", &[name, "paint-greedy"], 3, Budget::default());
    assert_eq!(record.setup[0].faults, [], "{name}: start-up went fine; log: {:#?}", startup_log(&record));
    assert_eq!(record.result.turns, 100, "{name}: {:?}", record.result.players);
    for seat_turn in turns_of(&record, 0) {
        assert_eq!(seat_turn.faults, [], "{name}: {seat_turn:?}");
        assert!(seat_turn.answer.is_some() && seat_turn.applied == seat_turn.answer, "{name}: {seat_turn:?}");
    }
    let player = &record.result.players[0];
    assert_eq!((player.traps, player.invalid_actions, player.skipped_turns, player.forfeit), (0, 0, 0, false));
    record
}

/// A wasip1 command sees stdin, stdout and stderr answer every positional or seek call
/// with `ESPIPE`, as pipes do (the adapter answered `fd_pread` and `fd_allocate` with `EINVAL`);
/// `fd_fdstat_get` reports them as wasmtime-wasi does a stream that is not a terminal (filetype
/// `unknown`, rights `fd_read` = 0x2 for stdin, `fd_write` = 0x40 for stdout and stderr). Its
/// C library passes the same answers on. Reading stdin Zig's way (a positional read first,
/// streaming on `ESPIPE`) it plays the whole match; before the fix it gave up at start-up,
/// trapped three times and forfeited.
#[test]
fn a_wasip1_command_sees_stdio_as_pipes_and_a_zig_style_reader_plays() {
    let record = play_cleanly("fx-stdio-pipes-wasip1");
    let pipe = "pread=ESPIPE pwrite=ESPIPE seek=ESPIPE tell=ESPIPE advise=ESPIPE allocate=ESPIPE fdstat=ok";
    let libc = "pread=ESPIPE pwrite=ESPIPE lseek=ESPIPE fadvise=ESPIPE fallocate=ESPIPE fstat=ok type=0 isatty=0";
    assert_eq!(
        startup_log(&record),
        [
            format!("preview1 fd0 {pipe} filetype=unknown rights=0x2/0x2"),
            format!("libc fd0 {libc}"),
            format!("preview1 fd1 {pipe} filetype=unknown rights=0x40/0x40"),
            format!("libc fd1 {libc}"),
            format!("preview1 fd2 {pipe} filetype=unknown rights=0x40/0x40"),
            format!("libc fd2 {libc}"),
            "stdin: pread answered ESPIPE, streaming".to_owned(),
        ]
    );
}

/// A wasip2 command has no positional call on stdio at the WASI level (stdio are streams): what
/// it sees is its C library's answer, computed inside the guest. wasi-libc's `lseek` and
/// `pread`/`pwrite` answer `EINVAL` on a stream, `posix_fadvise` `EBADF`, `posix_fallocate`
/// `ENOTSUP` (Rust's std seeks through the same `lseek`). Pinned here so that a toolchain that
/// changes them is noticed; the program plays normally.
#[test]
fn a_wasip2_command_sees_what_its_c_library_answers_and_plays() {
    let record = play_cleanly("fx-stdio-pipes");
    let libc = "pread=EINVAL pwrite=EINVAL lseek=EINVAL fadvise=EBADF fallocate=ENOTSUP fstat=ok type=0 isatty=0";
    assert_eq!(startup_log(&record), (0..3).map(|fd| format!("libc fd{fd} {libc}")).collect::<Vec<_>>());
}
