//! The documentation's `arena` commands, run as written with an installed `arena`: the README
//! tells users to `cargo install --path host/cli --locked`, then shows `arena ...` lines, as do
//! the pages in `docs/`; every such line in a ` ```sh ` block must succeed.
//!
//! The install is a debug build into `target/install-check` (sharing the test build's
//! artifacts: the release build the README shows compiles the same code, for minutes more).
//! Each document's commands run in order in a scratch folder of its own whose `target/bots` is
//! the built bots, so the replays they write land there, not in the repository.
//!
//! `arena serve` does not end by itself: it is started with `--bind 127.0.0.1:0` added (a free
//! port, whatever else listens on 8080), checked to serve (`GET /api/games` until a ladder has a
//! ranked match, which `--demo` must give within minutes), and stopped with SIGTERM.

use crate::util::{bots_dir, cargo, run_command, target_dir};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Installs `arena` as the README says, then runs every `arena` line of the shell blocks of the
/// README and of each page in `docs/`.
pub fn check(root: &Path) -> Result<()> {
    let install_root = target_dir(root).join("install-check");
    run_command(
        Command::new(cargo())
            .args(["install", "--path", "host/cli", "--locked", "--debug", "--root"])
            .arg(&install_root)
            .env("CARGO_TARGET_DIR", target_dir(root))
            .current_dir(root),
    )?;
    let arena = install_root.join("bin").join(format!("arena{}", std::env::consts::EXE_SUFFIX));
    let mut documents = vec![root.join("README.md")];
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    pages.sort();
    documents.extend(pages);
    for document in &documents {
        let commands = arena_commands(&std::fs::read_to_string(document)?);
        let name = document.strip_prefix(root).unwrap_or(document).display().to_string();
        if name == "README.md" && commands.is_empty() {
            bail!("the README shows no `arena` command");
        }
        let scratch = target_dir(root).join("tmp").join("readme-commands").join(name.replace('/', "-"));
        let _ = std::fs::remove_dir_all(&scratch);
        std::fs::create_dir_all(scratch.join("target"))?;
        link_bots(&bots_dir(root), &scratch.join("target").join("bots"))?;
        for command in &commands {
            let args: Vec<&str> = command.split_whitespace().skip(1).collect();
            if args.first() == Some(&"serve") && args.get(1) != Some(&"admin") {
                check_server(&arena, &args, &scratch).with_context(|| format!("{name}'s `{command}`"))?;
                eprintln!("{name}: `{command}`: ok");
                continue;
            }
            let output = Command::new(&arena)
                .args(&args)
                .current_dir(&scratch)
                .output()
                .with_context(|| format!("cannot run {}", arena.display()))?;
            if !output.status.success() {
                bail!("{name}'s `{command}` failed ({}): {}", output.status, String::from_utf8_lossy(&output.stderr));
            }
            eprintln!("{name}: `{command}`: ok");
        }
    }
    Ok(())
}

/// Starts `arena ARGS --bind 127.0.0.1:0` in `dir`, waits until one of its ladders has a ranked
/// match, and stops it.
fn check_server(arena: &Path, args: &[&str], dir: &Path) -> Result<()> {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::time::{Duration, Instant};
    let mut server = Command::new(arena)
        .args(args)
        .args(["--bind", "127.0.0.1:0"])
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::fs::File::create(dir.join("server.log"))?)
        .spawn()
        .with_context(|| format!("cannot run {}", arena.display()))?;
    let mut line = String::new();
    BufReader::new(server.stdout.take().context("no stdout")?).read_line(&mut line)?;
    let served = (|| -> Result<()> {
        let address =
            line.trim().strip_prefix("listening on http://").with_context(|| format!("did not start: {line:?}"))?;
        let started = Instant::now();
        loop {
            let mut stream = std::net::TcpStream::connect(address)?;
            write!(stream, "GET /api/games HTTP/1.0\r\nHost: {address}\r\n\r\n")?;
            let mut answer = String::new();
            stream.read_to_string(&mut answer)?;
            let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
            let games: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
            if games.as_array().into_iter().flatten().any(|game| game["ranked_matches"].as_u64().unwrap_or(0) > 0) {
                return Ok(());
            }
            if started.elapsed() > Duration::from_secs(300) {
                bail!("no ladder played a ranked match in 300 s: {body}");
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    })();
    let _ = Command::new("kill").arg(server.id().to_string()).output();
    let stopped = server.wait()?;
    served?;
    if !stopped.success() {
        bail!("stopped with {stopped}: {}", std::fs::read_to_string(dir.join("server.log")).unwrap_or_default());
    }
    Ok(())
}

/// The `arena ...` lines of the ` ```sh ` blocks, continuation lines joined, comments dropped.
fn arena_commands(markdown: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut in_sh = false;
    let mut pending = String::new();
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_sh = !in_sh && line.trim() == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let code = line.split(" #").next().unwrap_or_default().trim_end();
        pending.push_str(code.trim_end_matches('\\').trim());
        if code.ends_with('\\') {
            pending.push(' ');
            continue;
        }
        let command = std::mem::take(&mut pending);
        if command.starts_with("arena ") {
            commands.push(command);
        }
    }
    commands
}

/// Makes `link` show the built bots.
fn link_bots(bots: &Path, link: &PathBuf) -> Result<()> {
    #[cfg(unix)]
    return std::os::unix::fs::symlink(bots, link).with_context(|| format!("cannot link {}", link.display()));
    #[cfg(not(unix))]
    {
        std::fs::create_dir_all(link)?;
        for entry in std::fs::read_dir(bots)? {
            let entry = entry?;
            std::fs::copy(entry.path(), link.join(entry.file_name()))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_the_arena_lines_of_shell_blocks() {
        let readme = "text arena match x\n```sh\narena games   # list\ncargo xtask bots\narena match --game a \\\n    b.wasm c.wasm\n```\n```text\narena nope\n```\n";
        assert_eq!(arena_commands(readme), ["arena games", "arena match --game a b.wasm c.wasm"]);
    }
}
