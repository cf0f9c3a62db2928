//! The documentation's links resolve in a fresh clone: every relative link in `README.md`,
//! `docs/**/*.md`, the SDK guides (`guest-sdk/**/*.md`) and the comments of `wit/**/*.wit`, and every `docs/….md#anchor` path in a code
//! comment (Rust, JavaScript), names a file inside the repository, and every `#anchor` names a
//! heading of the target Markdown file (GitHub's slug rules). No comment or document cites the old
//! design notes outside the repository, and no code comment cites an issue by number: a clone
//! has neither.
//!
//! Why a test: the README once linked the rules to `../shared/`, a folder only the authors had, so
//! the links were dead for everyone else. A small parser instead of a Markdown crate keeps xtask's
//! dependencies as they are; it understands only what the docs use: inline links `[text](target)`
//! outside code, and in WIT `//` comments also bare repository-relative `docs/….md#anchor` paths.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Component, Path, PathBuf};

/// One link found in a file: where it is and what it points to.
#[derive(Debug, PartialEq, Eq)]
struct Link {
    /// 1-based line of the link in its file.
    line: usize,
    /// The target as written (`path`, `path#anchor` or `#anchor`).
    target: String,
    /// Whether the path is relative to the repository root (bare paths in WIT comments) rather
    /// than to the file's folder (Markdown links).
    from_root: bool,
}

/// Removes inline code spans (`` `…` ``) so that link-like text inside them is not checked.
fn strip_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code {
            out.push(c);
        }
    }
    out
}

/// The targets of the inline links `[text](target)` in one line of prose.
fn inline_links(line: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        // A title (`(path "title")`) ends the target at the first space.
        let target = after[..end].split_whitespace().next().unwrap_or("");
        targets.push(target.trim_matches(['<', '>']).to_string());
        rest = &after[end..];
    }
    targets
}

/// Whether a target leaves the repository's files: a URL or a mail address.
fn is_external(target: &str) -> bool {
    target.contains("://") || target.starts_with("mailto:")
}

/// The relative links of a Markdown text, outside fenced code blocks and code spans.
fn markdown_links(text: &str) -> Vec<Link> {
    let mut links = Vec::new();
    let mut fenced = false;
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for target in inline_links(&strip_code_spans(line)) {
            if !target.is_empty() && !is_external(&target) {
                links.push(Link { line: index + 1, target, from_root: false });
            }
        }
    }
    links
}

/// The links in the `//` comments of a WIT file: Markdown links (relative to the file) and bare
/// repository-relative paths into `docs/` (how the WIT headers point to the rules).
fn wit_links(text: &str) -> Vec<Link> {
    let mut links = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let Some(comment) = line.trim_start().strip_prefix("//") else { continue };
        let comment = comment.trim_start_matches('/');
        for target in inline_links(comment) {
            if !is_external(&target) {
                links.push(Link { line: index + 1, target, from_root: false });
            }
        }
        for word in comment.split(|c: char| c.is_whitespace() || "`()[],;".contains(c)) {
            let word = word.trim_end_matches(['.', ':']);
            if word.starts_with("docs/") {
                links.push(Link { line: index + 1, target: word.to_string(), from_root: true });
            }
        }
    }
    links
}

/// The bare repository-relative `docs/….md#anchor` paths in the `//` comments of a source file
/// (Rust or JavaScript): how code points to the design and the rules. Inline links there are
/// rustdoc's, not checked here.
fn code_links(text: &str) -> Vec<Link> {
    let mut links = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let Some(at) = line.find("//") else { continue };
        let comment = &line[at + 2..];
        for word in comment.split(|c: char| c.is_whitespace() || "`()[],;\"".contains(c)) {
            let word = word.trim_end_matches(['.', ':']);
            if word.starts_with("docs/") && word.contains(".md") {
                links.push(Link { line: index + 1, target: word.to_string(), from_root: true });
            }
        }
    }
    links
}

/// GitHub's anchor for a heading: lowercase, punctuation removed (letters, digits, `-`, `_` and
/// spaces kept), spaces to `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown text's headings; a repeated slug gets `-1`, `-2`, … as on GitHub.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if fenced || hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..]);
        let mut anchor = base.clone();
        let mut n = 0;
        while found.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        found.insert(anchor);
    }
    found
}

/// `path` with `.` and `..` resolved lexically, or `None` when it climbs above `root`.
fn inside(root: &Path, path: &Path) -> Option<PathBuf> {
    let relative = path.strip_prefix(root).ok()?;
    let mut parts: Vec<Component> = Vec::new();
    for part in relative.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.iter().fold(root.to_path_buf(), |path, part| path.join(part)))
}

/// The broken links of one file (`file` inside `root`, its text `text`), one message each.
fn check_file(root: &Path, file: &Path, text: &str) -> Vec<String> {
    let links = match file.extension().and_then(|e| e.to_str()) {
        Some("wit") => wit_links(text),
        Some("rs" | "js") => code_links(text),
        _ => markdown_links(text),
    };
    let name = file.strip_prefix(root).unwrap_or(file).display().to_string();
    let mut broken = Vec::new();
    for link in links {
        let (path, anchor) = match link.target.split_once('#') {
            Some((path, anchor)) => (path, Some(anchor)),
            None => (link.target.as_str(), None),
        };
        let base = if link.from_root { root } else { file.parent().unwrap_or(root) };
        let target = if path.is_empty() { file.to_path_buf() } else { base.join(path) };
        let problem = match inside(root, &target) {
            None => Some("leaves the repository".to_string()),
            Some(resolved) if !resolved.exists() => Some("names no file".to_string()),
            Some(resolved) => match anchor {
                Some(anchor) if resolved.extension().is_some_and(|e| e == "md") => {
                    let target_text = if path.is_empty() {
                        text.to_string()
                    } else {
                        fs::read_to_string(&resolved).unwrap_or_default()
                    };
                    (!anchors(&target_text).contains(anchor)).then(|| format!("has no heading for #{anchor}"))
                }
                _ => None,
            },
        };
        if let Some(problem) = problem {
            broken.push(format!("{name}:{}: `{}` {problem}", link.line, link.target));
        }
    }
    broken
}

/// Every file under `dir` whose name ends with `.{ext}`, sorted.
fn files_under(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            files_under(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo_root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
    }

    #[test]
    fn doc_links_resolve_in_the_repository() {
        let root = repo_root();
        let mut files = vec![root.join("README.md")];
        files_under(&root.join("docs"), "md", &mut files);
        files_under(&root.join("wit"), "wit", &mut files);
        files_under(&root.join("guest-sdk"), "md", &mut files);
        files.retain(|file| !file.components().any(|part| part.as_os_str() == "node_modules"));
        assert!(files.len() > 6, "README, the docs, the WIT files and the SDK guides: {files:?}");
        let broken: Vec<String> =
            files.iter().flat_map(|file| check_file(&root, file, &fs::read_to_string(file).unwrap())).collect();
        assert!(broken.is_empty(), "broken documentation links:\n{}", broken.join("\n"));
    }

    /// The source files whose comments may point into `docs/`: every Rust and JavaScript file
    /// of the workspace's code.
    fn code_files(root: &Path) -> Vec<PathBuf> {
        let mut files = Vec::new();
        for dir in ["host", "games", "guest-sdk", "tests", "xtask", "bots-examples"] {
            files_under(&root.join(dir), "rs", &mut files);
            files_under(&root.join(dir), "js", &mut files);
        }
        // This file's own examples of what it refuses are not citations.
        files.retain(|file| {
            !file.components().any(|part| part.as_os_str() == "node_modules")
                && !file.ends_with("xtask/src/doc_links.rs")
        });
        files
    }

    #[test]
    fn doc_links_in_code_comments_resolve_in_the_repository() {
        let root = repo_root();
        let files = code_files(&root);
        let mut checked = 0;
        let mut broken = Vec::new();
        for file in &files {
            let text = fs::read_to_string(file).unwrap();
            checked += code_links(&text).len();
            broken.extend(check_file(&root, file, &text));
        }
        assert!(checked > 40, "only {checked} links into docs/ found in code comments");
        assert!(broken.is_empty(), "broken links in code comments:\n{}", broken.join("\n"));
    }

    #[test]
    fn doc_links_nothing_cites_what_a_clone_lacks() {
        let root = repo_root();
        let mut documents = vec![root.join("README.md")];
        files_under(&root.join("docs"), "md", &mut documents);
        files_under(&root.join("guest-sdk"), "md", &mut documents);
        files_under(&root.join("wit"), "wit", &mut documents);
        let code = code_files(&root);
        let mut found = Vec::new();
        for file in documents.iter().chain(&code) {
            let text = fs::read_to_string(file).unwrap();
            let name = file.strip_prefix(&root).unwrap_or(file).display().to_string();
            for (index, line) in text.lines().enumerate() {
                if line.contains(&["DESIGN", ".md"].concat()) {
                    found.push(format!("{name}:{}: cites the old design notes (now docs/design.md)", index + 1));
                }
                if code.contains(file) && cites_an_issue(line) {
                    found
                        .push(format!("{name}:{}: cites an issue, which a clone lacks: say what it checks", index + 1));
                }
            }
        }
        assert!(found.is_empty(), "{}", found.join("\n"));
    }

    /// Whether a line cites one of this project's issues, which are not in the repository: by
    /// number (`issue 7`, `Issue item 5`) or by title (`issue "See a match"`), or as "the
    /// issue's" figures.
    fn cites_an_issue(line: &str) -> bool {
        let lower = line.to_lowercase();
        lower.contains("the issue's")
            || lower.match_indices("issue ").any(|(at, _)| {
                let rest = lower[at + "issue ".len()..].trim_start_matches("item ").trim_start_matches("items ");
                rest.starts_with(|c: char| c.is_ascii_digit() || c == '"')
            })
    }

    #[test]
    fn doc_links_issue_citations_are_recognised() {
        assert!(cites_an_issue("/// Issue 14: a long name"));
        assert!(cites_an_issue("//! the determinism matrix (issue item 5)"));
        assert!(cites_an_issue("//! the viewer (issue \"See a match\", item 2)"));
        assert!(cites_an_issue("/// against the issue's figures"));
        assert!(!cites_an_issue("/// a known issue in wasmtime"));
        let links = code_links("let x = 1; // see docs/design.md#traps.\n/// [a](docs/no.md)\nlet y = \"docs/x.md\";");
        let targets: Vec<&str> = links.iter().map(|l| l.target.as_str()).collect();
        assert_eq!(targets, ["docs/design.md#traps", "docs/no.md"]);
    }

    #[test]
    fn doc_links_every_game_doc_is_linked_from_the_readme_and_its_wit() {
        let root = repo_root();
        let readme = fs::read_to_string(root.join("README.md")).unwrap();
        // Every engine's folder is a registered game (the host's structure test checks it).
        let mut games: Vec<String> = fs::read_dir(root.join("games"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name != "core")
            .collect();
        games.sort();
        assert!(games.len() >= 5, "{games:?}");
        for game in games {
            let doc = format!("docs/games/{game}.md");
            assert!(root.join(&doc).is_file(), "{doc} is missing");
            assert!(readme.contains(&format!("]({doc})")), "README does not link {doc}");
            let wit = fs::read_to_string(root.join(format!("wit/{game}/{game}.wit"))).unwrap();
            assert!(
                wit_links(&wit).iter().any(|l| l.from_root && l.target == doc),
                "wit/{game}/{game}.wit does not point to {doc}"
            );
        }
    }

    #[test]
    fn doc_links_parser_finds_links_outside_code_only() {
        let text = "see [a](a.md) and [b](docs/b.md#x \"t\") and <https://x.org> [u](https://x.org)\n\
                    `[c](c.md)` is code\n```\n[d](d.md)\n```\n[e](#own)";
        let targets: Vec<(usize, String)> = markdown_links(text).into_iter().map(|l| (l.line, l.target)).collect();
        assert_eq!(targets, [(1, "a.md".into()), (1, "docs/b.md#x".into()), (6, "#own".into())]);
        let wit = "// Rules: docs/games/azul.md.\npackage x; // not docs/y.md\n/// doc [r](../r.md)";
        let found = wit_links(wit);
        let links: Vec<(&str, bool)> = found.iter().map(|l| (l.target.as_str(), l.from_root)).collect();
        assert_eq!(links, [("docs/games/azul.md", true), ("../r.md", false)]);
    }

    #[test]
    fn doc_links_slugs_follow_github() {
        assert_eq!(slug("Decisions that are ours"), "decisions-that-are-ours");
        assert_eq!(slug("3. Turn structure (simultaneous)"), "3-turn-structure-simultaneous");
        assert_eq!(slug("`view` — what the bot sees"), "view--what-the-bot-sees");
        let found = anchors("# A\n## Setup\n```\n# not\n```\n## Setup\n#nospace");
        let expected: BTreeSet<String> = ["a", "setup", "setup-1"].map(String::from).into();
        assert_eq!(found, expected);
    }

    #[test]
    fn doc_links_broken_targets_are_reported() {
        let root = repo_root();
        let readme = root.join("README.md");
        let text = "[ok](docs/games/azul.md) [gone](docs/games/nope.md) [up](../../etc/passwd)\n\
                    [anchor](docs/games/azul.md#no-such-heading) [self](#top)\n# Top";
        let broken = check_file(&root, &readme, text);
        assert_eq!(broken.len(), 3, "{broken:?}");
        assert!(broken[0].contains("nope.md") && broken[0].ends_with("names no file"));
        assert!(broken[1].ends_with("leaves the repository"));
        assert!(broken[2].ends_with("has no heading for #no-such-heading"));
    }
}
