//! The pages, rendered on the server with maud (every interpolated string is escaped: names,
//! logs, refusal reasons and faults are the competitors' words; a rating chart is inline SVG
//! drawn here, coloured by the stylesheet). Forms carry a CSRF token: the session's
//! for a signed-in account, a cookie's (double submit) for signing up and logging in. The
//! pages' only script is `/static/app.js` (live updates), served from here like the stylesheet.
//! The admin page (`/admin`, read-only) is an admin's only: anyone else gets a missing page.

use super::api::{
    VersionView, create_account, create_api_token, log_in, queue_scrimmage, receive, set_private, version_view,
};
use super::{
    Caller, FORM_COOKIE, PRIVATE_FILE, SESSION_COOKIE, SESSION_SECONDS, Shared, WebError, blocking, caller, cookie,
    may_have_file, unix_now,
};
use crate::auth::{new_token, same_secret, token_sha256};
use crate::ratings::Leaderboard;
use crate::service::Service;
use crate::store::{BotPage, Match, MatchState, RatingPoint, SeatFault, VersionStatus};
use axum::Router;
use axum::extract::{Form, Multipart, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use maud::{DOCTYPE, Markup, html};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};

/// The pages' routes (the upload form's POST streams its body: it is added in [`super::router`]).
pub fn routes() -> Router<Shared> {
    Router::new()
        .route("/", get(home))
        .route("/games/{game}", get(game_page))
        .route("/games/{game}/table", get(game_table))
        .route("/games/{game}/latest", get(game_latest_fragment))
        .route("/bots/{id}", get(bot_page))
        .route("/bots/{id}/scrimmage", post(scrimmage_post))
        .route("/bots/{id}/private", post(private_post))
        .route("/matches/{id}", get(match_page))
        .route("/matches/{id}/viewer", get(viewer))
        .route("/matches/{id}/replay.json", get(replay_download))
        .route("/versions/{id}/bot.wasm", get(bot_download))
        .route("/competitions/{id}", get(competition_page))
        .route("/admin", get(admin_page))
        .route("/live", get(live_page))
        .route("/signup", get(signup_form).post(signup_post))
        .route("/login", get(login_form).post(login_post))
        .route("/logout", post(logout_post))
        .route("/account", get(account_page))
        .route("/account/tokens", post(token_post))
        .route("/upload", get(upload_form))
        .route("/static/app.js", get(|| async { asset("text/javascript", include_str!("app.js")) }))
        .route("/static/style.css", get(|| async { asset("text/css", include_str!("style.css")) }))
}

fn asset(content_type: &'static str, text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "max-age=300")], text).into_response()
}

/// A failed page request, shown as a page.
pub struct PageError(WebError);

impl From<WebError> for PageError {
    fn from(err: WebError) -> Self {
        PageError(err)
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let status = self.0.status();
        let body = layout(
            &Caller { user: None, csrf: None },
            status.canonical_reason().unwrap_or("error"),
            html! {
                h1 { (status.as_u16()) " " (status.canonical_reason().unwrap_or("")) }
                p.reason { (self.0.to_string()) }
            },
        );
        (status, body).into_response()
    }
}

type PageResult = Result<Response, PageError>;

/// The frame of every page.
fn layout(caller: &Caller, title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · Wasm Arena" }
                link rel="stylesheet" href="/static/style.css";
                script src="/static/app.js" defer {}
            }
            body {
                nav {
                    a href="/" { "Wasm Arena" }
                    a href="/live" { "Live" }
                    a href="/upload" { "Upload" }
                    @match &caller.user {
                        Some(user) => {
                            @if user.admin { a href="/admin" { "Admin" } }
                            a href="/account" { (user.name) }
                            form.inline method="post" action="/logout" {
                                input type="hidden" name="csrf" value=(caller.csrf.clone().unwrap_or_default());
                                button type="submit" { "Log out" }
                            }
                        }
                        None => {
                            a href="/login" { "Log in" }
                            a href="/signup" { "Sign up" }
                        }
                    }
                }
                main { (body) }
            }
        }
    }
}

fn short(sha256: &str) -> &str {
    sha256.get(..12).unwrap_or(sha256)
}

async fn home(State(service): State<Shared>, headers: HeaderMap) -> PageResult {
    let caller = caller(&service, &headers).await?;
    let boards = blocking(&service, |service| {
        arena_host::registry::game_names()
            .into_iter()
            .map(|game| Ok(service.leaderboard(game)?))
            .collect::<Result<Vec<_>, WebError>>()
    })
    .await?;
    Ok(layout(&caller, "Ladders", html! {
        h1 { "Ladders" }
        p { "Upload a bot compiled to WebAssembly; it is checked, played and rated on its game's ladder under the same fuel budget as every other bot." }
        table {
            thead { tr { th { "Game" } th { "Bots rated" } th { "Ranked matches" } th { "Leader" } } }
            tbody {
                @for board in &boards {
                    tr {
                        td { a href={ "/games/" (board.game) } { (board.game) } }
                        td.num { (board.leaderboard.iter().filter(|line| line.current).count()) }
                        td.num { (board.matches) }
                        td { @if let Some(first) = board.leaderboard.first() { (first.bot) } @else { "—" } }
                    }
                }
            }
        }
    })
    .into_response())
}

/// The leaderboard table of a game (also served alone, for the live refresh).
fn leaderboard_table(board: &Leaderboard) -> Markup {
    html! {
        table.leaderboard data-game=(board.game) {
            thead { tr {
                th { "#" } th { "Bot" } th { "Owner" } th { "Version" } th { "Rating" } th { "95% interval" }
                th { "Matches" } th { "W" } th { "D" } th { "L" } th { "Faults" } th { "Fuel/turn" }
            } }
            tbody {
                @for (rank, line) in board.leaderboard.iter().filter(|line| line.current).enumerate() {
                    tr {
                        td.num { (rank + 1) }
                        td { a href={ "/bots/" (line.bot_id) } { (line.bot) } }
                        td { (line.owner) }
                        td.mono { (short(&line.version)) }
                        td.num { (format!("{:.0}", line.rating)) }
                        td.num { (format!("{:.0} – {:.0}", line.interval[0], line.interval[1])) }
                        td.num { (line.matches) }
                        td.num { (line.wins) }
                        td.num { (line.draws) }
                        td.num { (line.losses) }
                        td.num { (line.faults) }
                        td.num { (line.mean_fuel_per_turn) }
                    }
                }
            }
        }
    }
}

/// The table of `matches`, each seat named by its version's bot (`names`, by version id).
fn matches_table(matches: &[Match], names: &BTreeMap<i64, String>) -> Markup {
    let name = |version: i64| names.get(&version).map_or("?", String::as_str);
    html! {
        table.matches {
            thead { tr { th { "Match" } th { "Kind" } th { "Seats" } th { "Winner" } th { "Turns" } } }
            tbody {
                @for one in matches {
                    tr {
                        td { a href={ "/matches/" (one.id) } { "#" (one.id) } }
                        td { (one.kind.as_str()) }
                        td { @for (seat, taken) in one.seats.iter().enumerate() {
                            @if seat > 0 { " vs " }
                            (name(taken.version_id))
                        } }
                        td { @match (one.state, one.winner) {
                            (MatchState::Done, Some(winner)) => (one.seats.get(winner as usize).map_or("?", |seat| name(seat.version_id))),
                            (MatchState::Done, None) => "draw",
                            (state, _) => (state.as_str()),
                        } }
                        td.num { (one.turns.map(|turns| turns.to_string()).unwrap_or_default()) }
                    }
                }
            }
        }
    }
}

/// [`matches_table`] with the seats' names read from the store.
fn named_matches_table(service: &Service, matches: &[Match]) -> Result<Markup, WebError> {
    let versions: Vec<i64> = matches.iter().flat_map(|one| one.seats.iter().map(|seat| seat.version_id)).collect();
    Ok(matches_table(matches, &service.store.bot_names(&versions)?))
}

/// Matches the game and live pages list.
const LATEST_MATCHES: u32 = 20;

/// A game page's live parts besides its leaderboard: the line of counts and the latest matches
/// (also served alone, as `/games/{game}/latest`, for the live refresh).
fn game_latest(service: &Service, board: &Leaderboard) -> Result<(Markup, Markup), WebError> {
    let recent = service.store.recent_matches(Some(&board.game), LATEST_MATCHES)?;
    let rated = board.leaderboard.iter().filter(|line| line.current).count();
    let summary = html! {
        p #game-summary { (rated) " bots rated, " (board.matches) " ranked matches." }
    };
    Ok((summary, named_matches_table(service, &recent)?))
}

async fn game_page(State(service): State<Shared>, headers: HeaderMap, Path(game): Path<String>) -> PageResult {
    let caller = caller(&service, &headers).await?;
    let (board, summary, recent) = blocking(&service, move |service| {
        let board = service.leaderboard(&game)?;
        let (summary, recent) = game_latest(service, &board)?;
        Ok((board, summary, recent))
    })
    .await?;
    Ok(layout(&caller, &board.game, html! {
        h1 { (board.game) }
        (summary)
        p { "Ratings are a Bradley-Terry fit of every result (Elo scale), refitted as results arrive." }
        div #leaderboard data-refresh={ "/games/" (board.game) "/table" } data-game=(board.game) { (leaderboard_table(&board)) }
        h2 { "Latest matches" }
        div #latest data-refresh={ "/games/" (board.game) "/latest" } { (recent) }
    })
    .into_response())
}

/// A competition: its entrants, and (as its release allows the signed-in account) its standings
/// and, for a bracket, its series round by round.
async fn competition_page(State(service): State<Shared>, headers: HeaderMap, Path(id): Path<i64>) -> PageResult {
    let caller = caller(&service, &headers).await?;
    let viewer = caller.user.clone();
    let view = blocking(&service, move |service| {
        let found = service.store.competition(id)?.ok_or_else(|| WebError::NotFound(format!("competition {id}")))?;
        Ok(crate::competition::view(&*service.store, found, viewer.as_ref())?)
    })
    .await?;
    let one = &view.competition;
    let mut rounds: Vec<(&str, Vec<&crate::competition::SeriesView>)> = Vec::new();
    for series in &view.series {
        match rounds.last_mut() {
            Some((round, list)) if *round == series.round => list.push(series),
            _ => rounds.push((&series.round, vec![series])),
        }
    }
    let name = |name: &Option<String>| name.clone().unwrap_or_else(|| "?".into());
    let rated = view.standings.iter().any(|line| line.rating.is_some());
    let released = match one.released_rounds {
        Some(last) => format!("results {} up to round {last}", one.release.as_str()),
        None => format!("results {}", one.release.as_str()),
    };
    Ok(layout(
        &caller,
        &one.name,
        html! {
            h1 { (one.name) }
            p {
                (one.game) ", " (one.format.as_str()) ", " (one.seeds) " seed(s) per pairing, both seat orders; "
                (one.state.as_str()) "; " (released) "; "
                (view.matches[1]) " of " (view.matches[0]) " matches played."
            }
            h2 { "Entrants" }
            @if view.entrant_list.is_empty() { p { "Frozen at the deadline." } }
            ol { @for entrant in &view.entrant_list {
                li { (entrant.bot) " (version " (entrant.version_id) ")" @if entrant.pool { ", the gauntlet's pool" } }
            } }
            @if !view.results_visible {
                p { "The results are not released to you yet." }
            } @else {
                h2 { "Standings" }
                @if let Some(last) = view.results_up_to_round { p { "After round " (last) ": later rounds are not released yet." } }
                p { a href={ "/api/competitions/" (one.id) "/database" } download={ "competition-" (one.id) ".sqlite" } { "Download the results" }
                    " as a tournament database (" code { "arena tournament show FILE" } ")." }
                table {
                    tr { th { "Place" } th { "Bot" } @if rated { th { "Rating" } th { "Wins" } } }
                    @for line in &view.standings {
                        tr {
                            td { @if line.first == line.last { (line.first) } @else { (line.first) "–" (line.last) } }
                            td { (line.bot) }
                            @if let (Some(rating), Some(wins)) = (line.rating, line.wins) {
                                td { (format!("{rating:.0}")) } td { (wins) }
                            }
                        }
                    }
                }
                @for (round, list) in &rounds {
                    h3 { "Round " (round) }
                    table {
                        tr { th { "Series" } th { "Entrants" } th { "Wins" } th { "Score" } th { "Advanced" } }
                        @for series in list {
                            tr {
                                td { (series.id) }
                                td { (name(&series.names[0])) " – " (name(&series.names[1])) }
                                @if let Some(result) = &series.result {
                                    td { (result.wins[0]) "–" (result.wins[1]) }
                                    td { (result.tiebreak[0]) "–" (result.tiebreak[1]) }
                                } @else { td { "-" } td { "-" } }
                                td {
                                    @if let Some(winner) = series.winner {
                                        (view.entrant_list.iter().find(|entrant| entrant.version_id == winner)
                                            .map_or("?", |entrant| entrant.bot.as_str()))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        },
    )
    .into_response())
}

/// Disagreeing audits the admin page lists.
const ADMIN_AUDITS: u32 = 50;

/// The admin page: the NATS workers and their tallies, the audits that disagreed (newest first),
/// the competitions, the queue and the frozen games. Read-only: the actions stay on the command
/// line, on the database directly, where each goes in the audit log. For anyone but an admin it is
/// the answer a missing page gets, so its existence tells nobody else anything.
async fn admin_page(State(service): State<Shared>, headers: HeaderMap) -> PageResult {
    // An admin made by `arena serve admin add-user --admin` has an API token and no password,
    // so the page takes a token as the bot files do; a token that is not valid is no one.
    let caller = if headers.contains_key(header::AUTHORIZATION) {
        match super::token_caller(&service, &headers).await {
            Ok(user) => Caller { user: Some(user), csrf: None },
            Err(WebError::Unauthorized(_)) => Caller { user: None, csrf: None },
            Err(err) => return Err(err.into()),
        }
    } else {
        caller(&service, &headers).await?
    };
    if !caller.user.as_ref().is_some_and(|user| user.admin) {
        return Ok(WebError::NotFound("page".into()).into_response());
    }
    let (workers, audits, competitions, counts, frozen) = blocking(&service, |service| {
        let store = &service.store;
        Ok((
            store.workers()?,
            store.disagreed_audits(ADMIN_AUDITS)?,
            store.competitions()?,
            store.queue_counts()?,
            store.frozen_games()?,
        ))
    })
    .await?;
    let yes = |flag: bool| if flag { "yes" } else { "no" };
    Ok(layout(&caller, "Admin", html! {
        h1 { "Admin" }
        p {
            "Read-only. The actions are the command line's, on the server's machine (each goes in the audit log): "
            code { "arena serve admin workers" } ", " code { "requeue MATCH" } ", " code { "freeze GAME" } " (" code { "--thaw" } "), "
            code { "disable-bot BOT" } " (" code { "--enable" } "), " code { "set-private BOT on|off" } ", "
            code { "competition create" } ", " code { "competition release" } ", " code { "add-worker NAME" } ", " code { "audit" } "."
        }
        h2 { "Queue" }
        p #admin-queue { (counts.queued) " queued, " (counts.running) " running, " (counts.done) " played." }
        p #frozen {
            @if frozen.is_empty() { "No game is frozen." }
            @else { "Frozen (no new ranked matches): " @for (index, game) in frozen.iter().enumerate() {
                @if index > 0 { ", " } a href={ "/games/" (game) } { (game) }
            } "." }
        }
        h2 { "Workers" }
        @if workers.is_empty() {
            p { "No NATS worker is registered." }
        } @else {
            p { "A worker is suspect once an audit's re-run disagreed with a result of it (a third run that agrees with it clears the mark)." }
            table #workers {
                thead { tr { th { "Worker" } th { "Trusted" } th { "Suspect" } th { "Results" } th { "Audits" } th { "Mismatches" } } }
                tbody { @for worker in &workers {
                    tr data-worker=(worker.name) data-suspect=(yes(worker.suspect)) {
                        td { (worker.name) }
                        td { (yes(worker.trusted)) }
                        td { @if worker.suspect { strong { "yes" } } @else { "no" } }
                        td.num { (worker.results) }
                        td.num { (worker.audits) }
                        td.num { (worker.mismatches) }
                    }
                } }
            }
        }
        h2 { "Audits that disagreed" }
        @if audits.is_empty() {
            p { "None." }
        } @else {
            p {
                "The latest " (ADMIN_AUDITS) ", newest first. Disputed: the match is out of the ratings until a third run decides. "
                "Decided: the result the third run agreed with stands. Undecided: three different results; the match stays disputed."
            }
            table #audits {
                thead { tr { th { "Audit" } th { "Match" } th { "Worker" } th { "Auditor" } th { "State" } } }
                tbody { @for audit in &audits {
                    tr data-audit-state=(audit.state.as_str()) {
                        td.num { (audit.id) }
                        td { a href={ "/matches/" (audit.match_id) } { "#" (audit.match_id) } }
                        td { (audit.worker) }
                        td { (audit.auditor.as_deref().unwrap_or("—")) }
                        td { (audit.state.as_str()) }
                    }
                } }
            }
        }
        h2 { "Competitions" }
        @if competitions.is_empty() {
            p { "None." }
        } @else {
            table #competitions {
                thead { tr { th { "Competition" } th { "Game" } th { "Format" } th { "State" } th { "Entrants" } th { "Released to" } th { "Rounds released" } } }
                tbody { @for one in &competitions {
                    tr {
                        td { a href={ "/competitions/" (one.id) } { "#" (one.id) " " (one.name) } }
                        td { (one.game) }
                        td { (one.format.as_str()) }
                        td { (one.state.as_str()) }
                        td.num { @if one.state == crate::store::CompetitionState::Open { "—" } @else { (one.entrants.len()) } }
                        td { (one.release.as_str()) }
                        td { @match one.released_rounds { Some(last) => { "1–" (last) }, None => "every round" } }
                    }
                } }
            }
        }
    })
    .into_response())
}

async fn game_table(State(service): State<Shared>, Path(game): Path<String>) -> PageResult {
    let board = blocking(&service, move |service| Ok(service.leaderboard(&game)?)).await?;
    Ok(leaderboard_table(&board).into_response())
}

/// The game page's line of counts and its latest matches, for the live refresh.
async fn game_latest_fragment(State(service): State<Shared>, Path(game): Path<String>) -> PageResult {
    let (summary, recent) =
        blocking(&service, move |service| game_latest(service, service.leaderboard(&game)?.as_ref())).await?;
    Ok(html! { (summary) (recent) }.into_response())
}

/// Matches a bot page lists.
const BOT_MATCHES: u32 = 30;
/// Rating snapshots a bot page reads per version: its chart's span.
const CHART_POINTS: u32 = 100;
/// Snapshots listed under a version's chart, newest first.
const LISTED_POINTS: usize = 5;
/// Faults a bot page lists at most.
const LISTED_FAULTS: usize = 100;

async fn bot_page(State(service): State<Shared>, headers: HeaderMap, Path(id): Path<i64>) -> PageResult {
    let caller = caller(&service, &headers).await?;
    // What the page shows is read in one store call (one transaction).
    let page = blocking(&service, move |service| {
        service.store.bot_page(id, BOT_MATCHES, CHART_POINTS)?.ok_or_else(|| WebError::NotFound(format!("bot {id}")))
    })
    .await?;
    let BotPage { bot, versions, matches, names, opponents, ratings } = &page;
    let mine = caller.user.as_ref().is_some_and(|user| user.id == bot.owner);
    // A private bot's files: no download link but for its owner and the admins.
    let downloadable = may_have_file(std::slice::from_ref(bot), caller.user.as_ref());
    let pending = versions.iter().any(|version| version.status == VersionStatus::Pending);
    let faults = bot_faults(&page);
    Ok(layout(&caller, &bot.name, html! {
        h1 { (bot.name) }
        p { "A " a href={ "/games/" (bot.game) } { (bot.game) } " bot by " (bot.owner_name) "." @if bot.disabled { " Disabled by an admin: it plays no ranked matches." } }
        @if bot.private {
            p #private { "Private: its files are served only to its owner, the admins and the ladder's trusted workers, which play its matches. Its matches and ratings are public." }
        }
        @if mine {
            form method="post" action={ "/bots/" (bot.id) "/private" } {
                input type="hidden" name="csrf" value=(caller.csrf.clone().unwrap_or_default());
                input type="hidden" name="private" value=(if bot.private { "off" } else { "on" });
                button type="submit" { (if bot.private { "Make it public" } else { "Make it private" }) }
            }
        }
        h2 { "Versions" }
        div #versions data-pending=(if pending { "yes" } else { "no" }) data-bot=(bot.id) {
            @for version in versions.iter().rev() {
                section.version {
                    h3 { "Version " span.mono { (short(&version.sha256)) } " — " span class={ "status " (version.status.as_str()) } { (version.status.as_str()) } }
                    @if let Some(reason) = &version.reason { p.reason { (reason) } }
                    @if let Some(digest) = &version.data_digest {
                        p.data { "Data folder " span.mono { (short(digest)) }
                            @if downloadable { " (" a href={ "/blobs/data/" (digest) ".tar" } { "download" } ")" } }
                    }
                    table.steps {
                        @for step in &version.steps {
                            tr { td { (step.step) } td { (if step.ok { "ok" } else { "refused" }) } td { (step.detail) } }
                        }
                    }
                    (rating_history(&ratings.iter().filter(|point| point.version_id == version.id).collect::<Vec<_>>()))
                    @if downloadable { p { a href={ "/versions/" (version.id) "/bot.wasm" } { "Download this version" } } }
                }
            }
        }
        @if mine && !opponents.is_empty() {
            h2 { "Scrimmage" }
            form method="post" action={ "/bots/" (bot.id) "/scrimmage" } {
                input type="hidden" name="csrf" value=(caller.csrf.clone().unwrap_or_default());
                label { "Against " select name="opponent" { @for other in opponents { option value=(other.id) { (other.name) } } } }
                button type="submit" { "Play an unranked match" }
            }
        }
        @if !faults.is_empty() {
            h2 { "Faults in its latest matches" }
            (faults_table(&faults))
        }
        h2 { "Matches" }
        (matches_table(matches, names))
    })
    .into_response())
}

/// A version's rating history (`points`, oldest first): a chart and its latest points; nothing
/// before its first rated result.
fn rating_history(points: &[&RatingPoint]) -> Markup {
    let mut points: Vec<&RatingPoint> = points
        .iter()
        .copied()
        .filter(|point| point.rating.is_finite() && point.interval.iter().all(|bound| bound.is_finite()))
        .collect();
    // In the order of the results they saw (nodes sharing a database may record out of order).
    points.sort_by_key(|point| point.results);
    if points.is_empty() {
        return html! {};
    }
    html! {
        div.rating-history {
            (rating_chart(&points))
            table.ratings {
                thead { tr { th { "Ranked results" } th { "Its matches" } th { "Rating" } th { "95% interval" } } }
                tbody {
                    @for point in points.iter().rev().take(LISTED_POINTS) {
                        tr {
                            td.num { (point.results) }
                            td.num { (point.matches) }
                            td.num { (format!("{:.0}", point.rating)) }
                            td.num { (format!("{:.0} – {:.0}", point.interval[0], point.interval[1])) }
                        }
                    }
                }
            }
        }
    }
}

/// A rating history as a small line chart, drawn here as inline SVG (no script; the stylesheet
/// colours it by class): the rating against the ladder's count of ranked results when it was
/// fitted, its 95% interval as a band around it, the range of each axis at its ends. `points`
/// are finite, oldest first, and not empty.
fn rating_chart(points: &[&RatingPoint]) -> Markup {
    const WIDTH: f64 = 480.0;
    const HEIGHT: f64 = 150.0;
    // Room for the rating labels on the left and the results labels below.
    const LEFT: f64 = 44.0;
    const RIGHT: f64 = 10.0;
    const TOP: f64 = 10.0;
    const BOTTOM: f64 = 22.0;
    let first = points.first().map_or(0, |point| point.results);
    let last = points.last().map_or(0, |point| point.results);
    let mut low = points.iter().map(|point| point.interval[0].min(point.rating)).fold(f64::INFINITY, f64::min);
    let mut high = points.iter().map(|point| point.interval[1].max(point.rating)).fold(f64::NEG_INFINITY, f64::max);
    if high - low < 20.0 {
        let middle = (high + low) / 2.0;
        (low, high) = (middle - 10.0, middle + 10.0);
    }
    let x = |results: u64| {
        if last > first {
            LEFT + (results.saturating_sub(first)) as f64 / (last - first) as f64 * (WIDTH - LEFT - RIGHT)
        } else {
            (LEFT + WIDTH - RIGHT) / 2.0
        }
    };
    let y = |rating: f64| TOP + (high - rating) / (high - low) * (HEIGHT - TOP - BOTTOM);
    let at = |results: u64, rating: f64| format!("{:.1},{:.1}", x(results), y(rating));
    let line: Vec<String> = points.iter().map(|point| at(point.results, point.rating)).collect();
    let band: Vec<String> = points
        .iter()
        .map(|point| at(point.results, point.interval[1]))
        .chain(points.iter().rev().map(|point| at(point.results, point.interval[0])))
        .collect();
    let (end_x, end_y, end_low, end_high) = points.last().map_or((0.0, 0.0, 0.0, 0.0), |point| {
        (x(point.results), y(point.rating), y(point.interval[0]), y(point.interval[1]))
    });
    let summary = format!(
        "Rating from {:.0} to {:.0} over ranked results {first} to {last}",
        points.first().map_or(0.0, |point| point.rating),
        points.last().map_or(0.0, |point| point.rating)
    );
    html! {
        svg.chart viewBox={ "0 0 " (WIDTH) " " (HEIGHT) } role="img" aria-label=(summary) {
            title { (summary) }
            line.axis x1=(LEFT) y1=(TOP) x2=(LEFT) y2=(HEIGHT - BOTTOM) {}
            line.axis x1=(LEFT) y1=(HEIGHT - BOTTOM) x2=(WIDTH - RIGHT) y2=(HEIGHT - BOTTOM) {}
            polygon.band points=(band.join(" ")) {}
            polyline.rating points=(line.join(" ")) {}
            // The latest interval as a bar (the band has no width at a single point).
            line.interval x1=(format!("{end_x:.1}")) y1=(format!("{end_low:.1}")) x2=(format!("{end_x:.1}")) y2=(format!("{end_high:.1}")) {}
            circle.last cx=(format!("{end_x:.1}")) cy=(format!("{end_y:.1}")) r="3" {}
            text.label x=(LEFT - 4.0) y=(TOP + 8.0) text-anchor="end" { (format!("{high:.0}")) }
            text.label x=(LEFT - 4.0) y=(HEIGHT - BOTTOM) text-anchor="end" { (format!("{low:.0}")) }
            @if last > first { text.label x=(LEFT) y=(HEIGHT - 6.0) { (first) } }
            text.label x=(WIDTH - RIGHT) y=(HEIGHT - 6.0) text-anchor="end" { (last) " ranked results" }
        }
    }
}

/// One fault of a bot's seat, for its page.
struct BotFaultRow<'a> {
    match_id: i64,
    fault: &'a SeatFault,
}

/// The faults of the bot's seats in its latest matches, newest match first (at most
/// [`LISTED_FAULTS`]). A match recorded without its faults' list (played by a NATS worker)
/// adds none.
fn bot_faults(page: &BotPage) -> Vec<BotFaultRow<'_>> {
    let own: BTreeSet<i64> = page.versions.iter().map(|version| version.id).collect();
    page.matches
        .iter()
        .flat_map(|one| {
            one.seats
                .iter()
                .filter(|seat| own.contains(&seat.version_id))
                .filter_map(|seat| seat.outcome.as_ref())
                .flat_map(move |outcome| {
                    outcome.faults.iter().map(move |fault| BotFaultRow { match_id: one.id, fault })
                })
        })
        .take(LISTED_FAULTS)
        .collect()
}

/// The table of a bot's faults: match, turn, kind and what happened (the bot's own words, escaped).
fn faults_table(faults: &[BotFaultRow<'_>]) -> Markup {
    html! {
        table.faults {
            thead { tr { th { "Match" } th { "Turn" } th { "Kind" } th { "What happened" } } }
            tbody {
                @for row in faults {
                    tr {
                        td { a href={ "/matches/" (row.match_id) } { "#" (row.match_id) } }
                        td.num { @if row.fault.turn == 0 { "start-up" } @else { (row.fault.turn) } }
                        td { (row.fault.kind) }
                        td.detail { (row.fault.detail) }
                    }
                }
            }
        }
    }
}

/// `opponent` and the CSRF token.
#[derive(Deserialize)]
struct ScrimmageForm {
    csrf: String,
    opponent: i64,
}

async fn scrimmage_post(
    State(service): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Form(form): Form<ScrimmageForm>,
) -> PageResult {
    let user = signed_in(&service, &headers, &form.csrf).await?;
    let ids = blocking(&service, move |service| queue_scrimmage(service, &user, id, form.opponent)).await?;
    Ok(Redirect::to(&format!("/matches/{}", ids.first().copied().unwrap_or_default())).into_response())
}

/// `private` (`on` or `off`) and the CSRF token.
#[derive(Deserialize)]
struct PrivateForm {
    csrf: String,
    private: String,
}

/// The bot page's form: the owner makes the bot private, or public again.
async fn private_post(
    State(service): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Form(form): Form<PrivateForm>,
) -> PageResult {
    let user = signed_in(&service, &headers, &form.csrf).await?;
    let private = match form.private.as_str() {
        "on" => true,
        "off" => false,
        other => return Err(WebError::BadRequest(format!("private is on or off, not {other:?}")).into()),
    };
    blocking(&service, move |service| set_private(service, &user, id, private)).await?;
    Ok(Redirect::to(&format!("/bots/{id}")).into_response())
}

/// The signed-in account of a form's request, whose CSRF token must be the session's.
async fn signed_in(service: &Shared, headers: &HeaderMap, csrf: &str) -> Result<crate::store::User, WebError> {
    let caller = caller(service, headers).await?;
    let (Some(user), Some(expected)) = (caller.user, caller.csrf) else {
        return Err(WebError::Unauthorized("log in first".into()));
    };
    if !same_secret(csrf, &expected) {
        return Err(WebError::Forbidden("the form's CSRF token does not match your session: reload the page".into()));
    }
    Ok(user)
}

async fn match_page(State(service): State<Shared>, headers: HeaderMap, Path(id): Path<i64>) -> PageResult {
    let caller = caller(&service, &headers).await?;
    let viewer = caller.user.clone();
    let (one, seats, budget, downloadable) = blocking(&service, move |service| {
        let one = service.store.match_by_id(id)?.ok_or_else(|| WebError::NotFound(format!("match {id}")))?;
        super::hidden_match(service, &one, viewer.as_ref())?;
        let seats: Vec<VersionView> =
            one.seats.iter().map(|seat| version_view(service, seat.version_id)).collect::<Result<_, _>>()?;
        // A private bot's file has no link but for its owner and the admins.
        let downloadable: Vec<bool> = seats
            .iter()
            .map(|view| Ok(may_have_file(&service.store.bots_with_file(&view.version)?, viewer.as_ref())))
            .collect::<Result<_, WebError>>()?;
        let budget = service.settings.budget(&one.game);
        Ok((one, seats, budget, downloadable))
    })
    .await?;
    let mut command = format!("arena match --game {} --seed {}", one.game, one.seed);
    let default = arena_host::Budget::default();
    if budget.turn_fuel != default.turn_fuel {
        command += &format!(" --turn-fuel {}", budget.turn_fuel);
    }
    if budget.game_fuel != default.game_fuel {
        command += &format!(" --game-fuel {}", budget.game_fuel);
    }
    if budget.memory_mib != default.memory_mib {
        command += &format!(" --memory-mib {}", budget.memory_mib);
    }
    for seat in &seats {
        command += &format!(" {}.wasm", short(&seat.version));
    }
    Ok(layout(&caller, &format!("Match {}", one.id), html! {
        h1 { "Match #" (one.id) }
        p { (one.kind.as_str()) " " a href={ "/games/" (one.game) } { (one.game) } ", seed " span.mono { (one.seed) } ", " (one.state.as_str())
            @if let Some(turns) = one.turns { ", " (turns) " turns" } "." }
        @if let Some(error) = &one.error { p.reason { (error) } }
        table {
            thead { tr { th { "Seat" } th { "Bot" } th { "Version" } th { "Score" } th { "Rank" } th { "Traps" } th { "Invalid" } th { "Skipped" } th { "Forfeit" } th { "Fuel" } } }
            tbody {
                @for (index, ((seat, view), downloadable)) in one.seats.iter().zip(&seats).zip(&downloadable).enumerate() {
                    tr {
                        td.num { (index) }
                        td { a href={ "/bots/" (view.bot_id) } { (view.bot) } }
                        @if *downloadable {
                            td.mono { a href={ "/versions/" (view.version_id) "/bot.wasm" } download={ (short(&view.version)) ".wasm" } { (short(&view.version)) } }
                        } @else {
                            td.mono title="a private bot's file" { (short(&view.version)) " (private)" }
                        }
                        @if let Some(outcome) = &seat.outcome {
                            td.num { (outcome.player.score) } td.num { (outcome.player.rank) } td.num { (outcome.player.traps) }
                            td.num { (outcome.player.invalid_actions) } td.num { (outcome.player.skipped_turns) }
                            td { (if outcome.player.forfeit { "yes" } else { "no" }) } td.num { (outcome.player.fuel_total) }
                        } @else {
                            td colspan="7" { "—" }
                        }
                    }
                }
            }
        }
        @if one.state == MatchState::Done {
            h2 { "Reproduce it" }
            @if downloadable.iter().all(|downloadable| *downloadable) {
                p { "Download both bots (the version links above) and run, with the same arena release:" }
            } @else {
                p { "A private bot's file is not public: its owner (or an admin) runs, with the same arena release:" }
            }
            pre.command { (command) }
            p { a href={ "/matches/" (one.id) "/replay.json" } download={ "match-" (one.id) ".json" } { "Download the replay" } }
            iframe.viewer src={ "/matches/" (one.id) "/viewer" } title="replay viewer" {}
        }
    })
    .into_response())
}

/// The replay of a done match `viewer` may see, as JSON text, and the match.
fn replay_text(service: &Service, id: i64, viewer: Option<&crate::store::User>) -> Result<(Match, String), WebError> {
    let one = service.store.match_by_id(id)?.ok_or_else(|| WebError::NotFound(format!("match {id}")))?;
    super::hidden_match(service, &one, viewer)?;
    let text = service.replay_text(&one)?;
    Ok((one, text))
}

/// `replay` with each seat's bot named as on the ladder (`NAME@SHA256 PREFIX`) for the viewer:
/// a bot file in the blob store is named by its sha256, which is what the replay records (and
/// what `arena replay verify` of the download expects, so the download keeps it).
fn with_ladder_names(service: &Service, one: &Match, replay: &str) -> Result<String, WebError> {
    let versions: Vec<i64> = one.seats.iter().map(|seat| seat.version_id).collect();
    let names = service.store.bot_names(&versions)?;
    let mut json: serde_json::Value =
        serde_json::from_str(replay).map_err(|err| WebError::Internal(format!("replay of match {}: {err}", one.id)))?;
    for (seat, version) in versions.iter().enumerate() {
        let Some(name) = names.get(version) else { continue };
        let sha256 = json["bots"][seat]["sha256"].as_str().unwrap_or_default();
        let shown = format!("{name}@{}", sha256.get(..8).unwrap_or(sha256));
        if let Some(bot) = json["bots"].get_mut(seat).and_then(serde_json::Value::as_object_mut) {
            bot.insert("name".into(), shown.clone().into());
        }
        if let Some(player) = json["result"]["players"].get_mut(seat).and_then(serde_json::Value::as_object_mut) {
            player.insert("bot".into(), shown.into());
        }
    }
    Ok(json.to_string())
}

async fn replay_download(State(service): State<Shared>, headers: HeaderMap, Path(id): Path<i64>) -> PageResult {
    let viewer = super::any_caller(&service, &headers).await?;
    let (_, text) = blocking(&service, move |service| replay_text(service, id, viewer.as_ref())).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}

/// The viewer's page of a match: arena-view's page, whose inline scripts and styles the policy
/// allows by their sha256 and nothing else.
async fn viewer(State(service): State<Shared>, headers: HeaderMap, Path(id): Path<i64>) -> PageResult {
    let caller = super::any_caller(&service, &headers).await?;
    let page = blocking(&service, move |service| {
        let (one, text) = replay_text(service, id, caller.as_ref())?;
        let game = one.game.clone();
        let text = with_ladder_names(service, &one, &text)?;
        // A name of its own per request: two views of one match at once must not share a file.
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!("view-{id}-{}-{n}.json", std::process::id());
        let scratch = service.settings.data.join("replays").join("tmp").join(name);
        std::fs::write(&scratch, text).map_err(|err| WebError::Internal(err.to_string()))?;
        let page = arena_view::page_of_replay(&game, &scratch);
        let _ = std::fs::remove_file(&scratch);
        page.map_err(|err| WebError::Internal(err.to_string()))
    })
    .await?;
    let policy = format!(
        "default-src 'none'; script-src {}; style-src {}; img-src data:; frame-ancestors 'self'; base-uri 'none'; form-action 'none'",
        inline_hashes(&page, "script"),
        inline_hashes(&page, "style")
    );
    let mut response = ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response();
    if let Ok(value) = HeaderValue::from_str(&policy) {
        response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, value);
    }
    Ok(response)
}

/// The CSP sources allowing each inline `<TAG>` element of `page` (those without a `type`
/// attribute: a data block is not run) by the sha256 of its content.
pub fn inline_hashes(page: &str, tag: &str) -> String {
    use base64::Engine;
    use sha2::{Digest, Sha256};
    let encode = |digest: &[u8]| base64::engine::general_purpose::STANDARD.encode(digest);
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let mut sources = Vec::new();
    let mut rest = page;
    while let Some(start) = rest.find(&open) {
        let body = &rest[start + open.len()..];
        let Some(end) = body.find(&close) else { break };
        sources.push(format!("'sha256-{}'", encode(&Sha256::digest(&body.as_bytes()[..end]))));
        rest = &body[end + close.len()..];
    }
    if sources.is_empty() { "'none'".to_owned() } else { sources.join(" ") }
}

/// A version's file: public, but for a private bot's (its owner and the admins only, by session
/// or API token; 403 for anyone else).
async fn bot_download(State(service): State<Shared>, headers: HeaderMap, Path(id): Path<i64>) -> PageResult {
    let viewer = super::any_caller(&service, &headers).await?;
    let bytes = blocking(&service, move |service| {
        let version = service.store.version(id)?.ok_or_else(|| WebError::NotFound(format!("version {id}")))?;
        if !may_have_file(&service.store.bots_with_file(&version.sha256)?, viewer.as_ref()) {
            return Err(WebError::Forbidden(format!("version {id}: {PRIVATE_FILE}")));
        }
        let path = service.bot_file(&version)?;
        std::fs::read(path).map_err(|err| WebError::Internal(err.to_string()))
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, "application/wasm")], bytes).into_response())
}

async fn live_page(State(service): State<Shared>, headers: HeaderMap) -> PageResult {
    let caller = caller(&service, &headers).await?;
    let (counts, recent) = blocking(&service, |service| {
        let counts = service.store.queue_counts()?;
        let recent = service.store.recent_matches(None, LATEST_MATCHES)?;
        Ok((counts, named_matches_table(service, &recent)?))
    })
    .await?;
    Ok(layout(&caller, "Live", html! {
        h1 { "Live" }
        p #queue data-refresh="/api/queue" {
            span #queued { (counts.queued) } " queued, " span #running { (counts.running) } " running, " span #done { (counts.done) } " played."
        }
        h2 { "Results as they land" }
        ul #results {}
        h2 { "Latest matches" }
        (recent)
    })
    .into_response())
}

/// The form cookie's token, made when the browser has none; the response must set it.
fn form_token(headers: &HeaderMap) -> Result<(String, Option<String>), WebError> {
    match cookie(headers, FORM_COOKIE) {
        Some(token) if token.len() == 64 => Ok((token.to_owned(), None)),
        _ => {
            let token = new_token("").map_err(|err| WebError::Internal(err.to_string()))?;
            let set = format!("{FORM_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict");
            Ok((token, Some(set)))
        }
    }
}

fn with_cookie(mut response: Response, set: Option<String>) -> Response {
    if let Some(value) = set.and_then(|set| HeaderValue::from_str(&set).ok()) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
    response
}

fn credentials_form(action: &str, title: &str, csrf: &str, error: Option<&str>) -> Markup {
    layout(
        &Caller { user: None, csrf: None },
        title,
        html! {
            h1 { (title) }
            @if let Some(error) = error { p.reason { (error) } }
            form method="post" action=(action) {
                input type="hidden" name="csrf" value=(csrf);
                label { "Name " input type="text" name="name" required autocomplete="username"; }
                label { "Password " input type="password" name="password" required minlength="8" autocomplete=(if action == "/signup" { "new-password" } else { "current-password" }); }
                button type="submit" { (title) }
            }
        },
    )
}

async fn signup_form(headers: HeaderMap) -> PageResult {
    let (token, set) = form_token(&headers)?;
    Ok(with_cookie(credentials_form("/signup", "Sign up", &token, None).into_response(), set))
}

async fn login_form(headers: HeaderMap) -> PageResult {
    let (token, set) = form_token(&headers)?;
    Ok(with_cookie(credentials_form("/login", "Log in", &token, None).into_response(), set))
}

/// A sign-up or log-in form.
#[derive(Deserialize)]
struct Credentials {
    csrf: String,
    name: String,
    password: String,
}

/// Checks the double-submitted form token.
fn check_form_token(headers: &HeaderMap, csrf: &str) -> Result<(), WebError> {
    match cookie(headers, FORM_COOKIE) {
        Some(expected) if same_secret(expected, csrf) => Ok(()),
        _ => Err(WebError::Forbidden("the form's CSRF token does not match: reload the page".into())),
    }
}

/// Opens a session for `user`: the cookie to set.
fn open_session(service: &Service, user: i64) -> Result<String, WebError> {
    let token = new_token("").map_err(|err| WebError::Internal(err.to_string()))?;
    let csrf = new_token("").map_err(|err| WebError::Internal(err.to_string()))?;
    service.store.create_session(user, &token_sha256(&token), &csrf, unix_now() + SESSION_SECONDS)?;
    Ok(format!("{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={SESSION_SECONDS}"))
}

async fn signup_post(State(service): State<Shared>, headers: HeaderMap, Form(form): Form<Credentials>) -> PageResult {
    check_form_token(&headers, &form.csrf)?;
    let outcome = blocking(&service, move |service| match create_account(service, &form.name, &form.password) {
        Ok(user) => Ok(Ok(open_session(service, user.id)?)),
        Err(WebError::BadRequest(why) | WebError::Conflict(why)) => Ok(Err(why)),
        Err(err) => Err(err),
    })
    .await?;
    match outcome {
        Ok(session) => Ok(with_cookie(Redirect::to("/account").into_response(), Some(session))),
        Err(why) => {
            let page = credentials_form("/signup", "Sign up", &form_csrf(&headers), Some(&why));
            Ok((StatusCode::BAD_REQUEST, page).into_response())
        }
    }
}

fn form_csrf(headers: &HeaderMap) -> String {
    cookie(headers, FORM_COOKIE).unwrap_or_default().to_owned()
}

async fn login_post(State(service): State<Shared>, headers: HeaderMap, Form(form): Form<Credentials>) -> PageResult {
    check_form_token(&headers, &form.csrf)?;
    let session = blocking(&service, move |service| match log_in(service, &form.name, &form.password) {
        Ok(user) => Ok(Ok(open_session(service, user.id)?)),
        Err(WebError::Unauthorized(why)) => Ok(Err(why)),
        Err(err) => Err(err),
    })
    .await?;
    match session {
        Ok(session) => Ok(with_cookie(Redirect::to("/account").into_response(), Some(session))),
        Err(why) => {
            let page = credentials_form("/login", "Log in", &form_csrf(&headers), Some(&why));
            Ok((StatusCode::UNAUTHORIZED, page).into_response())
        }
    }
}

/// A form with only its CSRF token.
#[derive(Deserialize)]
struct CsrfOnly {
    csrf: String,
}

async fn logout_post(State(service): State<Shared>, headers: HeaderMap, Form(form): Form<CsrfOnly>) -> PageResult {
    signed_in(&service, &headers, &form.csrf).await?;
    if let Some(token) = cookie(&headers, SESSION_COOKIE).map(str::to_owned) {
        blocking(&service, move |service| Ok(service.store.delete_session(&token_sha256(&token))?)).await?;
    }
    let clear = format!("{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    Ok(with_cookie(Redirect::to("/").into_response(), Some(clear)))
}

async fn account_page(State(service): State<Shared>, headers: HeaderMap) -> PageResult {
    account(&service, &headers, None).await
}

async fn account(service: &Shared, headers: &HeaderMap, new_token: Option<String>) -> PageResult {
    let caller = caller(service, headers).await?;
    let Some(user) = caller.user.clone() else { return Ok(Redirect::to("/login").into_response()) };
    let id = user.id;
    let (labels, bots) =
        blocking(service, move |service| Ok((service.store.token_labels(id)?, service.store.bots_of_owner(id)?)))
            .await?;
    Ok(layout(&caller, "Account", html! {
        h1 { (user.name) }
        h2 { "Your bots" }
        @if bots.is_empty() { p { "None yet: " a href="/upload" { "upload one" } "." } }
        ul { @for bot in &bots { li { a href={ "/bots/" (bot.id) } { (bot.name) } " (" (bot.game) ")" } } }
        h2 { "API tokens" }
        p { "For " code { "arena submit" } " and scripts: " code { "Authorization: Bearer TOKEN" } ". A token is shown once." }
        @if let Some(token) = &new_token { p.token { "New token: " code #new-token { (token) } } }
        ul #tokens { @for label in &labels { li { (label) } } }
        form method="post" action="/account/tokens" {
            input type="hidden" name="csrf" value=(caller.csrf.clone().unwrap_or_default());
            label { "Label " input type="text" name="label" required maxlength="60"; }
            button type="submit" { "Create a token" }
        }
    })
    .into_response())
}

/// A token's label and the CSRF token.
#[derive(Deserialize)]
struct TokenForm {
    csrf: String,
    label: String,
}

async fn token_post(State(service): State<Shared>, headers: HeaderMap, Form(form): Form<TokenForm>) -> PageResult {
    let user = signed_in(&service, &headers, &form.csrf).await?;
    let made = blocking(&service, move |service| create_api_token(service, user.id, &form.label)).await?;
    account(&service, &headers, Some(made.token)).await
}

async fn upload_form(State(service): State<Shared>, headers: HeaderMap) -> PageResult {
    let caller = caller(&service, &headers).await?;
    if caller.user.is_none() {
        return Ok(Redirect::to("/login").into_response());
    }
    Ok(layout(&caller, "Upload", html! {
        h1 { "Upload a bot" }
        p { "A component exporting the game's WIT world, or a WASI command speaking its line protocol where the game has one. A new name makes a new bot; an existing one of yours gets a new version." }
        p { "A bot that reads a data folder (opening books, tables, weights) uploads a tar archive instead, gzip-compressed or not, holding " code { "bot.wasm" } " and its " code { "data/" } " folder: " code { "arena submit --data DIR" } " makes one, or " code { "tar -czf bot.tar.gz bot.wasm data" } "." }
        form method="post" action="/upload" enctype="multipart/form-data" {
            input type="hidden" name="csrf" value=(caller.csrf.clone().unwrap_or_default());
            label { "Game " select name="game" { @for game in arena_host::registry::game_names() { option value=(game) { (game) } } } }
            label { "Bot name " input type="text" name="name" required maxlength="40" pattern="[A-Za-z0-9_\\-]+"; }
            label { input type="checkbox" name="private" value="on"; " Private: its files served only to you, the admins and the ladder's trusted workers (unchecked leaves an existing bot as it is)" }
            label { "File " input type="file" name="file" required accept=".wasm,.tar,.tar.gz,.tgz"; }
            button type="submit" { "Upload" }
        }
    })
    .into_response())
}

/// `POST /upload`: the form's fields come first (CSRF token, game, name), then the file, which
/// streams into the blob store under the cap.
pub async fn upload_post(State(service): State<Shared>, headers: HeaderMap, mut multipart: Multipart) -> PageResult {
    let mut fields: BTreeMap<String, String> = BTreeMap::new();
    let mut writer = None;
    while let Some(field) =
        multipart.next_field().await.map_err(|err| WebError::BadRequest(format!("upload: {err}")))?
    {
        let name = field.name().unwrap_or_default().to_owned();
        if name == "file" {
            let user =
                signed_in(&service, &headers, fields.get("csrf").map(String::as_str).unwrap_or_default()).await?;
            fields.insert("user".into(), user.id.to_string());
            let game = fields.get("game").cloned().unwrap_or_default();
            let bot = fields.get("name").cloned().unwrap_or_default();
            blocking(&service, move |service| Ok(service.may_upload(&user, &game, &bot)?)).await?;
            writer = Some(receive(&service, field).await?);
            break;
        }
        let value = field.text().await.map_err(|err| WebError::BadRequest(format!("upload: {err}")))?;
        fields.insert(name, value.chars().take(200).collect());
    }
    let Some(upload) = writer else { return Err(WebError::BadRequest("upload: no file".into()).into()) };
    let caller = caller(&service, &headers).await?;
    let user = caller.user.ok_or_else(|| WebError::Unauthorized("log in first".into()))?;
    let game = fields.get("game").cloned().unwrap_or_default();
    let name = fields.get("name").cloned().unwrap_or_default();
    // A checkbox: sent (before the file) when ticked, absent otherwise.
    let private = fields.get("private").map(|_| true);
    let bot = blocking(&service, move |service| Ok(service.upload(&user, &game, &name, upload, private)?.0)).await?;
    Ok(Redirect::to(&format!("/bots/{}", bot.id)).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Bot, MatchKind, Seat, SeatOutcome, Version};
    use arena_host::record::PlayerSummary;

    fn point(results: u64, rating: f64) -> RatingPoint {
        RatingPoint { version_id: 1, results, rating, interval: [rating - 50.0, rating + 50.0], matches: results / 2 }
    }

    /// The numbers of an SVG `points` attribute: (x, y) pairs.
    fn pairs(svg: &str, element: &str) -> Vec<(f64, f64)> {
        let start = svg.find(&format!("<{element} ")).unwrap();
        let rest = &svg[start..];
        let value = rest.split("points=\"").nth(1).unwrap().split('"').next().unwrap();
        value
            .split(' ')
            .map(|pair| {
                let (x, y) = pair.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect()
    }

    #[test]
    fn a_rating_chart_draws_the_rating_left_to_right_higher_up_with_its_band_and_axes() {
        let points = [point(10, 1400.0), point(20, 1450.0), point(40, 1600.0)];
        let svg = rating_chart(&points.iter().collect::<Vec<_>>()).into_string();
        assert!(svg.starts_with("<svg class=\"chart\" viewBox=\"0 0 480 150\""), "{svg}");
        let line = pairs(&svg, "polyline");
        assert_eq!(line.len(), 3);
        assert!(line.windows(2).all(|pair| pair[0].0 < pair[1].0), "left to right: {line:?}");
        assert!(line.windows(2).all(|pair| pair[0].1 > pair[1].1), "a higher rating is higher up: {line:?}");
        assert!(line.iter().all(|(x, y)| (44.0..=470.0).contains(x) && (10.0..=128.0).contains(y)), "{line:?}");
        assert_eq!(pairs(&svg, "polygon").len(), 6, "the band: the highs, then the lows back");
        for label in [">1650<", ">1350<", ">10<", ">40 ranked results<"] {
            assert!(svg.contains(label), "{label} in {svg}");
        }
        assert!(!svg.contains("style="), "no inline style: the policy would refuse it");
    }

    #[test]
    fn a_single_point_or_flat_history_is_drawn_and_no_history_or_non_finite_points_draw_nothing() {
        let one = [point(7, 1500.0)];
        let svg = rating_chart(&one.iter().collect::<Vec<_>>()).into_string();
        let line = pairs(&svg, "polyline");
        assert_eq!(line.len(), 1);
        assert!(line[0].0.is_finite() && line[0].1.is_finite(), "{svg}");
        assert!(svg.contains("<circle class=\"last\"") && svg.contains("<line class=\"interval\""), "{svg}");
        assert_eq!(svg.matches(">7 ranked results<").count(), 1, "one label for one point: {svg}");
        assert!(!svg.contains(">7<"), "{svg}");
        assert_eq!(rating_history(&[]).into_string(), "");
        let broken = RatingPoint { rating: f64::NAN, ..point(8, 1500.0) };
        assert_eq!(rating_history(&[&broken]).into_string(), "");
        let history = rating_history(&[&one[0], &broken]).into_string();
        assert!(history.contains("<table class=\"ratings\"") && history.contains(">1500<"), "{history}");
        let (early, late) = (point(5, 1400.0), point(9, 1600.0));
        let history = rating_history(&[&late, &early]).into_string();
        assert!(history.find(">1600<") < history.find(">1400<"), "the latest first: {history}");
    }

    fn outcome(faults: Vec<SeatFault>) -> SeatOutcome {
        let player = PlayerSummary {
            bot: "a".into(),
            sha256: String::new(),
            data: None,
            score: 0,
            rank: 1,
            forfeit: false,
            forfeit_reason: None,
            fuel_total: 0,
            fuel_max_turn: 0,
            skipped_turns: 0,
            traps: faults.len() as u32,
            invalid_actions: 0,
        };
        SeatOutcome { player, turns: 3, faults }
    }

    fn played(id: i64, seats: Vec<(i64, Option<SeatOutcome>)>, winner: Option<u32>) -> Match {
        Match {
            id,
            game: "azul".into(),
            seed: 1,
            kind: MatchKind::Ranked,
            state: MatchState::Done,
            seats: seats.into_iter().map(|(version_id, outcome)| Seat { version_id, outcome }).collect(),
            winner,
            turns: Some(3),
            replay_sha256: None,
            digest: None,
            error: None,
        }
    }

    #[test]
    fn a_bot_page_lists_its_own_seats_faults_escaped_and_nothing_for_a_match_without_the_list() {
        let fault = |turn, detail: &str| SeatFault { turn, kind: "trap".into(), detail: detail.into() };
        let bot = Bot {
            id: 1,
            owner: 1,
            owner_name: "alice".into(),
            game: "azul".into(),
            name: "mine".into(),
            disabled: false,
            private: false,
        };
        let page = BotPage {
            bot,
            versions: vec![Version::pending(10, 1, "aa", 1)],
            matches: vec![
                // Newest first: a match a NATS worker played (counts, no list), then two with faults
                // on both sides.
                played(3, vec![(10, Some(outcome(Vec::new()))), (20, Some(outcome(Vec::new())))], Some(0)),
                played(
                    2,
                    vec![
                        (20, Some(outcome(vec![fault(1, "theirs")]))),
                        (10, Some(outcome(vec![fault(2, "<b>x</b>")]))),
                    ],
                    None,
                ),
                played(
                    1,
                    vec![(10, Some(outcome(vec![fault(0, "init: trap"), fault(5, "again")]))), (20, None)],
                    Some(9),
                ),
            ],
            names: BTreeMap::new(),
            opponents: Vec::new(),
            ratings: Vec::new(),
        };
        let rows = bot_faults(&page);
        let listed: Vec<(i64, u32)> = rows.iter().map(|row| (row.match_id, row.fault.turn)).collect();
        assert_eq!(listed, [(2, 2), (1, 0), (1, 5)], "its own seats' faults, newest match first");
        let html = faults_table(&rows).into_string();
        assert!(html.contains("&lt;b&gt;x&lt;/b&gt;") && !html.contains("<b>x</b>"), "escaped: {html}");
        assert!(html.contains("<a href=\"/matches/2\">#2</a>") && html.contains(">start-up<"), "{html}");
        // A winner's seat the match does not have is shown as unknown, not a panic.
        let table = matches_table(&page.matches, &BTreeMap::from([(10, "mine".to_owned())])).into_string();
        assert!(table.contains("mine vs ?") && table.contains("<td>?</td>") && table.contains(">draw<"), "{table}");
    }
}
