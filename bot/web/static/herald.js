// Herald's game page: times in the reader's own zone, zoom, the history scrubber (and arrow
// keys), and live updates by server-sent events. Written for Herald; no library.
"use strict";
(function () {
  const main = document.getElementById("game");
  if (!main) return;
  const img = document.getElementById("board");
  const zoom = document.getElementById("zoom");
  const zoomBtn = document.getElementById("zoom-btn");
  const panel = document.getElementById("panel");
  const logList = document.getElementById("log");
  const scrub = document.getElementById("scrub");
  const prev = document.getElementById("prev");
  const next = document.getElementById("next");
  const nowBtn = document.getElementById("now");
  const where = document.getElementById("where");
  const liveState = document.getElementById("live-state");

  let last = Number(main.dataset.last);      // the latest step of the game
  let headChain = main.dataset.chain;         // its chain
  let shown = Number(main.dataset.n);         // the step on screen
  let known = last;                           // the latest step whose log entry the page holds
  let knownChain = headChain;
  let finished = main.dataset.finished === "1";
  let asked = 0;                              // the latest request (older answers are dropped)
  let timer = null;

  const dateFormat = new Intl.DateTimeFormat(undefined, {
    weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
    timeZoneName: "short"});

  function localTimes(root) {
    root.querySelectorAll("time[data-ts]").forEach(function (t) {
      const when = new Date(Number(t.dataset.ts) * 1000);
      t.textContent = dateFormat.format(when);
      t.title = when.toISOString();
    });
  }

  function words(n) {
    if (n === last) return finished ? "Final position (" + last + " moves)" : "Now: move " + last;
    return n === 0 ? "Start of " + last + " moves" : "Move " + n + " of " + last;
  }

  function showLog(n) {
    logList.querySelectorAll("li[data-n]").forEach(function (li) {
      const k = Number(li.dataset.n);
      li.classList.toggle("later", k > n);
      li.classList.toggle("shown-step", k === n && n !== last && li.classList.contains("move"));
    });
  }

  function controls() {
    scrub.max = String(last);
    scrub.value = String(shown);
    prev.disabled = shown <= 0;
    next.disabled = shown >= last;
    nowBtn.disabled = shown >= last;
    const fresh = last - shown;
    nowBtn.setAttribute("aria-label", shown < last ? "Back to now (" + fresh + " later moves)" : "Back to now");
    where.textContent = words(shown);
    main.dataset.n = String(shown);
    main.dataset.last = String(last);
  }

  function scrollLog() {
    logList.scrollTop = logList.scrollHeight;
  }

  async function go(n) {
    n = Math.max(0, Math.min(last, n));
    const ticket = ++asked;
    const url = "at/" + n + ".json?since=" + known + "&chain=" + encodeURIComponent(knownChain);
    let data;
    try {
      const r = await fetch(url, {cache: "no-store", credentials: "same-origin"});
      if (!r.ok) { if (r.status === 404) gone(); return; }
      data = await r.json();
    } catch (e) {
      return;
    }
    if (ticket !== asked) return;
    apply(data);
  }

  function apply(data) {
    // a step from the server (fetched, or pushed by the live stream): board, panel, new log
    if (data.reset) { window.location.reload(); return; }
    last = data.last;
    headChain = data.head;
    finished = data.finished;
    if (data.log) {
      logList.insertAdjacentHTML("beforeend", data.log);
      known = data.n;
      knownChain = data.chain;
    }
    shown = data.n;
    if (img.getAttribute("src") !== data.board) img.setAttribute("src", data.board);
    img.setAttribute("alt", data.alt);
    panel.innerHTML = data.panel;
    localTimes(panel);
    showLog(shown);
    controls();
    if (shown === last) scrollLog();
    liveState.textContent = finished ? "finished" : "live";
  }

  function later(n) {
    // the scrubber moves at once; the step is fetched once it rests a moment
    shown = Math.max(0, Math.min(last, n));
    controls();
    if (timer) clearTimeout(timer);
    timer = setTimeout(function () { go(shown); }, 90);
  }

  function gone() {  // (a cancelled game, or its server turned its pages off: the page reloads to "not found")
    liveState.textContent = "no longer available";
    liveState.classList.add("off");
    if (source) source.close();
    location.reload();
  }

  zoomBtn.addEventListener("click", function () {
    const on = zoom.classList.toggle("zoomed");
    zoomBtn.setAttribute("aria-pressed", on ? "true" : "false");
    zoomBtn.textContent = on ? "Fit to screen" : "Zoom in";
  });
  img.addEventListener("click", function () { zoomBtn.click(); });
  scrub.addEventListener("input", function () { later(Number(scrub.value)); });
  prev.addEventListener("click", function () { later(shown - 1); });
  next.addEventListener("click", function () { later(shown + 1); });
  nowBtn.addEventListener("click", function () { later(last); scrub.focus(); });
  document.addEventListener("keydown", function (e) {
    // (the scrubber moves itself; a zoomed board scrolls with the arrows while it has the focus)
    if (e.altKey || e.ctrlKey || e.metaKey || e.target === scrub) return;
    if (e.target === zoom && zoom.classList.contains("zoomed")) return;
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const step = {ArrowLeft: -1, ArrowRight: 1}[e.key];
    if (step) { e.preventDefault(); later(shown + step); }
    else if (e.key === "Home") { e.preventDefault(); later(0); }
    else if (e.key === "End") { e.preventDefault(); later(last); }
  });

  let source = null;
  function listen() {
    if (!window.EventSource) return;
    source = new EventSource("live");
    source.addEventListener("head", function (e) {
      const head = JSON.parse(e.data);
      liveState.textContent = head.finished ? "finished" : "live";
      liveState.classList.remove("off");
      if (head.chain === headChain && head.last === last) return;
      const following = shown === last;
      last = head.last;
      headChain = head.chain;
      finished = head.finished;
      if (following) go(last); else controls();
    });
    source.addEventListener("step", function (e) {
      // the new step itself: shown at once when the page follows the game and holds the log
      // up to the step it was sent after; otherwise as a head (fetched, or only counted)
      const step = JSON.parse(e.data);
      liveState.classList.remove("off");
      const following = shown === last;
      if (following && step.since === known && step.n === step.last && !step.reset) {
        asked++;
        apply(step);
        return;
      }
      if (step.reset) { window.location.reload(); return; }
      last = step.last;
      headChain = step.head;
      finished = step.finished;
      if (following) go(last); else controls();
    });
    source.addEventListener("gone", gone);
    source.addEventListener("error", function () {
      if (source.readyState !== EventSource.CLOSED) {
        liveState.textContent = "reconnecting…";
        liveState.classList.add("off");
      }
    });
  }

  localTimes(document);
  showLog(shown);
  controls();
  scrollLog();
  listen();
})();
