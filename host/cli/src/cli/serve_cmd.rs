//! `arena serve` (the ladder service, arena-serve), `arena serve admin` (accounts and tokens
//! from the server's machine), and the clients of a running server, over HTTP or HTTPS: `arena
//! submit` and `arena ladder` (a leaderboard; `arena ladder bot` and `arena ladder matches`;
//! `arena ladder dump` and `verify` are in [`super::ladder_dump_cmd`]).

use super::cache_cmd::compile_worker;
use anyhow::{Context, bail};
use arena_host::bot_archive::{TAR_MEDIA_TYPE, write_archive};
use arena_host::bot_data::{BotData, BotFiles};
use arena_host::cache::ArtifactCache;
use arena_host::data::DataLimits;
use arena_serve::auth::{check_name, new_token, token_sha256};
use arena_serve::config::{Flags, Settings};
use clap::{Args, Subcommand};
use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

pub const SERVE_EXAMPLES: &str = "\
Examples:
  arena serve --demo                         # the example bots of every game on a live ladder
  arena serve --bind 0.0.0.0:8080 --data /srv/arena
  arena serve --config serve.toml
  arena serve admin add-user alice --admin   # prints an API token for alice
  arena serve admin disable-bot 12           # off the ladder (--enable puts it back)
  arena serve admin requeue 345              # a failed match, played again
  arena serve admin freeze paint             # no new ranked matches (--thaw)
  arena serve admin audit                    # every admin action, oldest first
  arena serve admin competition create --game azul --format double-elimination --deadline now
  arena serve admin competition create --game azul --format gauntlet --pool greedy --deadline 2025-06-01T18:00:00Z
  arena serve admin competition release 1 --to public --rounds 2   # rounds 1 and 2 only
  arena serve admin competition release 1 --to public              # every round

With no options the service listens on 127.0.0.1:8080 and keeps everything in ./arena-data/
(the SQLite database, bots and replays by sha256, the compiled-artifact cache); it plays on
every core. The settings file's keys are in docs/ladder.md#configuration.";

pub const SUBMIT_EXAMPLES: &str = "\
Examples:
  arena submit --server http://127.0.0.1:8080 --game azul my-bot.wasm --wait
  ARENA_TOKEN=arena_... arena submit --server URL --game paint bot.wasm --name painter --json

The token comes from --token, else $ARENA_TOKEN, else the file $XDG_CONFIG_HOME/wasm-arena/token
(or ~/.config/wasm-arena/token). The server's URL may be http:// or https:// (checked against
Mozilla's root certificates). Exit status: 0 accepted (or uploaded, without --wait), 1 refused, 2
bad usage or a server that cannot be reached.";

pub const LADDER_EXAMPLES: &str = "\
Examples:
  arena ladder --server http://127.0.0.1:8080 --game azul
  arena ladder --server URL --game paint --json
  arena ladder bot --server URL 12               # a bot's versions and its rating
  arena ladder matches --server URL --bot 12     # its latest matches
  arena ladder dump --server URL --game azul -o azul-dump   # results, bots, leaderboard
  arena ladder verify azul-dump --sample 100     # re-played here, ratings recomputed

The server's URL may be http:// or https:// (checked against Mozilla's root certificates).
Exit status: 0 shown, 1 no such bot (bot, matches --bot) or a dump that differs (verify), 2 bad
usage or a server that cannot be reached.";

/// `arena serve`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ServeArgs {
    #[command(subcommand)]
    admin: Option<ServeCommand>,
    #[command(flatten)]
    run: RunArgs,
}

/// Where the service keeps its data (shared by `serve` and `serve admin`).
#[derive(Debug, Args, Clone)]
struct DataArgs {
    /// The data folder [default: ./arena-data].
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// The database: sqlite:PATH [default: sqlite:DATA/arena.sqlite].
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// A settings file (TOML; see docs/ladder.md#configuration); flags override it.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct RunArgs {
    #[command(flatten)]
    data: DataArgs,
    /// The address to listen on [default: 127.0.0.1:8080].
    #[arg(long, value_name = "ADDR")]
    bind: Option<SocketAddr>,
    /// Threads playing matches here [default: every core; none with --nats].
    #[arg(long, value_name = "N")]
    workers: Option<usize>,
    /// Send matches to `arena worker`s on this NATS JetStream server (nats://HOST:PORT) and
    /// record their results; the config file's nats table tunes it (docs/ladder.md).
    #[arg(long, value_name = "URL")]
    nats: Option<String>,
    /// Also enter every game's example bots (as the account `demo`), from --examples.
    #[arg(long)]
    demo: bool,
    /// Where the example bots are (`cargo xtask bots` builds them) [default: target/bots].
    #[arg(long, value_name = "DIR")]
    examples: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum ServeCommand {
    /// Administer the service from its machine (the database directly).
    Admin(AdminArgs),
}

#[derive(Debug, Args)]
struct AdminArgs {
    #[command(flatten)]
    data: DataArgs,
    #[command(subcommand)]
    action: AdminCommand,
}

#[derive(Debug, Subcommand)]
enum AdminCommand {
    /// Create an account with no password and print an API token for it.
    AddUser {
        /// The account's name.
        name: String,
        /// Allow it the admin actions.
        #[arg(long)]
        admin: bool,
    },
    /// Take a bot off the ladder (it plays no more ranked matches; its results stay), or put it
    /// back with --enable.
    DisableBot {
        /// The bot's id (its page is /bots/ID).
        bot: i64,
        /// Put it back instead.
        #[arg(long)]
        enable: bool,
    },
    /// Make a bot private (its files served only to its owner, the admins and the trusted
    /// workers; of the NATS workers only trusted ones play its matches, whose results stay
    /// public), or public again.
    SetPrivate {
        /// The bot's id (its page is /bots/ID).
        bot: i64,
        /// on (private) or off (public).
        #[arg(value_parser = ["on", "off"])]
        state: String,
    },
    /// Put a failed match back in the queue.
    Requeue {
        /// The match's id.
        r#match: i64,
    },
    /// Freeze a game's ladder (no new ranked matches; what is queued still plays), or thaw it
    /// with --thaw.
    Freeze {
        /// The game.
        game: String,
        /// Thaw it instead.
        #[arg(long)]
        thaw: bool,
    },
    /// Print the audit log of admin actions, oldest first.
    Audit,
    /// Competitions (seasons): create one, release its results (round by round, if wanted).
    #[command(subcommand)]
    Competition(CompetitionCommand),
    /// Register a NATS worker and print its token (`NAME:SECRET`, for `arena worker --token`):
    /// the ladder records only results signed with a registered worker's key.
    #[cfg(feature = "nats")]
    AddWorker {
        /// The worker's name.
        name: String,
        /// Mark it trusted.
        #[arg(long)]
        trusted: bool,
    },
    /// List the NATS workers (results, audits, mismatches, suspect) and the latest audits of
    /// their results.
    #[cfg(feature = "nats")]
    Workers,
}

#[derive(Debug, Subcommand)]
enum CompetitionCommand {
    /// Create a competition of one game and print its id: at the deadline each enabled bot's
    /// current version is frozen, seeded by ladder rating, and the service's workers play it;
    /// its results stay hidden (admins only) until released.
    Create {
        /// The game.
        #[arg(long)]
        game: String,
        /// round-robin (every pair), swiss (rounds pairing entrants of similar standing that
        /// have not met), gauntlet (every other entrant against each bot of --pool),
        /// single-elimination or double-elimination (brackets of series).
        #[arg(long)]
        format: String,
        /// When entrants are frozen: RFC 3339 (2025-06-01T18:00:00Z) or `now`.
        #[arg(long)]
        deadline: String,
        /// Its name on the pages (default: GAME FORMAT).
        #[arg(long)]
        name: Option<String>,
        /// Seeds per pairing (round robin, swiss, gauntlet) or per series (elimination), each in
        /// both seat orders.
        #[arg(long, default_value_t = 2)]
        seeds: u32,
        /// Swiss only: the rounds to play (default: enough to single out a winner, the
        /// entrants' count's log2 rounded up).
        #[arg(long)]
        rounds: Option<u32>,
        /// Gauntlet only: the pool, bots of the game by name (comma-separated or repeated);
        /// each enters with its current version at the deadline, and every other entrant is a
        /// challenger that plays each of them (round k: against the pool's k-th seed).
        #[arg(long, value_delimiter = ',')]
        pool: Vec<String>,
    },
    /// Release a competition's results: to its participants (the entrants' owners) or public,
    /// every round or (with --rounds) only rounds 1 to R. Admins always see everything.
    Release {
        /// The competition's id.
        id: i64,
        /// participants, public (or hidden again).
        #[arg(long)]
        to: String,
        /// Release only the results of rounds 1 to R (a later release may raise or lower it);
        /// without it, every round. The rounds: a round robin's by the circle method, a
        /// gauntlet's one per pool bot, a Swiss competition's as paired; in a bracket, winners'
        /// round k is round k, losers' round k is round k + 1, the grand final and its reset
        /// come last.
        #[arg(long, value_name = "R")]
        rounds: Option<u32>,
    },
}

impl DataArgs {
    fn settings(&self, run: Option<&RunArgs>) -> anyhow::Result<Settings> {
        let flags = Flags {
            bind: run.and_then(|run| run.bind),
            data: self.data.clone(),
            database: self.database.clone(),
            workers: run.and_then(|run| run.workers),
            demo: run.is_some_and(|run| run.demo),
            config: self.config.clone(),
            nats: run.and_then(|run| run.nats.clone()),
        };
        Ok(Settings::resolve(&flags)?)
    }
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    match args.admin {
        Some(ServeCommand::Admin(AdminArgs { data, action })) => admin(&data, action),
        None => serve(&args.run),
    }
}

fn serve(run: &RunArgs) -> anyhow::Result<ExitCode> {
    let settings = run.data.settings(Some(run))?;
    // The compiled-artifact cache lives in the data folder: the service's own.
    std::fs::create_dir_all(&settings.data).with_context(|| format!("creating {}", settings.data.display()))?;
    let cache = ArtifactCache::new(settings.data.join("cache"));
    let cache = match cache.check() {
        Ok(()) => Some(cache),
        Err(refused) => {
            eprintln!("warning: not using the compiled-artifact cache: {refused}");
            None
        }
    };
    let arena = arena_host::Arena::new()?.with_cache(cache).with_compile_worker(Some(compile_worker()?));
    let remote = match &settings.nats {
        Some(nats) => format!(", matches also sent to NATS workers at {} (ladder {:?})", nats.url, nats.ladder),
        None => String::new(),
    };
    eprintln!(
        "arena serve: data in {}, {} workers here{remote}{}",
        settings.data.display(),
        settings.workers,
        if settings.demo { ", the demo's example bots" } else { "" }
    );
    arena_serve::run(settings, arena, run.examples.clone())?;
    Ok(ExitCode::SUCCESS)
}

/// Who did an admin action, for the audit log: the machine's user.
fn actor() -> String {
    std::env::var("USER").or_else(|_| std::env::var("LOGNAME")).unwrap_or_else(|_| "admin".into())
}

fn admin(data: &DataArgs, action: AdminCommand) -> anyhow::Result<ExitCode> {
    let settings = data.settings(None)?;
    let store = arena_serve::open_store(&settings)?;
    let actor = actor();
    match action {
        AdminCommand::AddUser { name, admin } => {
            check_name("account", &name)?;
            let user = store.create_user(&name, "", admin)?;
            let token = new_token("arena_")?;
            store.create_token(user.id, &token_sha256(&token), "arena serve admin add-user")?;
            store.audit(&actor, "add-user", &format!("{name}{}", if admin { " (admin)" } else { "" }))?;
            outln!("{token}");
        }
        AdminCommand::DisableBot { bot, enable } => {
            let found = store.bot(bot)?.with_context(|| format!("no bot {bot}"))?;
            store.set_bot_disabled(bot, !enable)?;
            let action = if enable { "enable-bot" } else { "disable-bot" };
            store.audit(&actor, action, &format!("bot {bot} ({} of {})", found.name, found.game))?;
            eprintln!("{}: bot {bot} ({} of {})", action, found.name, found.game);
        }
        AdminCommand::SetPrivate { bot, state } => {
            let found = store.bot(bot)?.with_context(|| format!("no bot {bot}"))?;
            store.set_bot_private(bot, state == "on")?;
            let detail = format!("bot {bot} ({} of {}) {state}", found.name, found.game);
            store.audit(&actor, "set-private", &detail)?;
            eprintln!("set-private: {detail}");
        }
        AdminCommand::Requeue { r#match } => {
            if !store.requeue_failed(r#match)? {
                bail!("match {} is not a failed match (only failed matches are requeued)", r#match);
            }
            store.audit(&actor, "requeue", &format!("match {}", r#match))?;
            eprintln!("requeued match {}", r#match);
        }
        AdminCommand::Freeze { game, thaw } => {
            if arena_host::registry::find_game(&game).is_none() {
                bail!("no game {game:?} (games: {})", arena_host::registry::game_names().join(", "));
            }
            store.set_frozen(&game, !thaw)?;
            let action = if thaw { "thaw" } else { "freeze" };
            store.audit(&actor, action, &game)?;
            eprintln!("{action}: {game}");
        }
        AdminCommand::Competition(CompetitionCommand::Create { game, format, deadline, name, seeds, rounds, pool }) => {
            use arena_serve::competition::{MAX_ROUNDS, MAX_SEEDS, parse_deadline, parse_format};
            use arena_serve::store::CompetitionFormat;
            if arena_host::registry::find_game(&game).is_none() {
                bail!("no game {game:?} (games: {})", arena_host::registry::game_names().join(", "));
            }
            let format = parse_format(&format).map_err(anyhow::Error::msg)?;
            let deadline = parse_deadline(&deadline, arena_serve::service::unix_now()).map_err(anyhow::Error::msg)?;
            if !(1..=MAX_SEEDS).contains(&seeds) {
                bail!("--seeds is 1 to {MAX_SEEDS}, not {seeds}");
            }
            match (format, rounds) {
                (CompetitionFormat::Swiss, Some(rounds)) if !(1..=MAX_ROUNDS).contains(&rounds) => {
                    bail!("--rounds is 1 to {MAX_ROUNDS}, not {rounds}")
                }
                (CompetitionFormat::Swiss, _) | (_, None) => {}
                (_, Some(_)) => bail!("--rounds is for the swiss format only"),
            }
            let pool: Vec<String> = pool.into_iter().filter(|name| !name.is_empty()).collect();
            match (format, pool.is_empty()) {
                (CompetitionFormat::Gauntlet, true) => {
                    bail!(
                        "a gauntlet needs its pool: --pool BOT[,BOT...] (bots of {game} that every other entrant plays)"
                    )
                }
                (CompetitionFormat::Gauntlet, false) => {
                    let bots = store.bots_of_game(&game)?;
                    if let Some(missing) = pool.iter().find(|name| !bots.iter().any(|bot| &bot.name == *name)) {
                        bail!("--pool: no bot {missing:?} of {game}");
                    }
                }
                (_, false) => bail!("--pool is for the gauntlet format only"),
                (_, true) => {}
            }
            let name = name.unwrap_or_else(|| format!("{game} {}", format.as_str()));
            if name.is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
                bail!("a competition's name is 1 to 100 characters, none of them control characters");
            }
            let new = arena_serve::store::NewCompetition {
                game: game.clone(),
                name,
                format,
                deadline,
                seeds,
                rounds,
                pool: pool.clone(),
            };
            let id = store.create_competition(&new, arena_serve::service::unix_now())?;
            let mut detail = format!("competition {id}: {game} {} deadline {deadline} seeds {seeds}", format.as_str());
            if let Some(rounds) = rounds {
                detail += &format!(" rounds {rounds}");
            }
            if !pool.is_empty() {
                detail += &format!(" pool {}", pool.join(","));
            }
            store.audit(&actor, "competition-create", &detail)?;
            outln!("{id}");
        }
        AdminCommand::Competition(CompetitionCommand::Release { id, to, rounds }) => {
            let release = arena_serve::store::Release::parse(&to)
                .with_context(|| format!("--to is participants, public or hidden, not {to:?}"))?;
            if rounds == Some(0) {
                bail!("--rounds is a round from 1 (rounds 1 to R are released); --to hidden hides them all");
            }
            if !store.set_competition_release(id, release, rounds)? {
                bail!("no competition {id}");
            }
            let which = rounds.map_or_else(|| "every round".to_owned(), |last| format!("rounds 1 to {last}"));
            let detail = format!("competition {id} to {} ({which})", release.as_str());
            store.audit(&actor, "competition-release", &detail)?;
            eprintln!("competition {id}: results of {which} released to {}", release.as_str());
        }
        AdminCommand::Audit => {
            for (actor, action, detail) in store.audit_log()? {
                outln!("{actor}\t{action}\t{detail}");
            }
        }
        #[cfg(feature = "nats")]
        AdminCommand::AddWorker { name, trusted } => {
            if !arena_tournament::nats::identity::valid_name(&name) {
                bail!("a worker's name is 1 to 64 letters, digits, '-', '_' or '.': {name:?}");
            }
            let token = format!("{name}:{}", new_token("")?);
            store.add_worker(&name, &arena_tournament::nats::identity::key_of(&token), trusted)?;
            store.audit(&actor, "add-worker", &format!("{name}{}", if trusted { " (trusted)" } else { "" }))?;
            outln!("{token}");
        }
        #[cfg(feature = "nats")]
        AdminCommand::Workers => {
            outln!("worker\ttrusted\tsuspect\tresults\taudits\tmismatches");
            for worker in store.workers()? {
                let yes = |flag: bool| if flag { "yes" } else { "no" };
                outln!(
                    "{}\t{}\t{}\t{}\t{}\t{}",
                    worker.name,
                    yes(worker.trusted),
                    yes(worker.suspect),
                    worker.results,
                    worker.audits,
                    worker.mismatches
                );
            }
            outln!("");
            outln!("audit\tmatch\tworker\tauditor\tstate");
            for audit in store.audits(50)? {
                let auditor = audit.auditor.as_deref().unwrap_or("-");
                outln!("{}\t{}\t{}\t{auditor}\t{}", audit.id, audit.match_id, audit.worker, audit.state.as_str());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `arena submit`.
#[derive(Debug, Args)]
pub struct SubmitArgs {
    /// The server, e.g. http://127.0.0.1:8080 or https://ladder.example.org.
    #[arg(long, value_name = "URL")]
    server: String,
    /// The game the bot plays.
    #[arg(long)]
    game: String,
    /// The bot file.
    file: PathBuf,
    /// The bot's data folder, sent with the file as one archive [default: NAME.data/ beside
    /// NAME.wasm, if there is one].
    #[arg(long, value_name = "DIR", conflicts_with = "no_data")]
    data: Option<PathBuf>,
    /// Send the file alone, whatever lies beside it.
    #[arg(long)]
    no_data: bool,
    /// The bot's name on the ladder [default: the file's name without .wasm].
    #[arg(long)]
    name: Option<String>,
    /// The API token [default: $ARENA_TOKEN, else the token file].
    #[arg(long)]
    token: Option<String>,
    /// Make the bot private: its files served only to you, the admins and the ladder's trusted
    /// workers (without it, a bot stays as it is; a new one is public).
    #[arg(long)]
    private: bool,
    /// Wait until the checks finish and report them.
    #[arg(long)]
    wait: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// With --wait: give up after this many seconds.
    #[arg(long, default_value_t = 600, value_name = "SECONDS")]
    timeout: u64,
}

/// The token from the flag, the environment or the token file.
fn token(flag: Option<&str>) -> anyhow::Result<String> {
    if let Some(token) = flag {
        return Ok(token.to_owned());
    }
    if let Ok(token) = std::env::var("ARENA_TOKEN")
        && !token.trim().is_empty()
    {
        return Ok(token.trim().to_owned());
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")));
    if let Some(file) = config.map(|dir| dir.join("wasm-arena").join("token"))
        && let Ok(text) = std::fs::read_to_string(&file)
        && !text.trim().is_empty()
    {
        return Ok(text.trim().to_owned());
    }
    bail!(
        "no API token: pass --token, set $ARENA_TOKEN, or write it to ~/.config/wasm-arena/token (make one on the server's account page)"
    )
}

/// An HTTP agent that hands back 4xx and 5xx responses instead of failing on them.
pub(super) fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(600)))
        .build()
        .new_agent()
}

/// Reads a response: its status and its JSON body (or the reason of a non-JSON one).
pub(super) fn json_of(
    response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    server: &str,
) -> anyhow::Result<(u16, serde_json::Value)> {
    let mut response = response.map_err(|err| unreachable(server, err))?;
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().with_context(|| format!("reading the answer of {server}"))?;
    let json = serde_json::from_str(&text).unwrap_or_else(|_| serde_json::json!({ "reason": text.trim() }));
    Ok((status, json))
}

/// Why `server` gave no answer, in one line. At an `https://` URL a connection that opened and
/// then failed is named a failed TLS handshake (a server speaking plain HTTP answers the TLS
/// hello with text, or closes), with what went wrong; the others keep ureq's words.
pub(super) fn unreachable(server: &str, err: ureq::Error) -> anyhow::Error {
    use std::io::ErrorKind;
    let https = server.trim_start().get(..8).is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://"));
    let tls = match &err {
        ureq::Error::Tls(_) | ureq::Error::Rustls(_) | ureq::Error::Pem(_) | ureq::Error::TlsRequired => true,
        ureq::Error::Io(io) => {
            https
                && matches!(
                    io.kind(),
                    ErrorKind::InvalidData
                        | ErrorKind::ConnectionReset
                        | ErrorKind::ConnectionAborted
                        | ErrorKind::UnexpectedEof
                        | ErrorKind::BrokenPipe
                )
        }
        _ => false,
    };
    if tls {
        anyhow::anyhow!(
            "cannot reach {server}: the TLS handshake failed ({err}): is it serving HTTPS? (`arena serve` itself \
             speaks plain HTTP: use http://, or put it behind a TLS proxy)"
        )
    } else {
        anyhow::anyhow!("cannot reach {server}: {err}")
    }
}

pub(super) fn base(server: &str) -> &str {
    server.trim_end_matches('/')
}

pub fn submit(args: SubmitArgs) -> anyhow::Result<ExitCode> {
    let token = token(args.token.as_deref())?;
    let name = match &args.name {
        Some(name) => name.clone(),
        None => args.file.file_stem().and_then(|stem| stem.to_str()).unwrap_or("bot").to_owned(),
    };
    check_name("bot", &name)?;
    let files = match (&args.data, args.no_data) {
        (Some(data), _) => BotFiles::with_data(&args.file, data),
        (None, true) => BotFiles::code_only(&args.file),
        (None, false) => BotFiles::by_convention(&args.file),
    };
    let private = if args.private { "?private=true" } else { "" };
    let url = format!("{}/api/games/{}/bots/{}{private}", base(&args.server), args.game, name);
    let agent = agent();
    let request = agent.post(&url).header("Authorization", &format!("Bearer {token}"));
    let sent = match &files.data {
        None => {
            let file =
                std::fs::File::open(&args.file).with_context(|| format!("{}: cannot read", args.file.display()))?;
            request.header("Content-Type", "application/wasm").send(file)
        }
        Some(data) => request.header("Content-Type", TAR_MEDIA_TYPE).send(&pack(&args.file, data)?[..]),
    };
    let (status, mut version) = json_of(sent, &args.server)?;
    if !(200..300).contains(&status) {
        let reason = version["reason"].as_str().unwrap_or("refused").to_owned();
        return refused(&args, status, &name, None, &reason);
    }
    if args.wait {
        let id = version["version_id"].as_i64().context("the server's answer has no version_id")?;
        let started = Instant::now();
        while version["status"] == "pending" {
            if started.elapsed() > Duration::from_secs(args.timeout) {
                bail!("the checks of version {id} did not finish in {} s", args.timeout);
            }
            std::thread::sleep(Duration::from_millis(300));
            let (status, now) =
                json_of(agent.get(&format!("{}/api/versions/{id}", base(&args.server))).call(), &args.server)?;
            if status != 200 {
                bail!("{}: {}", args.server, now["reason"].as_str().unwrap_or("failed"));
            }
            version = now;
        }
    }
    let accepted = version["status"] != "refused";
    if args.json {
        let mut out = serde_json::json!({
            "bot": version["bot"], "bot_id": version["bot_id"], "game": version["game"],
            "version": version["version"], "version_id": version["version_id"], "data": version["data"],
            "status": if accepted { if version["status"] == "pending" { "pending" } else { "accepted" } } else { "refused" },
            "steps": version["steps"],
        });
        if !accepted {
            out["reason"] = version["reason"].clone();
        }
        outln!("{out}");
    } else {
        let data = version["data"].as_str().map(|digest| format!(" with data {}", &digest[..digest.len().min(12)]));
        outln!(
            "{} {} version {}{}: {}",
            version["game"].as_str().unwrap_or_default(),
            name,
            short(&version["version"]),
            data.unwrap_or_default(),
            version["status"].as_str().unwrap_or_default()
        );
        for step in version["steps"].as_array().into_iter().flatten() {
            let ok = if step["ok"] == true { "ok" } else { "refused" };
            outln!(
                "  {:<11} {ok:<8} {}",
                step["step"].as_str().unwrap_or_default(),
                step["detail"].as_str().unwrap_or_default()
            );
        }
        if let Some(reason) = version["reason"].as_str() {
            outln!("refused: {reason}");
        }
        outln!("{}/bots/{}", base(&args.server), version["bot_id"]);
    }
    Ok(if accepted { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The bot file `wasm` and its data folder `data` as one tar archive (`arena_host::bot_archive`),
/// the folder read within the default data limits (a ladder's own limits are checked by the
/// ladder).
fn pack(wasm: &Path, data: &Path) -> anyhow::Result<Vec<u8>> {
    let bytes = std::fs::read(wasm).with_context(|| format!("{}: cannot read", wasm.display()))?;
    let tree = BotData::read(data, DataLimits::DEFAULT)?;
    let mut archive = Vec::new();
    write_archive(&mut archive, Some(&bytes), Some(&tree.tree))?;
    Ok(archive)
}

fn short(sha256: &serde_json::Value) -> String {
    sha256.as_str().unwrap_or_default().chars().take(12).collect()
}

/// A refused upload: exit 1 for a refusal of the bot (too large, a name taken), 2 for bad usage
/// (a bad token, a game that does not exist).
fn refused(
    args: &SubmitArgs,
    status: u16,
    name: &str,
    version: Option<&str>,
    reason: &str,
) -> anyhow::Result<ExitCode> {
    if matches!(status, 401 | 403 | 404) || status >= 500 {
        bail!("{}: {reason} (HTTP {status})", args.server);
    }
    if args.json {
        outln!(
            "{}",
            serde_json::json!({ "bot": name, "version": version, "status": "refused", "reason": reason, "http_status": status })
        );
    } else {
        outln!("refused: {reason}");
    }
    Ok(ExitCode::from(1))
}

/// `arena ladder`: a game's leaderboard, or with a subcommand a bot or the latest matches (its
/// own arguments are required without a subcommand only).
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct LadderArgs {
    #[command(subcommand)]
    command: Option<LadderCommand>,
    /// The server, e.g. http://127.0.0.1:8080 or https://ladder.example.org.
    #[arg(long, value_name = "URL", required = true)]
    server: Option<String>,
    /// The game.
    #[arg(long, required = true)]
    game: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// The server to ask and how to print its answer (every `arena ladder` command takes them).
#[derive(Debug, Args)]
struct ClientArgs {
    /// The server, e.g. http://127.0.0.1:8080 or https://ladder.example.org.
    #[arg(long, value_name = "URL")]
    server: String,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Subcommand)]
enum LadderCommand {
    /// A bot: its versions with the checks' outcome, and its current version's rating.
    #[command(after_help = LADDER_BOT_EXAMPLES)]
    Bot {
        #[command(flatten)]
        client: ClientArgs,
        /// The bot's id (its page is /bots/ID).
        id: i64,
    },
    /// The latest matches, newest first: of a game, or every match of a bot (queued, running
    /// and failed ones too).
    #[command(after_help = LADDER_MATCHES_EXAMPLES)]
    Matches {
        #[command(flatten)]
        client: ClientArgs,
        /// Only this game's matches.
        #[arg(long)]
        game: Option<String>,
        /// Only this bot's matches (its id).
        #[arg(long, value_name = "ID")]
        bot: Option<i64>,
        /// At most this many.
        #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=500))]
        limit: u32,
    },
    /// Download a ladder's public dump into a folder: every ranked result, the bots' files by
    /// sha256, the leaderboard, and the results as a tournament database.
    #[command(after_help = super::ladder_dump_cmd::DUMP_EXAMPLES)]
    Dump(super::ladder_dump_cmd::DumpArgs),
    /// Re-play a dump's matches here (all, or a sample) and recompute its ratings from it alone:
    /// `identical`, or the first match or rating that differs.
    #[command(after_help = super::ladder_dump_cmd::VERIFY_EXAMPLES)]
    Verify(super::ladder_dump_cmd::VerifyArgs),
}

pub const LADDER_BOT_EXAMPLES: &str = "\
Examples:
  arena ladder bot --server http://127.0.0.1:8080 12
  arena ladder bot --server URL 12 --json

Exit status: 0 shown, 1 no such bot, 2 bad usage or a server that cannot be reached.";

pub const LADDER_MATCHES_EXAMPLES: &str = "\
Examples:
  arena ladder matches --server http://127.0.0.1:8080 --game azul --limit 5
  arena ladder matches --server URL --bot 12 --json

Exit status: 0 shown, 1 no such bot, 2 bad usage or a server that cannot be reached.";

pub fn ladder(args: LadderArgs) -> anyhow::Result<ExitCode> {
    match (args.command, args.server, args.game) {
        (Some(LadderCommand::Bot { client, id }), _, _) => ladder_bot(&client, id),
        (Some(LadderCommand::Matches { client, game, bot, limit }), _, _) => {
            ladder_matches(&client, game.as_deref(), bot, limit)
        }
        (Some(LadderCommand::Dump(args)), _, _) => super::ladder_dump_cmd::run_dump(args),
        (Some(LadderCommand::Verify(args)), _, _) => super::ladder_dump_cmd::run_verify(args),
        (None, Some(server), Some(game)) => leaderboard(&ClientArgs { server, json: args.json }, &game),
        (None, _, _) => bail!("arena ladder needs --server URL --game GAME, or a subcommand (see arena ladder --help)"),
    }
}

/// `GET PATH` of the API on `server`: its JSON, or `None` for a 404 (whose reason goes to
/// stderr: exit status 1); any other refusal is an error (exit status 2).
fn get_found(
    server: &str,
    request: ureq::RequestBuilder<ureq::typestate::WithoutBody>,
) -> anyhow::Result<Option<serde_json::Value>> {
    let (status, json) = json_of(request.call(), server)?;
    let reason = json["reason"].as_str().unwrap_or("failed");
    match status {
        200 => Ok(Some(json)),
        404 => {
            eprintln!("{server}: {reason}");
            Ok(None)
        }
        _ => bail!("{server}: {reason} (HTTP {status})"),
    }
}

fn leaderboard(client: &ClientArgs, game: &str) -> anyhow::Result<ExitCode> {
    let server = &client.server;
    let url = format!("{}/api/games/{game}/leaderboard", base(server));
    let (status, board) = json_of(agent().get(&url).call(), server)?;
    if status != 200 {
        bail!("{server}: {}", board["reason"].as_str().unwrap_or("failed"));
    }
    if client.json {
        outln!("{board}");
        return Ok(ExitCode::SUCCESS);
    }
    outln!("{game} ladder: {} ranked matches", board["matches"]);
    outln!("{}", board_header());
    for (rank, line) in current_lines(&board).enumerate() {
        outln!("{}", board_row(rank + 1, line));
    }
    Ok(ExitCode::SUCCESS)
}

/// The lines of a leaderboard's current versions, best first (their rank is their place here).
fn current_lines(board: &serde_json::Value) -> impl Iterator<Item = &serde_json::Value> {
    board["leaderboard"].as_array().into_iter().flatten().filter(|line| line["current"] == true)
}

/// The leaderboard's column titles.
fn board_header() -> String {
    format!(
        "{:>3}  {:<24} {:<12} {:>7} {:>15} {:>7} {:>5} {:>5} {:>5}",
        "#", "bot", "version", "rating", "95% interval", "matches", "W", "D", "L"
    )
}

/// A leaderboard line under [`board_header`].
fn board_row(rank: usize, line: &serde_json::Value) -> String {
    format!(
        "{:>3}  {:<24} {:<12} {:>7.0} {:>7.0}-{:<7.0} {:>7} {:>5} {:>5} {:>5}",
        rank,
        line["bot"].as_str().unwrap_or_default(),
        short(&line["version"]),
        line["rating"].as_f64().unwrap_or(0.0),
        line["interval"][0].as_f64().unwrap_or(0.0),
        line["interval"][1].as_f64().unwrap_or(0.0),
        count(&line["matches"]),
        count(&line["wins"]),
        count(&line["draws"]),
        count(&line["losses"])
    )
}

/// A count of the API as a number, which the format's width pads (a JSON value's text ignores
/// it); 0 if missing.
fn count(value: &serde_json::Value) -> i64 {
    value.as_i64().unwrap_or(0)
}

/// `arena ladder bot`: `GET /api/bots/ID`, and the bot's line of its game's leaderboard.
fn ladder_bot(client: &ClientArgs, id: i64) -> anyhow::Result<ExitCode> {
    let server = &client.server;
    let agent = agent();
    let Some(found) = get_found(server, agent.get(&format!("{}/api/bots/{id}", base(server))))? else {
        return Ok(ExitCode::from(1));
    };
    let bot = &found["bot"];
    let game = bot["game"].as_str().context("the server's answer names no game")?;
    let Some(board) = get_found(server, agent.get(&format!("{}/api/games/{game}/leaderboard", base(server))))? else {
        bail!("{server} has no leaderboard of {game}");
    };
    let rated = current_lines(&board).enumerate().find(|(_, line)| line["bot_id"] == id);
    let versions = found["versions"].as_array().cloned().unwrap_or_default();
    if client.json {
        let rating = rated.map(|(rank, line)| {
            let mut line = line.clone();
            line["rank"] = serde_json::json!(rank + 1);
            line
        });
        outln!("{}", serde_json::json!({ "bot": bot, "versions": versions, "rating": rating }));
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "{} bot {} (id {id}) by {}{}",
        game,
        bot["name"].as_str().unwrap_or_default(),
        bot["owner_name"].as_str().unwrap_or_default(),
        if bot["disabled"] == true { ", disabled by an admin: it plays no ranked matches" } else { "" }
    );
    outln!("{:>8}  {:<12}  {:<8}  reason", "id", "version", "status");
    for version in versions.iter().rev() {
        let reason = version["reason"].as_str().unwrap_or_default().replace(['\n', '\r'], " ");
        let line = format!(
            "{:>8}  {:<12}  {:<8}  {reason}",
            count(&version["version_id"]),
            short(&version["version"]),
            version["status"].as_str().unwrap_or_default()
        );
        outln!("{}", line.trim_end());
    }
    match rated {
        Some((rank, line)) => {
            outln!("{}", board_header());
            outln!("{}", board_row(rank + 1, line));
        }
        None => outln!("not rated yet: its current version has no ranked match"),
    }
    Ok(ExitCode::SUCCESS)
}

/// `arena ladder matches`: `GET /api/matches`, each seat named by its version's bot.
fn ladder_matches(client: &ClientArgs, game: Option<&str>, bot: Option<i64>, limit: u32) -> anyhow::Result<ExitCode> {
    let server = &client.server;
    let agent = agent();
    let mut request = agent.get(&format!("{}/api/matches", base(server))).query("limit", limit.to_string());
    if let Some(game) = game {
        request = request.query("game", game);
    }
    if let Some(bot) = bot {
        request = request.query("bot", bot.to_string());
    }
    let Some(found) = get_found(server, request)? else { return Ok(ExitCode::from(1)) };
    // Each version's bot and sha256, asked once.
    let mut versions: BTreeMap<i64, serde_json::Value> = BTreeMap::new();
    let mut matches = Vec::new();
    for one in found.as_array().into_iter().flatten() {
        let mut seats = Vec::new();
        for seat in one["seats"].as_array().into_iter().flatten() {
            let id = seat["version_id"].as_i64().context("the server's answer has a seat with no version_id")?;
            let version = match versions.entry(id) {
                Entry::Occupied(known) => known.into_mut(),
                Entry::Vacant(vacant) => {
                    let path = format!("{}/api/versions/{id}", base(server));
                    let (status, version) = json_of(agent.get(&path).call(), server)?;
                    vacant.insert(if status == 200 { version } else { serde_json::Value::Null })
                }
            };
            seats.push(serde_json::json!({
                "version_id": id, "bot": version["bot"], "bot_id": version["bot_id"], "version": version["version"],
            }));
        }
        let winner = one["winner"].as_u64().and_then(|seat| seats.get(seat as usize)).map(|seat| seat["bot"].clone());
        matches.push(serde_json::json!({
            "id": one["id"], "game": one["game"], "kind": one["kind"], "state": one["state"], "seed": one["seed"],
            "turns": one["turns"], "seats": seats, "winner": one["winner"], "winner_bot": winner,
        }));
    }
    if client.json {
        outln!("{}", serde_json::json!({ "matches": matches }));
        return Ok(ExitCode::SUCCESS);
    }
    let winner = |one: &serde_json::Value| match one["state"].as_str() {
        Some("done") if one["winner"].is_u64() => one["winner_bot"].as_str().unwrap_or("?").to_owned(),
        Some("done") => "draw".to_owned(),
        _ => "-".to_owned(),
    };
    let rows: Vec<[String; 6]> = matches
        .iter()
        .map(|one| {
            let seats: Vec<String> = one["seats"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|seat| format!("{}@{}", seat["bot"].as_str().unwrap_or("?"), short(&seat["version"])))
                .collect();
            let text = |key: &str| one[key].as_str().unwrap_or_default().to_owned();
            [count(&one["id"]).to_string(), text("game"), text("kind"), text("state"), winner(one), seats.join(" vs ")]
        })
        .collect();
    let titles = ["match", "game", "kind", "state", "winner", "seats"].map(str::to_owned);
    // Each column as wide as its widest cell: game and bot names vary.
    let widths: Vec<usize> =
        (0..6).map(|column| rows.iter().chain([&titles]).map(|row| row[column].len()).max().unwrap_or(0)).collect();
    for row in [&titles].into_iter().chain(&rows) {
        let [id, game, kind, state, winner, seats] = row;
        outln!(
            "{id:>w0$}  {game:<w1$}  {kind:<w2$}  {state:<w3$}  {winner:<w4$}  {seats}",
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3],
            w4 = widths[4]
        );
    }
    Ok(ExitCode::SUCCESS)
}
