//! `arena tournament report`: a tournament's results as a static site that opens from disk with
//! no network: `index.html` (the leaderboard, sortable by any column), one page per bot (its
//! matches, fuel statistics and faults) and, for every match whose replay was kept
//! (`arena tournament run --replays DIR`), its viewer page (`arena_view`) under `matches/`.
//! Bot names come from file names and are escaped wherever they are written.

use super::leaderboard::{self, Leaderboard, Standing};
use super::store::{SeatRow, Store, StoreError};
use arena_host::record::MatchResult;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Why a report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The database.
    #[error("the results database: {0}")]
    Store(#[from] StoreError),
    /// No tournament was run into the database.
    #[error("the database holds no tournament (run one into it first)")]
    Empty,
    /// A page could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// What a report wrote.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SiteReport {
    /// Bot pages.
    pub bot_pages: usize,
    /// Match viewer pages.
    pub match_pages: usize,
    /// Played matches with no kept replay (no viewer page).
    pub without_replay: usize,
    /// Replays that could not be turned into a page: (match id, why).
    pub unreadable: Vec<(String, String)>,
}

/// One played match as the report shows it.
struct Played {
    id: String,
    result: MatchResult,
    seats: Vec<SeatRow>,
    /// Its viewer page, relative to the site's root, when its replay was kept.
    page: Option<String>,
}

/// Writes the site of the database's current tournament into `out`, with a viewer page for each
/// match whose replay is in `replays` (`<match id>.json.gz` or `.json`).
pub fn write_site(store: &Store, out: &Path, replays: Option<&Path>) -> Result<SiteReport, ReportError> {
    let digest = store.current_spec()?.ok_or(ReportError::Empty)?;
    let board = leaderboard::read(store, Some(&digest))?.ok_or(ReportError::Empty)?;
    let mut seats: BTreeMap<String, Vec<SeatRow>> = BTreeMap::new();
    for seat in store.seats(&digest)? {
        seats.entry(seat.match_id.clone()).or_default().push(seat);
    }
    let mut report = SiteReport::default();
    let mut played = Vec::new();
    for (id, was_played, text) in store.matches(&digest)? {
        let Some(result) = was_played.then(|| serde_json::from_str::<MatchResult>(&text).ok()).flatten() else {
            continue;
        };
        let seats = seats.remove(&id).unwrap_or_default();
        played.push(Played { id, result, seats, page: None });
    }
    create_dir(&out.join("bots"))?;
    if replays.is_some() {
        create_dir(&out.join("matches"))?;
    }
    for one in &mut played {
        // A match id names files: only a well-formed one (64 hex digits) does, whatever the
        // database (merged from shards, perhaps edited) holds.
        let well_formed = one.id.len() == 64 && one.id.bytes().all(|byte| byte.is_ascii_hexdigit());
        let Some(replay) = replays.filter(|_| well_formed).and_then(|dir| kept_replay(dir, &one.id)) else {
            report.without_replay += 1;
            continue;
        };
        let page = arena_view::page_of_replay(&one.result.game, &replay).map_err(|err| err.to_string());
        match page {
            Ok(html) => {
                let name = format!("matches/{}.html", one.id);
                write(&out.join(&name), &html)?;
                one.page = Some(name);
                report.match_pages += 1;
            }
            Err(why) => report.unreadable.push((one.id.clone(), why)),
        }
    }
    write(&out.join("index.html"), &index_page(&board, &played))?;
    for standing in &board.leaderboard {
        write(&out.join(bot_page(standing)), &bot_page_html(standing, &board, &played))?;
        report.bot_pages += 1;
    }
    Ok(report)
}

/// The kept replay of match `id` in `dir`, compressed or not.
fn kept_replay(dir: &Path, id: &str) -> Option<PathBuf> {
    [format!("{id}.json.gz"), format!("{id}.json")].into_iter().map(|name| dir.join(name)).find(|path| path.is_file())
}

fn create_dir(dir: &Path) -> Result<(), ReportError> {
    std::fs::create_dir_all(dir).map_err(|source| ReportError::Write { path: dir.to_path_buf(), source })
}

fn write(path: &Path, html: &str) -> Result<(), ReportError> {
    std::fs::write(path, html).map_err(|source| ReportError::Write { path: path.to_path_buf(), source })
}

/// A bot's page, relative to the site's root: by sha256 (a name may be anything a file name
/// can be), of which only hex digits are kept (the database's text names a file here).
fn bot_page(standing: &Standing) -> String {
    format!("bots/{}.html", short(&standing.sha256, 16))
}

/// The first `n` hex digits of `text`.
fn short(text: &str, n: usize) -> String {
    text.chars().filter(char::is_ascii_hexdigit).take(n).collect()
}

/// `text` safe inside HTML text and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The styles and the table sorter every report page shares.
const STYLE: &str = "
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; background: #f4f4f0; color: #222; }
header { padding: 8px 16px; background: #263238; color: #eceff1; }
header h1 { font-size: 18px; margin: 0; } header a { color: #b3e5fc; }
main { padding: 12px 16px; }
table { border-collapse: collapse; background: #fff; }
th, td { border-bottom: 1px solid #ddd; padding: 4px 8px; text-align: right; white-space: nowrap; }
th { cursor: pointer; background: #eceff1; user-select: none; }
td.name, th.name { text-align: left; }
.muted { color: #777; }
";

/// Sorts a table by the clicked column (numbers by value: each cell's `data-sort`), again to
/// reverse.
const SORTER: &str = "
document.querySelectorAll('table.sortable').forEach((table) => {
  table.querySelectorAll('th').forEach((th, column) => th.addEventListener('click', () => {
    const body = table.tBodies[0];
    const descending = th.dataset.order !== 'desc';
    table.querySelectorAll('th').forEach((other) => delete other.dataset.order);
    th.dataset.order = descending ? 'desc' : 'asc';
    const key = (row) => { const cell = row.cells[column]; const v = cell.dataset.sort; return v === undefined ? cell.textContent : Number(v); };
    const rows = [...body.rows].sort((a, b) => { const x = key(a), y = key(b); const c = x < y ? -1 : x > y ? 1 : 0; return descending ? -c : c; });
    rows.forEach((row) => body.appendChild(row));
  }));
});
";

fn page(title: &str, back: Option<&str>, body: &str) -> String {
    let back = back.map_or_else(String::new, |href| format!(" &middot; <a href=\"{href}\">leaderboard</a>"));
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; \
         style-src 'unsafe-inline'\">\n<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <header><h1>{title}{back}</h1></header>\n<main>\n{body}\n</main>\n<script>{SORTER}</script>\n</body>\n</html>\n",
        title = escape(title)
    )
}

/// A cell sorted by `value`.
fn number(text: &str, value: f64) -> String {
    format!("<td data-sort=\"{value}\">{}</td>", escape(text))
}

fn index_page(board: &Leaderboard, played: &[Played]) -> String {
    let game = played.first().map_or("tournament", |one| one.result.game.as_str());
    let mut body = format!(
        "<p>{} of {} planned matches played{}. Click a column to sort.</p>\n<table class=\"sortable\" id=\"leaderboard\">\n<thead><tr>",
        board.matches_played,
        board.matches_planned,
        match board.matches_not_played {
            0 => String::new(),
            n => format!(", {n} not played"),
        }
    );
    for header in leaderboard::HEADERS {
        let class = if header == "bot" { " class=\"name\"" } else { "" };
        let _ = write!(body, "<th{class}>{}</th>", escape(header));
    }
    body.push_str("</tr></thead>\n<tbody>\n");
    for (place, standing) in board.leaderboard.iter().enumerate() {
        let cells = leaderboard::cells(place, standing);
        let values = [
            (place + 1) as f64,
            0.0,
            standing.rating,
            standing.rating_low,
            standing.matches as f64,
            standing.wins as f64,
            standing.draws as f64,
            standing.losses as f64,
            standing.mean_score,
            standing.forfeits as f64,
            standing.traps as f64,
            standing.invalid_actions as f64,
            standing.mean_fuel_per_turn as f64,
        ];
        body.push_str("<tr>");
        for (column, (cell, value)) in cells.iter().zip(values).enumerate() {
            if column == 1 {
                let _ = write!(
                    body,
                    "<td class=\"name\"><a href=\"{}\">{}</a>{}</td>",
                    bot_page(standing),
                    escape(cell),
                    standing
                        .load_error
                        .as_ref()
                        .map_or_else(String::new, |_| " <span class=\"muted\">(not loaded)</span>".into())
                );
            } else {
                body.push_str(&number(cell, value));
            }
        }
        body.push_str("</tr>\n");
    }
    body.push_str("</tbody></table>\n");
    let kept = played.iter().filter(|one| one.page.is_some()).count();
    let _ = write!(
        body,
        "<p class=\"muted\">{kept} of {} played matches have a viewer page (their replays were kept).</p>",
        played.len()
    );
    page(&format!("{game}: leaderboard"), None, &body)
}

fn bot_page_html(standing: &Standing, board: &Leaderboard, played: &[Played]) -> String {
    let names: BTreeMap<&str, &str> =
        board.leaderboard.iter().map(|row| (row.sha256.as_str(), row.bot.as_str())).collect();
    let mut body = format!(
        "<p>sha256 <code>{}</code></p>\n<table>\n<tr><th class=\"name\">matches</th><td>{}</td></tr>\n\
         <tr><th class=\"name\">wins, draws, losses</th><td>{}, {}, {}</td></tr>\n\
         <tr><th class=\"name\">rating (95% interval)</th><td>{:.0} ({:.0}..{:.0})</td></tr>\n\
         <tr><th class=\"name\">mean score</th><td>{:.2}</td></tr>\n\
         <tr><th class=\"name\">fuel per turn: mean, largest</th><td>{}, {}</td></tr>\n\
         <tr><th class=\"name\">forfeits, traps, invalid actions, skipped turns</th><td>{}, {}, {}, {}</td></tr>\n</table>\n",
        escape(&standing.sha256),
        standing.matches,
        standing.wins,
        standing.draws,
        standing.losses,
        standing.rating,
        standing.rating_low,
        standing.rating_high,
        standing.mean_score,
        standing.mean_fuel_per_turn,
        standing.max_fuel_per_turn,
        standing.forfeits,
        standing.traps,
        standing.invalid_actions,
        standing.skipped_turns,
    );
    if let Some(error) = &standing.load_error {
        let _ = write!(body, "<p>Not loaded: {}</p>", escape(error));
    }
    body.push_str(
        "<h2>Matches</h2>\n<table class=\"sortable\" id=\"matches\">\n<thead><tr><th class=\"name\">match</th><th>seed</th>\
         <th>seat</th><th class=\"name\">opponents</th><th>score</th><th>rank</th><th>fuel</th><th>largest turn</th>\
         <th>traps</th><th>invalid</th><th>skipped</th><th class=\"name\">forfeit</th></tr></thead>\n<tbody>\n",
    );
    for one in played {
        let Some(mine) = one.seats.iter().find(|seat| seat.sha256 == standing.sha256) else { continue };
        let opponents: Vec<String> = one
            .seats
            .iter()
            .filter(|seat| seat.seat != mine.seat)
            .map(|seat| escape(names.get(seat.sha256.as_str()).copied().unwrap_or("?")))
            .collect();
        let id = short(&one.id, 12);
        let link = one.page.as_ref().map_or_else(|| id.clone(), |page| format!("<a href=\"../{page}\">{id}</a>"));
        let forfeit = one
            .result
            .players
            .get(mine.seat as usize)
            .and_then(|player| player.forfeit_reason.as_ref())
            .map_or_else(String::new, |reason| escape(&serde_json::to_string(reason).unwrap_or_default()));
        let _ = writeln!(
            body,
            "<tr><td class=\"name\">{link}</td>{}{}<td class=\"name\">{}</td>{}{}{}{}{}{}{}<td class=\"name\">{forfeit}</td></tr>",
            number(&one.result.seed.to_string(), one.result.seed as f64),
            number(&mine.seat.to_string(), f64::from(mine.seat)),
            opponents.join(", "),
            number(&mine.score.to_string(), mine.score as f64),
            number(&mine.rank.to_string(), f64::from(mine.rank)),
            number(&mine.fuel_total.to_string(), mine.fuel_total as f64),
            number(&mine.fuel_max_turn.to_string(), mine.fuel_max_turn as f64),
            number(&mine.traps.to_string(), f64::from(mine.traps)),
            number(&mine.invalid_actions.to_string(), f64::from(mine.invalid_actions)),
            number(&mine.skipped_turns.to_string(), f64::from(mine.skipped_turns)),
        );
    }
    body.push_str("</tbody></table>\n");
    page(&standing.bot, Some("../index.html"), &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_from_database_text_keep_only_hex_digits() {
        assert_eq!(short("../../etc/passwd", 16), "ecad");
        assert_eq!(short("é0123456789abcdef0123", 16), "0123456789abcdef");
    }

    #[test]
    fn text_is_escaped_for_html() {
        assert_eq!(escape("<b a=\"1\">&'</b>"), "&lt;b a=&quot;1&quot;&gt;&amp;&#39;&lt;/b&gt;");
    }
}
