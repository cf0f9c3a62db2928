// Live parts of the ladder's pages, over the server-sent events of /events:
// - a game page's leaderboard (#leaderboard[data-refresh]), its line of counts (#game-summary)
//   and its latest matches (#latest[data-refresh]) are refetched, as the server renders them,
//   when a result of its game lands;
// - the live page's queue figures (#queue) are refetched and each result is listed (#results);
// - a bot page with a version being checked (#versions[data-pending=yes]) reloads when a check
//   of that bot finishes.
"use strict";
(function () {
  if (!window.EventSource) return;
  // A page kept in the browser's back/forward cache would keep its stream open, and a few of
  // those use up the browser's connections to the server: the stream closes when the page is
  // left and opens again if the page comes back.
  let events = null;
  const board = document.getElementById("leaderboard");
  const latest = document.getElementById("latest");
  const queue = document.getElementById("queue");
  const results = document.getElementById("results");
  const versions = document.getElementById("versions");

  // One fetch of a part at a time: a result landing while the part is being fetched asks for
  // one more fetch after it (under load, results land faster than a page needs them).
  function coalesced(load) {
    let running = false;
    let again = false;
    function run() {
      if (running) {
        again = true;
        return;
      }
      running = true;
      load().catch(() => {}).finally(() => {
        running = false;
        if (again) {
          again = false;
          run();
        }
      });
    }
    return run;
  }

  // The server's fragment at `url`, parsed (null when it answered with an error).
  function fragment(url) {
    return fetch(url).then((response) => response.ok ? response.text() : null).then((html) =>
      html === null ? null : new DOMParser().parseFromString(html, "text/html"));
  }

  // Puts `fresh` (from a fetched fragment) in the place of `old`.
  function replace(old, fresh) {
    if (old && fresh) old.replaceWith(document.adoptNode(fresh));
  }

  const refreshBoard = coalesced(() => fragment(board.dataset.refresh).then((parsed) => {
    const table = parsed && parsed.querySelector("table");
    if (table) board.replaceChildren(document.adoptNode(table));
  }));

  const refreshLatest = coalesced(() => fragment(latest.dataset.refresh).then((parsed) => {
    if (!parsed) return;
    replace(document.getElementById("game-summary"), parsed.getElementById("game-summary"));
    const table = parsed.querySelector("table");
    if (table) latest.replaceChildren(document.adoptNode(table));
  }));

  function refreshGame() {
    if (board) refreshBoard();
    if (latest) refreshLatest();
  }

  // The server refits a leaderboard at most every 2 s: a refresh right after a result may get
  // the fit before it, so one more follows the last result by a little more than that.
  let trailing = null;
  function refreshGameSoon() {
    refreshGame();
    clearTimeout(trailing);
    trailing = setTimeout(refreshGame, 2500);
  }

  function refreshQueue() {
    fetch(queue.dataset.refresh).then((response) => response.json()).then((counts) => {
      for (const key of ["queued", "running", "done"]) {
        document.getElementById(key).textContent = String(counts[key]);
      }
    });
  }

  function onResult(message) {
    const event = JSON.parse(message.data);
    if (board && board.dataset.game === event.game) refreshGameSoon();
    if (queue) refreshQueue();
    if (results) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = "/matches/" + event.data.id;
      link.textContent = event.game + " #" + event.data.id;
      item.append(link, " " + event.data.state + (event.data.turns !== null ? ", " + event.data.turns + " turns" : ""));
      results.prepend(item);
      while (results.children.length > 50) results.lastChild.remove();
    }
  }

  function onVersion(message) {
    const event = JSON.parse(message.data);
    if (versions && versions.dataset.pending === "yes" && event.data && String(event.data.bot_id) === versions.dataset.bot) {
      window.location.reload();
    }
  }

  function connect() {
    events = new EventSource("/events");
    events.addEventListener("result", onResult);
    events.addEventListener("version", onVersion);
    // A check that finished before the stream opened sent its event to nobody: once open, a
    // bot page still showing a pending version asks whether it still is.
    if (versions && versions.dataset.pending === "yes") {
      events.addEventListener("open", () => {
        fetch("/api/bots/" + versions.dataset.bot).then((response) => response.json()).then((bot) => {
          if (!bot.versions.some((version) => version.status === "pending")) window.location.reload();
        });
      });
    }
  }
  window.addEventListener("pagehide", () => { if (events) { events.close(); events = null; } });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted || !events) connect();
    // Back from the cache: the results it missed while away are fetched once.
    if (event.persisted) refreshGame();
  });
  if (!events) connect();
})();
