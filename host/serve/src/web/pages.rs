//! The pages, rendered on the server with maud (every interpolated string is escaped: names,
//! logs and refusal reasons are the competitors' words). Forms carry a CSRF token: the session's
//! for a signed-in account, a cookie's (double submit) for signing up and logging in. The
//! pages' only script is `/static/app.js` (live updates), served from here like the stylesheet.

use super::api::{VersionView, queue_scrimmage, receive, version_view};
use super::{
    Caller, FORM_COOKIE, SESSION_COOKIE, SESSION_SECONDS, Shared, WebError, blocking, caller, cookie, unix_now,
};
use crate::auth::{check_name, hash_password, new_token, same_secret, token_sha256, verify_password};
use crate::ratings::Leaderboard;
use crate::service::Service;
use crate::store::{Match, MatchState, VersionStatus};
use axum::Router;
use axum::extract::{Form, Multipart, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use maud::{DOCTYPE, Markup, html};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The pages' routes (the upload form's POST streams its body: it is added in [`super::router`]).
pub fn routes() -> Router<Shared> {
    Router::new()
        .route("/", get(home))
        .route("/games/{game}", get(game_page))
        .route("/games/{game}/table", get(game_table))
        .route("/bots/{id}", get(bot_page))
        .route("/bots/{id}/scrimmage", post(scrimmage_post))
        .route("/matches/{id}", get(match_page))
        .route("/matches/{id}/viewer", get(viewer))
        .route("/matches/{id}/replay.json", get(replay_download))
        .route("/versions/{id}/bot.wasm", get(bot_download))
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

fn matches_table(service: &Service, matches: &[Match]) -> Result<Markup, WebError> {
    let mut names = BTreeMap::new();
    for one in matches {
        for seat in &one.seats {
            if let std::collections::btree_map::Entry::Vacant(vacant) = names.entry(seat.version_id) {
                vacant
                    .insert(version_view(service, seat.version_id).map(|view| view.bot).unwrap_or_else(|_| "?".into()));
            }
        }
    }
    Ok(html! {
        table.matches {
            thead { tr { th { "Match" } th { "Kind" } th { "Seats" } th { "Winner" } th { "Turns" } } }
            tbody {
                @for one in matches {
                    tr {
                        td { a href={ "/matches/" (one.id) } { "#" (one.id) } }
                        td { (one.kind.as_str()) }
                        td { @for (seat, taken) in one.seats.iter().enumerate() {
                            @if seat > 0 { " vs " }
                            (names.get(&taken.version_id).map(String::as_str).unwrap_or("?"))
                        } }
                        td { @match (one.state, one.winner) {
                            (MatchState::Done, Some(winner)) => (names.get(&one.seats[winner as usize].version_id).map(String::as_str).unwrap_or("?")),
                            (MatchState::Done, None) => "draw",
                            (state, _) => (state.as_str()),
                        } }
                        td.num { (one.turns.map(|turns| turns.to_string()).unwrap_or_default()) }
                    }
                }
            }
        }
    })
}

async fn game_page(State(service): State<Shared>, headers: HeaderMap, Path(game): Path<String>) -> PageResult {
    let caller = caller(&service, &headers).await?;
    let (board, recent) = blocking(&service, move |service| {
        let board = service.leaderboard(&game)?;
        let recent = service.store.recent_matches(Some(&game), 20)?;
        let recent = matches_table(service, &recent)?;
        Ok((board, recent))
    })
    .await?;
    Ok(layout(&caller, &board.game, html! {
        h1 { (board.game) }
        p { (board.matches) " ranked matches. Ratings are a Bradley-Terry fit of every result (Elo scale), refitted as results arrive." }
        div #leaderboard data-refresh={ "/games/" (board.game) "/table" } data-game=(board.game) { (leaderboard_table(&board)) }
        h2 { "Latest matches" }
        (recent)
    })
    .into_response())
}

async fn game_table(State(service): State<Shared>, Path(game): Path<String>) -> PageResult {
    let board = blocking(&service, move |service| Ok(service.leaderboard(&game)?)).await?;
    Ok(leaderboard_table(&board).into_response())
}

async fn bot_page(State(service): State<Shared>, headers: HeaderMap, Path(id): Path<i64>) -> PageResult {
    let caller = caller(&service, &headers).await?;
    let (bot, versions, matches, opponents) = blocking(&service, move |service| {
        let bot = service.store.bot(id)?.ok_or_else(|| WebError::NotFound(format!("bot {id}")))?;
        let versions: Vec<VersionView> =
            service.store.versions_of_bot(id)?.into_iter().map(|version| VersionView::of(&bot, version)).collect();
        let mut recent = Vec::new();
        for version in versions.iter().rev() {
            recent.extend(service.store.matches_of_version(version.version_id, 30)?);
        }
        recent.sort_by_key(|one| std::cmp::Reverse(one.id));
        recent.truncate(30);
        let matches = matches_table(service, &recent)?;
        let opponents: Vec<(i64, String)> = service
            .store
            .bots_of_game(&bot.game)?
            .into_iter()
            .filter(|other| other.id != bot.id)
            .map(|other| (other.id, other.name))
            .collect();
        Ok((bot, versions, matches, opponents))
    })
    .await?;
    let mine = caller.user.as_ref().is_some_and(|user| user.id == bot.owner);
    let pending = versions.iter().any(|version| version.status == VersionStatus::Pending);
    Ok(layout(&caller, &bot.name, html! {
        h1 { (bot.name) }
        p { "A " a href={ "/games/" (bot.game) } { (bot.game) } " bot by " (bot.owner_name) "." @if bot.disabled { " Disabled by an admin: it plays no ranked matches." } }
        h2 { "Versions" }
        div #versions data-pending=(if pending { "yes" } else { "no" }) data-bot=(bot.id) {
            @for version in versions.iter().rev() {
                section.version {
                    h3 { "Version " span.mono { (short(&version.version)) } " — " span class={ "status " (version.status.as_str()) } { (version.status.as_str()) } }
                    @if let Some(reason) = &version.reason { p.reason { (reason) } }
                    table.steps {
                        @for step in &version.steps {
                            tr { td { (step.step) } td { (if step.ok { "ok" } else { "refused" }) } td { (step.detail) } }
                        }
                    }
                    p { a href={ "/versions/" (version.version_id) "/bot.wasm" } { "Download this version" } }
                }
            }
        }
        @if mine && !opponents.is_empty() {
            h2 { "Scrimmage" }
            form method="post" action={ "/bots/" (bot.id) "/scrimmage" } {
                input type="hidden" name="csrf" value=(caller.csrf.clone().unwrap_or_default());
                label { "Against " select name="opponent" { @for (id, name) in &opponents { option value=(id) { (name) } } } }
                button type="submit" { "Play an unranked match" }
            }
        }
        h2 { "Matches" }
        (matches)
    })
    .into_response())
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
    let (one, seats, budget) = blocking(&service, move |service| {
        let one = service.store.match_by_id(id)?.ok_or_else(|| WebError::NotFound(format!("match {id}")))?;
        let seats: Vec<VersionView> =
            one.seats.iter().map(|seat| version_view(service, seat.version_id)).collect::<Result<_, _>>()?;
        let budget = service.settings.budget(&one.game);
        Ok((one, seats, budget))
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
                @for (index, (seat, view)) in one.seats.iter().zip(&seats).enumerate() {
                    tr {
                        td.num { (index) }
                        td { a href={ "/bots/" (view.bot_id) } { (view.bot) } }
                        td.mono { a href={ "/versions/" (view.version_id) "/bot.wasm" } download={ (short(&view.version)) ".wasm" } { (short(&view.version)) } }
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
            p { "Download both bots (the version links above) and run, with the same arena release:" }
            pre.command { (command) }
            p { a href={ "/matches/" (one.id) "/replay.json" } download={ "match-" (one.id) ".json" } { "Download the replay" } }
            iframe.viewer src={ "/matches/" (one.id) "/viewer" } title="replay viewer" {}
        }
    })
    .into_response())
}

/// The replay of a done match, as JSON text.
fn replay_text(service: &Service, id: i64) -> Result<(String, String), WebError> {
    let one = service.store.match_by_id(id)?.ok_or_else(|| WebError::NotFound(format!("match {id}")))?;
    let sha = one.replay_sha256.ok_or_else(|| WebError::NotFound(format!("replay of match {id} (not played yet)")))?;
    let text =
        service.replays.get_compressed(&sha).map_err(|err| WebError::Internal(format!("replay {sha}: {err}")))?;
    Ok((one.game, text))
}

async fn replay_download(State(service): State<Shared>, Path(id): Path<i64>) -> PageResult {
    let (_, text) = blocking(&service, move |service| replay_text(service, id)).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text).into_response())
}

/// The viewer's page of a match: arena-view's page, whose inline scripts and styles the policy
/// allows by their sha256 and nothing else.
async fn viewer(State(service): State<Shared>, Path(id): Path<i64>) -> PageResult {
    let page = blocking(&service, move |service| {
        let (game, text) = replay_text(service, id)?;
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

async fn bot_download(State(service): State<Shared>, Path(id): Path<i64>) -> PageResult {
    let bytes = blocking(&service, move |service| {
        let version = service.store.version(id)?.ok_or_else(|| WebError::NotFound(format!("version {id}")))?;
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
        let recent = service.store.recent_matches(None, 20)?;
        Ok((counts, matches_table(service, &recent)?))
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
    let outcome = blocking(&service, move |service| {
        if let Err(err) = check_name("account", &form.name) {
            return Ok(Err(err.to_string()));
        }
        let hash = match hash_password(&form.password) {
            Ok(hash) => hash,
            Err(err) => return Ok(Err(err.to_string())),
        };
        match service.store.create_user(&form.name, &hash, false) {
            Ok(user) => Ok(Ok(open_session(service, user.id)?)),
            Err(crate::store::StoreError::Taken { .. }) => Ok(Err(format!("the name {:?} is taken", form.name))),
            Err(err) => Err(err.into()),
        }
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
    let session = blocking(&service, move |service| {
        let user = service.store.user_by_name(&form.name)?;
        match user {
            Some(user) if verify_password(&user.password_hash, &form.password) => {
                Ok(Some(open_session(service, user.id)?))
            }
            _ => Ok(None),
        }
    })
    .await?;
    match session {
        Some(session) => Ok(with_cookie(Redirect::to("/account").into_response(), Some(session))),
        None => {
            let page = credentials_form("/login", "Log in", &form_csrf(&headers), Some("wrong name or password"));
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
    let label: String = form.label.chars().take(60).collect();
    let token = blocking(&service, move |service| {
        let token = new_token("arena_").map_err(|err| WebError::Internal(err.to_string()))?;
        service.store.create_token(user.id, &token_sha256(&token), &label)?;
        Ok(token)
    })
    .await?;
    account(&service, &headers, Some(token)).await
}

async fn upload_form(State(service): State<Shared>, headers: HeaderMap) -> PageResult {
    let caller = caller(&service, &headers).await?;
    if caller.user.is_none() {
        return Ok(Redirect::to("/login").into_response());
    }
    Ok(layout(&caller, "Upload", html! {
        h1 { "Upload a bot" }
        p { "A component exporting the game's WIT world, or a WASI command speaking its line protocol where the game has one. A new name makes a new bot; an existing one of yours gets a new version." }
        form method="post" action="/upload" enctype="multipart/form-data" {
            input type="hidden" name="csrf" value=(caller.csrf.clone().unwrap_or_default());
            label { "Game " select name="game" { @for game in arena_host::registry::game_names() { option value=(game) { (game) } } } }
            label { "Bot name " input type="text" name="name" required maxlength="40" pattern="[A-Za-z0-9_\\-]+"; }
            label { "File " input type="file" name="file" required accept=".wasm"; }
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
            writer = Some(receive(&service, field).await?);
            break;
        }
        let value = field.text().await.map_err(|err| WebError::BadRequest(format!("upload: {err}")))?;
        fields.insert(name, value.chars().take(200).collect());
    }
    let Some(writer) = writer else { return Err(WebError::BadRequest("upload: no file".into()).into()) };
    let caller = caller(&service, &headers).await?;
    let user = caller.user.ok_or_else(|| WebError::Unauthorized("log in first".into()))?;
    let game = fields.get("game").cloned().unwrap_or_default();
    let name = fields.get("name").cloned().unwrap_or_default();
    let bot = blocking(&service, move |service| Ok(service.upload(&user, &game, &name, writer)?.0)).await?;
    Ok(Redirect::to(&format!("/bots/{}", bot.id)).into_response())
}
