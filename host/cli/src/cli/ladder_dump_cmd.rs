//! `arena ladder dump` (a ladder's public dump into a folder: `ladder.json` as served, its bots'
//! files by sha256 and data folders by digest, the results as a tournament database, and with `--replays` every match's
//! replay) and `arena ladder verify` (the dump's matches re-played here and its ratings
//! recomputed). What a dump is and how it is checked is arena-serve's [`arena_serve::dump`];
//! this is the command line around it.

use super::cache_cmd::UseCacheArgs;
use super::serve_cmd::{agent, base, json_of, unreachable};
use anyhow::{Context, bail};
use arena_host::bot_archive::{ArchiveLimits, read_archive};
use arena_host::bot_data::DATA_EXTENSION;
use arena_host::data::{DataLimits, DataTree};
use arena_serve::dump::{Dump, DumpError, MAX_DUMP_BYTES, VerifyOptions, random_seed, verify, write_results};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub const DUMP_EXAMPLES: &str = "\
Examples:
  arena ladder dump --server https://ladder.example.org --game azul -o azul-dump
  arena ladder dump --server URL --game paint -o paint-dump --replays

Writes DIR/ladder.json (the dump as the server sent it), DIR/bots/SHA256.wasm (every version of a
public bot, each checked against its sha256) and DIR/results.sqlite (the results in the
tournament database format: `arena tournament show DIR/results.sqlite`); with --replays also
DIR/replays/ID.json per match. Exit status: 0 written, 2 bad usage, a server that cannot be
reached or a dump that does not read.";

pub const VERIFY_EXAMPLES: &str = "\
Examples:
  arena ladder verify azul-dump                      # every match re-played
  arena ladder verify azul-dump --sample 200         # 200 matches chosen at random (seed printed)
  arena ladder verify azul-dump --sample 200 --seed 42 --json

Prints `identical` when every match re-played here agrees with the dump (winner, turns, each
seat's figures, the record's digest) and the leaderboard recomputed from the dump alone is the
dumped one; else the first match or rating that differs. Exit status: 0 identical, 1 a
difference, 2 bad usage or a dump that cannot be read.";

/// `arena ladder dump`.
#[derive(Debug, Args)]
pub struct DumpArgs {
    /// The server, e.g. http://127.0.0.1:8080 or https://ladder.example.org.
    #[arg(long, value_name = "URL")]
    server: String,
    /// The game whose ladder to dump.
    #[arg(long)]
    game: String,
    /// The dump's folder (created; the files the dump writes there are replaced).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    output: PathBuf,
    /// Also download every match's replay, as DIR/replays/ID.json (a replay the server does not
    /// keep, as of a match a NATS worker played, is made there by re-playing its match).
    #[arg(long)]
    replays: bool,
}

/// `arena ladder verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The dump's folder (`arena ladder dump -o DIR`).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Re-play N matches chosen at random instead of every one.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    sample: Option<u64>,
    /// The seed choosing the sample [default: a random one, printed on stderr].
    #[arg(long, value_name = "SEED", requires = "sample")]
    seed: Option<u64>,
    /// Matches re-played at once [default: every core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    jobs: Option<u64>,
    /// Print one JSON object: `matches_checked`, `mismatches`, `ratings_equal` and more.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    cache: UseCacheArgs,
}

/// `GET url` on `server`: its body, at most `limit` bytes; any status but 200 is an error with
/// the server's reason.
fn fetch(agent: &ureq::Agent, server: &str, url: &str, limit: u64) -> anyhow::Result<Vec<u8>> {
    let response = agent.get(url).call().map_err(|err| unreachable(server, err))?;
    if response.status() != 200 {
        let (status, json) = json_of(Ok(response), server)?;
        bail!("{url}: {} (HTTP {status})", json["reason"].as_str().unwrap_or("failed"));
    }
    response.into_body().with_config().limit(limit).read_to_vec().with_context(|| format!("reading {url}"))
}

/// Writes `bytes` to `path` through a temporary name: a file of the dump is whole or absent.
fn write_whole(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let partial = path.with_extension("partial");
    std::fs::write(&partial, bytes).with_context(|| format!("cannot write {}", partial.display()))?;
    std::fs::rename(&partial, path).with_context(|| format!("cannot write {}", path.display()))
}

/// The sha256 (hex) of `bytes`.
fn sha256_hex(bytes: &[u8]) -> String {
    arena_host::loader::sha256(bytes).iter().map(|byte| format!("{byte:02x}")).collect()
}

pub fn run_dump(args: DumpArgs) -> anyhow::Result<ExitCode> {
    let (server, dir) = (&args.server, &args.output);
    let agent = agent();
    let url = format!("{}/api/games/{}/dump", base(server), args.game);
    let body = fetch(&agent, server, &url, MAX_DUMP_BYTES)?;
    let dump = std::str::from_utf8(&body)
        .map_err(|err| anyhow::anyhow!("not UTF-8 text: {err}"))
        .and_then(|text| Ok(Dump::parse(text)?))
        .with_context(|| format!("the answer of {url}"))?;
    if dump.game != args.game {
        bail!("{url} answered with a dump of {}, not {}", dump.game, args.game);
    }
    let bots = dir.join("bots");
    std::fs::create_dir_all(&bots).with_context(|| format!("cannot create {}", bots.display()))?;
    // The bytes as served, so that anyone can compare their copy with another's.
    write_whole(&dir.join("ladder.json"), &body)?;
    let mut fetched = 0;
    let public_versions =
        || dump.versions.iter().filter(|version| dump.bots.iter().any(|bot| bot.id == version.bot_id && bot.public));
    for version in public_versions() {
        let path = bots.join(format!("{}.wasm", version.sha256));
        if arena_host::loader::bot_file_sha256_hex(&path).is_ok_and(|sha256| sha256 == version.sha256) {
            continue;
        }
        let url = format!("{}/blobs/bots/{}.wasm", base(server), version.sha256);
        let bytes = fetch(&agent, server, &url, arena_host::loader::MAX_BOT_FILE)?;
        let actual = sha256_hex(&bytes);
        if actual != version.sha256 {
            bail!("{url} is not the file of version {} (its sha256 is {actual})", version.id);
        }
        write_whole(&path, &bytes)?;
        fetched += 1;
    }
    // Each data folder once, by digest, beside the files (`bots/DIGEST.data/`): unpacked from the
    // archive the server packs, within the default limits, and checked against its digest.
    let limits = ArchiveLimits { max_wasm: 0, data: DataLimits::DEFAULT };
    let mut digests: Vec<&str> = public_versions().filter_map(|version| version.data.as_deref()).collect();
    digests.sort_unstable();
    digests.dedup();
    for digest in digests {
        let folder = bots.join(format!("{digest}.{DATA_EXTENSION}"));
        if DataTree::read_dir(&folder, limits.data).is_ok_and(|tree| tree.digest_hex() == digest) {
            continue;
        }
        let url = format!("{}/blobs/data/{digest}.tar", base(server));
        let bytes = fetch(&agent, server, &url, limits.unpacked_bytes())?;
        let tree = read_archive(bytes.as_slice(), limits)
            .with_context(|| format!("the answer of {url}"))?
            .data
            .with_context(|| format!("{url} has no data folder"))?;
        if tree.digest_hex() != digest {
            bail!("{url} is not the data folder {digest} (its digest is {})", tree.digest_hex());
        }
        if folder.exists() {
            std::fs::remove_dir_all(&folder).with_context(|| format!("cannot replace {}", folder.display()))?;
        }
        tree.write_into(&folder).with_context(|| format!("cannot write {}", folder.display()))?;
        fetched += 1;
    }
    let results = dir.join("results.sqlite");
    for suffix in ["", "-wal", "-shm"] {
        let file = PathBuf::from(format!("{}{suffix}", results.display()));
        if file.exists() {
            std::fs::remove_file(&file).with_context(|| format!("cannot replace {}", file.display()))?;
        }
    }
    let merged = write_results(&dump, &results)?;
    if merged.duplicates > 0 || !merged.mismatches.is_empty() {
        eprintln!(
            "{} ladder matches are of a spec another one has (one match in {}), {} of them with another result",
            merged.duplicates + merged.mismatches.len(),
            results.display(),
            merged.mismatches.len()
        );
    }
    if args.replays {
        let replays = dir.join("replays");
        std::fs::create_dir_all(&replays).with_context(|| format!("cannot create {}", replays.display()))?;
        for one in &dump.matches {
            let url = format!("{}/matches/{}/replay.json", base(server), one.id);
            write_whole(
                &replays.join(format!("{}.json", one.id)),
                &fetch(&agent, server, &url, arena_host::replay::MAX_REPLAY_FILE)?,
            )?;
        }
    }
    outln!(
        "{}: {} ranked matches of {}, {} versions ({} files fetched), a leaderboard of {} lines{}",
        dir.display(),
        dump.matches.len(),
        dump.game,
        dump.versions.len(),
        fetched,
        dump.leaderboard.leaderboard.len(),
        if args.replays { ", every replay" } else { "" }
    );
    Ok(ExitCode::SUCCESS)
}

pub fn run_verify(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let path = args.dir.join("ladder.json");
    // One line: a file that cannot be read names itself (and its cause, once).
    let dump = Dump::read(&path).map_err(|err| match err {
        DumpError::Read(_) => anyhow::anyhow!("{err}"),
        other => anyhow::anyhow!("{}: {other}", path.display()),
    })?;
    if let Some(note) = dump.other_release() {
        eprintln!("warning: {note}");
    }
    let seed = args.seed.unwrap_or_else(random_seed);
    let total = dump.matches.len();
    if let Some(count) = args.sample {
        eprintln!(
            "re-playing {} of {total} matches, chosen with seed {seed} (`--seed {seed}` chooses them again)",
            count.min(total as u64)
        );
    }
    let jobs =
        args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, usize::from), |jobs| jobs as usize);
    let options = VerifyOptions { sample: args.sample.map(|count| count as usize), seed, jobs };
    let arena = args.cache.arena()?;
    // A line every tenth of the way: a long verification shows it is moving.
    let progress = |done: usize, of: usize| {
        if of >= 20 && (done.is_multiple_of(of.div_ceil(10)) || done == of) {
            eprintln!("{done}/{of} matches re-played");
        }
    };
    let found = verify(&arena, &dump, &args.dir.join("bots"), &options, &progress)?;
    if args.json {
        outln!("{}", serde_json::to_string(&found)?);
    } else if found.identical() {
        outln!("identical");
        eprintln!(
            "{} of {} matches re-played{}, the ratings of {} versions recomputed: all as dumped",
            found.matches_checked,
            found.matches_total,
            match found.matches_skipped {
                0 => String::new(),
                skipped => format!(" ({skipped} not: they seat a bot whose files are not public)"),
            },
            dump.leaderboard.leaderboard.len()
        );
    } else {
        match (found.mismatches.first(), &found.rating_difference) {
            (Some(first), _) => outln!("{first}"),
            (None, Some(rating)) => outln!("{rating}"),
            (None, None) => {}
        }
        if found.mismatches.len() > 1 {
            eprintln!("{} matches differ in all (--json lists them)", found.mismatches.len());
        }
    }
    Ok(if found.identical() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
