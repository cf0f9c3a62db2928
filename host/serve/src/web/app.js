// Live parts of the ladder's pages, over the server-sent events of /events:
// - a leaderboard (#leaderboard[data-refresh]) is refetched when a result of its game lands;
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
  const queue = document.getElementById("queue");
  const results = document.getElementById("results");
  const versions = document.getElementById("versions");

  function refreshBoard() {
    fetch(board.dataset.refresh).then((response) => response.ok ? response.text() : null).then((html) => {
      if (html === null) return;
      const parsed = new DOMParser().parseFromString(html, "text/html");
      const table = parsed.querySelector("table");
      if (table) board.replaceChildren(document.adoptNode(table));
    });
  }

  // The server refits a leaderboard at most every 2 s: a refresh right after a result may get
  // the fit before it, so one more follows the last result by a little more than that.
  let trailing = null;
  function refreshBoardSoon() {
    refreshBoard();
    clearTimeout(trailing);
    trailing = setTimeout(refreshBoard, 2500);
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
    if (board && board.dataset.game === event.game) refreshBoardSoon();
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
  window.addEventListener("pageshow", (event) => { if (event.persisted || !events) connect(); });
  if (!events) connect();
})();
