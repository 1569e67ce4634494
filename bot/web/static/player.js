// Herald's player page: times in the reader's own zone, and a reload when the game moves on
// (server-sent events: the page is the seat's own, so it is simply fetched again). Written for
// Herald; no library.
"use strict";
(function () {
  const main = document.getElementById("player");
  if (!main) return;
  const liveState = document.getElementById("live-state");
  const dateFormat = new Intl.DateTimeFormat(undefined, {
    weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
    timeZoneName: "short"});
  document.querySelectorAll("time[data-ts]").forEach(function (t) {
    const when = new Date(Number(t.dataset.ts) * 1000);
    t.textContent = dateFormat.format(when);
    t.title = when.toISOString();
  });
  let source = null;
  let sending = false;
  // a decision being sent: the page waits for its answer (the stream would reload it first)
  document.querySelectorAll("form.choices").forEach(function (form) {
    form.addEventListener("submit", function () {
      sending = true;
      form.classList.add("sending");
      if (source) source.close();
      liveState.textContent = "sending…";
    });
  });
  if (!window.EventSource || liveState.textContent === "finished") return;
  function open() {
    source = new EventSource("live?v=" + encodeURIComponent(main.dataset.version));
    source.addEventListener("open", function () {
      liveState.textContent = "live";
      liveState.classList.remove("off");
    });
    source.addEventListener("changed", function () {
      source.close();
      if (sending) return;
      liveState.textContent = "updating…";
      window.location.replace("./");
    });
    source.addEventListener("error", function () {
      liveState.textContent = "reconnecting…";
      liveState.classList.add("off");
    });
  }
  open();
})();
