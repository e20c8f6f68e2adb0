/*
 * dyper ui: the live page. Lists the JVMs, shows one JVM's flame graph of a recent window (refreshed without losing
 * the zoom or the search), measures a clicked method exactly through the API, and applies pasted models. Everything
 * it shows comes from the JSON API under /api/ (docs/ui.md), which scripts can use too.
 */
"use strict";
(function (D) {
  const F = D.fmt;
  const $ = id => document.getElementById(id);
  /** Live updates come by Server-Sent Events (/api/jvms/PID/events): the server's one poller per JVM announces new
   *  exact figures (in the event) and each new whole REPORT (the page then fetches the flame graph and summary). When
   *  the stream cannot be had, the page polls: the flame graph and the JVM's summary (a whole REPORT: its stacks cost
   *  the target most) every 5 s; the exact figures (a REPORT of them alone: next to nothing) every second. */
  const REFRESH_MS = 5000;
  const EXACT_MS = 1000;
  const VIEWS = ["CPU", "WALL", "LOCK", "ALLOC"];
  const state = { pid: null, view: "CPU", window: "10s", thread: "", zoomPath: null, selected: null,
    measured: [], exact: new Map(), marks: [], timer: null, jvmTimer: null, busy: false, live: null, events: null };
  /** What the last refresh cost in the page: fetchMs (monitor, server and network), parseMs (JSON), treeMs (the
   *  server's arrays made typed, with their end and parent facts), drawMs (flame graph and tables), bytes (the stacks'
   *  JSON), paths (the window's collapsed paths), nodes. benchmarks/run-ui-page. */
  const timing = { events: 0, requests: { stacks: 0, exact: 0, summary: 0 } };
  let flame = null;

  function status(text, bad) {
    const s = $("status");
    s.textContent = text || "";
    s.className = bad ? "bad" : "";
  }

  /** fetch with a deadline; a JSON error body becomes an Error with the server's message (and problems). info, when
   *  given, gets the body's length (bytes) and the time JSON.parse took (parseMs). */
  async function api(method, path, body, info) {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), method === "GET" ? 20000 : 130000);
    try {
      const r = await fetch(path, { method, signal: ctl.signal, credentials: "same-origin",
        headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined });
      const text = await r.text();
      let json = null;
      const p0 = performance.now();
      try { json = JSON.parse(text); } catch (e) { /* below */ }
      if (info) { info.bytes = text.length; info.parseMs = performance.now() - p0; }
      if (!r.ok) {
        const err = new Error(json && json.error ? json.error : r.status + " " + text.trim());
        err.status = r.status;
        err.problems = json && json.problems ? json.problems : [];
        throw err;
      }
      return json;
    } catch (e) {
      if (e.name === "AbortError") throw new Error(method + " " + path + ": no answer within the time limit");
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  function cell(text, cls) {
    const td = document.createElement("td");
    if (cls) td.className = cls;
    if (text instanceof Node) td.appendChild(text); else td.textContent = text;
    return td;
  }

  function button(label, action, attrs) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    Object.entries(attrs || {}).forEach(([k, v]) => b.setAttribute(k, v));
    b.addEventListener("click", action);
    return b;
  }

  function uptime(ms) {
    const s = Math.floor(ms / 1000);
    if (s < 120) return s + " s";
    if (s < 7200) return Math.floor(s / 60) + " min";
    return (s / 3600).toFixed(1) + " h";
  }

  // ---- the list of JVMs

  async function loadJvms() {
    let list;
    try {
      list = await api("GET", "/api/jvms");
    } catch (e) {
      status("JVM list: " + e.message, true);
      return;
    }
    const body = $("jvms").tBodies[0];
    body.replaceChildren();
    list.jvms.forEach(j => {
      const tr = document.createElement("tr");
      tr.dataset.pid = j.pid;
      const patched = j.error ? j.error : (j.patched || []).map(p => p.model + (p.byUi ? " (from this UI)" : ""))
        .join(", ") || "-";
      tr.append(cell(String(j.pid)), cell(j.main, "text"), cell(uptime(j.uptimeMs)), cell(j.java),
        cell(patched, "text"), cell(button("Open", () => openJvm(j.pid, j.main), { "data-open": j.pid })));
      body.appendChild(tr);
    });
    $("jvms-empty").hidden = list.jvms.length > 0;
    const att = $("attachable").tBodies[0];
    att.replaceChildren();
    list.attachable.forEach(j => {
      const tr = document.createElement("tr");
      tr.dataset.pid = j.pid;
      tr.append(cell(String(j.pid)), cell(j.main, "text"), cell(button("Attach", () => attach(j.pid),
        { "data-attach": j.pid })));
      att.appendChild(tr);
    });
    document.body.dataset.jvms = list.jvms.map(j => j.pid).join(",");
    fleetList(list);
  }

  /** The JVMs on the NATS server (dyper ui --nats URL): opened like this machine's, by their id there. */
  function fleetList(list) {
    $("fleet-box").hidden = !list.fleet;
    if (!list.fleet) return;
    $("fleet-url").textContent = "(" + list.fleetUrl + ")";
    const body = $("fleet").tBodies[0];
    body.replaceChildren();
    list.fleet.forEach(j => {
      const tr = document.createElement("tr");
      tr.dataset.id = j.id;
      tr.append(cell(j.host, "text"), cell(j.id, "text"), cell(j.main, "text"), cell(uptime(j.uptimeMs)), cell(j.java),
        cell(button("Open", () => openJvm(j.id, j.main), { "data-open": j.id })));
      body.appendChild(tr);
    });
    $("fleet-note").textContent = list.fleetError ? list.fleetError
      : list.fleet.length ? "" : "No JVM answered WHO on the server within a second.";
    document.body.dataset.fleet = list.fleet.map(j => j.id).join(",");
  }

  async function attach(pid) {
    status("attaching to process " + pid + " …");
    try {
      const r = await api("POST", "/api/jvms/" + pid + "/attach", {});
      status("process " + pid + " (" + r.main + ") is monitored now");
    } catch (e) {
      status("attach " + pid + ": " + e.message, true);
    }
    loadJvms();
  }

  // ---- one JVM

  /**
   * The server's pre-order tree (frame ids, depths, weights; w0: the window compared against) as the flame graph's
   * typed arrays: the page builds no tree itself (docs/ui.md, "A large flame graph").
   */
  function treeOf(s) {
    const t = s.tree;
    return { names: t.names, unit: s.unit || "SAMPLES", total: s.total, total0: t.w0 ? s.beforeTotal : undefined,
      f: Int32Array.from(t.f), d: Int32Array.from(t.d), w: Float64Array.from(t.w),
      w0: t.w0 ? Float64Array.from(t.w0) : undefined };
  }

  function pathOf(tree, node) {
    const p = [];
    for (let i = node; i >= 0; i = tree.parent[i]) p.unshift(tree.names[tree.f[i]]);
    return p;
  }

  function nodeOfPath(tree, path) {
    let node = -1;
    for (let depth = 0; depth < path.length; depth++) {
      let found = -1;
      const from = node < 0 ? 0 : node + 1, to = node < 0 ? tree.f.length : tree.end[node];
      for (let i = from; i < to; i = tree.end[i]) {
        if (tree.d[i] === depth && tree.names[tree.f[i]] === path[depth]) { found = i; break; }
      }
      if (found < 0) return -1;
      node = found;
    }
    return node;
  }

  function methodOf(frame) {
    return frame.charAt(0) === "[" ? null : frame;
  }

  async function openJvm(pid, main) {
    state.pid = pid;
    state.zoomPath = null;
    state.selected = null;
    $("jvms-section").hidden = true;
    $("jvm-section").hidden = false;
    $("jvm-title").textContent = "Process " + pid + " (" + main + ")";
    $("save-html").href = "/api/jvms/" + pid + "/report.html";
    $("save-xml").href = "/api/jvms/" + pid + "/report.xml";
    $("measure-box").hidden = true;
    state.asked = false;
    $("answers-box").hidden = true;
    document.body.dataset.pid = pid;
    state.marks = [];
    showMarks();
    loadMarks();
    quiet();
    live("opening");
    delete document.body.dataset.ended;
    await refresh(true);
    if (pid === state.pid && state.live === "opening") listen(pid);
  }

  function quiet() {
    clearInterval(state.timer);
    clearInterval(state.exactTimer);
    state.timer = state.exactTimer = null;
    if (state.events) state.events.close();
    state.events = null;
  }

  function live(how) {
    state.live = how;
    document.body.dataset.live = how;
  }

  /** Updates by the process's event stream; polling when the stream cannot be had (or fails three times in a row). */
  function listen(pid) {
    quiet();
    if (!window.EventSource) { poll(pid); return; }
    const es = new EventSource("/api/jvms/" + pid + "/events");
    state.events = es;
    live("events");
    let failures = 0;
    es.onopen = () => { failures = 0; };
    es.addEventListener("changed", ev => {
      if (pid !== state.pid) return;
      const d = JSON.parse(ev.data);
      timing.events++;
      document.body.dataset.events = String(timing.events);
      if ($("paused").checked) return;
      if (d.exact) showExact(d.exact);
      if (d.report) refresh(false);
    });
    es.addEventListener("failed", ev => { if (pid === state.pid) status("process " + pid + ": " + JSON.parse(ev.data).error, true); });
    es.addEventListener("ended", ev => {
      es.close();
      if (pid === state.pid) ended(pid, JSON.parse(ev.data).error);
    });
    // a stream that ends is reconnected by EventSource (readyState CONNECTING); one refused (429: too many streams)
    // is CLOSED
    es.onerror = () => {
      if (state.events !== es) return;
      if (es.readyState === EventSource.CLOSED || ++failures >= 3) { es.close(); poll(pid); }
    };
  }

  function poll(pid) {
    quiet();
    live("polling");
    state.timer = setInterval(() => { if (!$("paused").checked) refresh(true); }, REFRESH_MS);
    state.exactTimer = setInterval(() => { if (!$("paused").checked) refreshExact(); }, EXACT_MS);
  }

  /** The process ended: no more updates, and the page says so. */
  function ended(pid, message) {
    quiet();
    live("ended");
    status(message || "process " + pid + " ended", true);
    document.body.dataset.ended = String(pid);
  }

  function back() {
    quiet();
    live("");
    state.pid = null;
    $("jvm-section").hidden = true;
    $("jvms-section").hidden = false;
    loadJvms();
  }

  /** The flame graph and the summary; {@code full}: the exact figures too (the events bring them otherwise). */
  async function refresh(full) {
    if (full === undefined) full = true;
    if (state.pid === null) return;
    if (state.busy) { state.again = true; state.againFull = state.againFull || full; return; }
    state.busy = true;
    state.again = false;
    state.againFull = false;
    const withExact = full || state.live !== "events";
    const pid = state.pid;
    try {
      let compare = $("compare").value;
      if (compare === "before" && !/^\d+s$|^\d+m$/.test(state.window)) compare = "";
      const q = "format=tree&view=" + state.view + "&window=" + state.window + (state.thread ? "&thread=" + state.thread : "")
        + (compare ? "&compare=" + compare : "");
      const t0 = performance.now(), info = {};
      timing.requests.stacks++;
      timing.requests.summary++;
      if (withExact) timing.requests.exact++;
      const [stacks, exact, summary] = await Promise.all([api("GET", "/api/jvms/" + pid + "/stacks?" + q, null, info),
        withExact ? api("GET", "/api/jvms/" + pid + "/exact") : null, api("GET", "/api/jvms/" + pid)]);
      if (pid !== state.pid) return;
      timing.fetchMs = performance.now() - t0 - info.parseMs;
      timing.parseMs = info.parseMs;
      timing.bytes = info.bytes;
      timing.paths = stacks.paths;
      showStacks(stacks);
      if (exact) showExact(exact);
      showSummary(summary);
      if (state.asked) loadAnswers().catch(e => status("answers: " + e.message, true));
      status("");
      document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
    } catch (e) {
      status("process " + pid + ": " + e.message, true);
      if (e.status === 410) ended(pid, e.message);   // the 410's message names the process already
    } finally {
      state.busy = false;
      if (state.again) refresh(state.againFull);
    }
  }

  async function refreshExact() {
    if (state.pid === null || state.busy || state.exactBusy) return;
    state.exactBusy = true;
    const pid = state.pid;
    try {
      timing.requests.exact++;
      const exact = await api("GET", "/api/jvms/" + pid + "/exact");
      if (pid === state.pid) showExact(exact);
    } catch (e) {
      status("process " + pid + ": " + e.message, true);
      if (e.status === 410) ended(pid, e.message);   // the 410's message names the process already
    } finally {
      state.exactBusy = false;
    }
  }

  function showStacks(s) {
    const views = $("views");
    if (!views.childElementCount) {
      VIEWS.forEach(v => views.appendChild(button(v, () => { state.view = v; state.zoomPath = null; refresh(); },
        { "data-view": v, role: "tab" })));
    }
    views.querySelectorAll("button").forEach(b => {
      b.setAttribute("aria-selected", b.dataset.view === state.view);
      b.disabled = !(s.views || []).includes(b.dataset.view);
    });
    const sel = $("thread"), keep = state.thread;
    sel.replaceChildren(new Option("all threads", ""));
    (s.threads || []).forEach(t => sel.appendChild(new Option(t.name + " #" + t.id, t.id)));
    sel.value = keep;
    const t0 = performance.now();
    const tree = treeOf(s);
    D.flameTools.prepare(tree);
    const t1 = performance.now();
    flame.show(tree);
    if (state.zoomPath) {
      const node = nodeOfPath(tree, state.zoomPath);
      if (node >= 0) flame.zoomTo(node);
    }
    runSearch();
    $("flame-info").textContent = s.view + ": " + F.weight(s.total, s.unit) + " in " + windowText(s.window)
      + (s.source ? ", sampled by " + s.source : "") + ". " + (s.note || "") + (s.total ? "" : " No events in this window.")
      + (s.compare ? " Compared with " + (s.compare === "before" ? "the window before" : windowText(s.compare)) + " ("
        + F.weight(s.beforeTotal, s.unit) + "): red grew, blue shrank. " + (s.beforeNote || "") : "");
    topMethods(tree);
    timing.treeMs = t1 - t0;
    timing.drawMs = performance.now() - t1;
    timing.nodes = tree.f.length;
    document.body.dataset.ready = "true";
  }

  /** "the last 10 s", "the run so far", "mark 1 (before) to mark 2 (after)", "mark 2 (after) to now". */
  function windowText(w) {
    if (w === "start") return "the run so far";
    if (w === "10s") return "the last 10 s";
    if (w === "1m") return "the last minute";
    const m = /^(\d+)\.\.(\d*)$/.exec(w || "");
    if (!m) return w;
    const name = id => {
      const k = state.marks.find(x => String(x.id) === id);
      return "mark " + id + (k && k.label !== "mark " + id ? " (" + k.label + ")" : "");
    };
    return name(m[1]) + " to " + (m[2] ? name(m[2]) : "now");
  }

  // ---- marks: moments kept by hand, so windows between them can be shown and compared

  async function loadMarks() {
    const pid = state.pid;
    try {
      const r = await api("GET", "/api/jvms/" + pid + "/marks");
      if (pid === state.pid) { state.marks = r.marks; showMarks(); }
    } catch (e) {
      status("marks: " + e.message, true);
    }
  }

  /** The marks as chips with a delete button, and the windows between them in the Window and Compare lists. */
  function showMarks() {
    const box = $("marks");
    box.replaceChildren();
    state.marks.forEach(m => {
      const chip = document.createElement("span");
      chip.className = "mark";
      chip.dataset.mark = m.id;
      chip.textContent = m.id + ": " + m.label + " at " + new Date(m.takenMillis).toLocaleTimeString() + " ";
      chip.appendChild(button("×", () => unmark(m.id), { "data-unmark": m.id, title: "forget this mark" }));
      box.appendChild(chip);
    });
    const windows = [];
    state.marks.forEach((m, i) => {
      if (i > 0) windows.push(state.marks[i - 1].id + ".." + m.id);
      windows.push(m.id + "..");
    });
    for (const [id, fixed] of [["window", ["10s", "1m", "start"]], ["compare", ["", "before"]]]) {
      const sel = $(id), keep = id === "window" ? state.window : sel.value;
      Array.from(sel.options).filter(o => !fixed.includes(o.value)).forEach(o => o.remove());
      windows.forEach(w => sel.appendChild(new Option(windowText(w), w)));
      const known = fixed.includes(keep) || windows.includes(keep);
      sel.value = known ? keep : fixed[0];
      if (id === "window" && !known) state.window = "10s";
    }
  }

  async function mark() {
    const label = $("mark-label").value.trim();
    try {
      const m = await api("POST", "/api/jvms/" + state.pid + "/marks", label ? { label } : {});
      $("mark-label").value = "";
      status("mark " + m.id + " (" + m.label + ") kept");
    } catch (e) {
      status("mark: " + e.message, true);
    }
    await loadMarks();
  }

  async function unmark(id) {
    try {
      await api("DELETE", "/api/jvms/" + state.pid + "/marks?id=" + id);
    } catch (e) {
      status("mark " + id + ": " + e.message, true);
    }
    await loadMarks();
    refresh();
  }

  /** A model or mode file read here into its box: Apply sends the box, as with pasted XML. */
  async function loadFile(input, box) {
    const file = input.files && input.files[0];
    if (!file) return;
    if (file.size > 512 * 1024) {
      status(file.name + ": " + F.count(file.size) + " bytes; at most 512 KiB (model and modes go in one request of"
        + " at most 1 MiB)", true);
      input.value = "";
      return;
    }
    try {
      $(box).value = await file.text();
      status("read " + file.name + " (" + F.count(file.size) + " bytes): Apply to put it in");
    } catch (e) {
      status(file.name + ": " + e.message, true);
    }
    input.value = "";
  }

  function runSearch() {
    const q = $("search").value;
    const r = flame.search(q);
    const out = $("search-share");
    if (!r) { out.textContent = ""; return; }
    if (r.error) { out.textContent = "bad regex: " + r.error; return; }
    out.textContent = r.frames + " frame(s) match: " + F.pct(r.share) + " of all";
  }

  /** Self and total per method over the window's tree (total counts a method once per path). */
  function topMethods(tree) {
    const self = new Map(), total = new Map(), n = tree.f.length;
    for (let i = 0; i < n; i++) {
      const name = tree.names[tree.f[i]];
      let kids = 0;
      for (let k = i + 1; k < tree.end[i]; k = tree.end[k]) kids += tree.w[k];
      self.set(name, (self.get(name) || 0) + tree.w[i] - kids);
      let nested = false;
      for (let p = tree.parent[i]; p >= 0; p = tree.parent[p]) if (tree.f[p] === tree.f[i]) { nested = true; break; }
      if (!nested) total.set(name, (total.get(name) || 0) + tree.w[i]);
    }
    const rows = Array.from(total.keys()).sort((a, b) => (self.get(b) - self.get(a)) || (total.get(b) - total.get(a)))
      .slice(0, 20);
    const body = $("top").tBodies[0];
    body.replaceChildren();
    rows.forEach(name => {
      const tr = document.createElement("tr");
      tr.append(cell(name, "method"), cell(F.weight(self.get(name), tree.unit)), cell(F.weight(total.get(name), tree.unit)));
      body.appendChild(tr);
    });
  }

  function showExact(x) {
    state.exact = new Map(x.methods.map(m => [m.method, m]));
    const body = $("exact").tBodies[0];
    body.replaceChildren();
    x.methods.forEach(m => {
      const tr = document.createElement("tr");
      tr.dataset.method = m.method;
      tr.append(cell(m.method, "method"), cell(F.count(m.calls), "calls"), cell(F.duration(m.totalNs)),
        cell(F.duration(m.meanNs)), cell(F.duration(m.p50Ns)), cell(F.duration(m.p99Ns)), cell(F.duration(m.maxNs)),
        cell(m.measured ? button("Stop", () => stop(m.method), { "data-stop": m.method }) : ""));
      body.appendChild(tr);
    });
    $("exact-calls").textContent = x.calls.length ? "Calls the measured methods made (counted where they are made): "
      + x.calls.map(c => c.name + " × " + F.count(c.count)).join(", ") : "";
    showSelected();
    if (flame.tree) flame.draw();
  }

  function showSummary(s) {
    state.measured = s.measured;
    $("jvm-facts").textContent = "JDK " + s.java + ", up " + uptime(s.uptimeMs) + ". Patched: "
      + ((s.patched || []).map(p => p.model + " (" + p.classes.length + " class(es))").join(", ") || "nothing")
      + (s.sampler ? ". Sampler: " + s.sampler : "") + ".";
    $("pinned").checked = !!s.pinned;
    $("detail").checked = s.detail && s.detail.state !== "OFF";
    $("detail-state").textContent = s.detail ? s.detail.state + ((s.detail.patched || []).length
      ? ": " + s.detail.patched.map(p => p.method + " × " + p.calls).join(", ") : "")
      + ((s.detail.waiting || []).length ? " (" + s.detail.waiting.join("; ") + ")" : "") : "";
    const body = $("threads").tBodies[0];
    body.replaceChildren();
    (s.threads || []).forEach(t => {
      const tr = document.createElement("tr");
      tr.append(cell(t.id), cell(t.name, "text"), cell(t.cpuNs >= 0 ? F.duration(t.cpuNs) : "-"),
        cell(t.mostly || "-", "text"), cell(t.blocked === undefined ? "-" : F.count(t.blocked)),
        cell(t.waited === undefined ? "-" : F.count(t.waited)));
      body.appendChild(tr);
    });
    const gc = s.gc || {};
    const pauses = gc.pauses || [];
    $("gc").textContent = gc.collections !== undefined ? gc.collections + " collection(s), "
      + F.duration(gc.pauseNs) + " paused in all" + (gc.longestPauseNs >= 0 ? ", the longest "
      + F.duration(gc.longestPauseNs) : "") + (gc.source ? " (" + gc.source + ")" : "") + ". "
      + (pauses.length ? "The last " + pauses.length + ", newest first:" : gc.source === "MXBEAN"
        ? "Single pauses are listed when the monitor's flight recorder runs." : "") : "";
    const rows = $("gc-pauses").tBodies[0];
    rows.replaceChildren();
    pauses.slice().reverse().forEach(p => {
      const tr = document.createElement("tr");
      tr.dataset.cause = p.cause;
      tr.append(cell(new Date(p.time).toLocaleTimeString() + "." + String(p.time % 1000).padStart(3, "0"), "text"),
        cell(p.collector, "text"), cell(p.cause, "text"), cell(F.duration(p.pauseNs)));
      rows.appendChild(tr);
    });
    $("gc-pauses").hidden = !pauses.length;
    $("cost").textContent = "Dyper's own cost in this JVM: " + F.duration(s.monitorCpuNs || 0)
      + " of CPU in the monitor's threads; " + (s.dyperSamples || 0) + " sample(s) in Dyper's code.";
  }

  function showSelected() {
    const box = $("measure-box");
    const name = state.selected;
    if (!name) { box.hidden = true; return; }
    box.hidden = false;
    $("measure-name").textContent = name;
    if ($("question").dataset.method !== name) {
      // "ask about this": a question about the selected method, prefilled, to edit before asking
      $("question").value = "time of " + name + " by caller";
      $("question").dataset.method = name;
    }
    const measured = state.measured.includes(name);
    $("measure").hidden = measured;
    $("stop-selected").hidden = !measured;
    const m = state.exact.get(name);
    $("measure-figures").textContent = m ? F.count(m.calls) + " calls, total " + F.duration(m.totalNs) + ", mean "
      + F.duration(m.meanNs) + ", p50 < " + F.duration(m.p50Ns) + ", p99 < " + F.duration(m.p99Ns) : "";
    $("measure-figures").dataset.calls = m ? String(m.calls) : "";
    histogram($("measure-histogram"), m ? m.histogram : []);
  }

  /** The log2 histogram of a measured method's call times: one bar per bucket, heights by calls. */
  function histogram(box, buckets) {
    box.replaceChildren();
    if (!buckets || !buckets.length) return;
    const NS = "http://www.w3.org/2000/svg", W = 14, H = 40;
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("class", "hist");
    svg.setAttribute("width", buckets.length * W);
    svg.setAttribute("height", H);
    const max = Math.max(...buckets.map(b => b[1]));
    buckets.forEach(([upper, count], i) => {
      const h = Math.max(1, Math.round(count / max * (H - 2)));
      const r = document.createElementNS(NS, "rect");
      r.setAttribute("x", i * W + 1); r.setAttribute("y", H - h); r.setAttribute("width", W - 2); r.setAttribute("height", h);
      const t = document.createElementNS(NS, "title");
      t.textContent = F.count(count) + " call(s) under " + F.duration(upper);
      r.appendChild(t);
      svg.appendChild(r);
    });
    box.appendChild(svg);
  }

  async function measure() {
    const name = state.selected;
    if (!name) return;
    status("measuring " + name + " …");
    try {
      const r = await api("POST", "/api/jvms/" + state.pid + "/measure", { method: name });
      status(r.message + " (" + r.millis + " ms)" + (r.warnings.length ? "; " + r.warnings.join("; ") : ""));
      state.measured = r.measured;
    } catch (e) {
      status(name + ": " + e.message, true);
    }
    refresh();
  }

  /** Puts the question of the box to the process (as dyper ctl PID ask); its answers show below, refreshed. */
  async function ask() {
    const question = $("question").value.trim();
    if (!question) return;
    status("asking: " + question + " …");
    try {
      const r = await api("POST", "/api/jvms/" + state.pid + "/ask", { question });
      status(r.message + ": " + r.sites + " site(s) patched (" + r.millis + " ms)"
        + (r.warnings.length ? "; " + r.warnings.join("; ") : ""));
      state.measured = r.measured;
      state.asked = true;
      await loadAnswers();
    } catch (e) {
      status(e.message, true);
    }
    refresh();
  }

  async function loadAnswers() {
    if (!state.asked || state.pid === null) return;
    const pid = state.pid;
    const a = await api("GET", "/api/jvms/" + pid + "/answers");
    if (pid !== state.pid) return;
    $("answers-box").hidden = !a.text;
    $("answers-text").textContent = a.text;
  }

  async function stop(name) {
    status("stopping " + name + " …");
    try {
      const r = await api("DELETE", "/api/jvms/" + state.pid + "/measure", { method: name });
      status(r.message);
      state.measured = r.measured;
    } catch (e) {
      status(name + ": " + e.message, true);
    }
    refresh();
  }

  async function applyModel() {
    const list = $("model-errors");
    list.replaceChildren();
    status("applying the model …");
    try {
      const r = await api("POST", "/api/jvms/" + state.pid + "/model", { model: $("model-text").value,
        modes: $("modes-text").value });
      status(r.message + (r.warnings.length ? "; " + r.warnings.join("; ") : ""));
    } catch (e) {
      status(e.message, true);
      e.problems.forEach(p => { const li = document.createElement("li"); li.textContent = p; list.appendChild(li); });
    }
    refresh();
  }

  async function removeModel() {
    try {
      const r = await api("DELETE", "/api/jvms/" + state.pid + "/model");
      status(r.message);
    } catch (e) {
      status(e.message, true);
    }
    refresh();
  }

  function setup() {
    flame = new D.Flame($("flame"), $("tooltip"), {
      select(node) {
        const t = flame.tree;
        state.zoomPath = pathOf(t, node);
        state.selected = methodOf(t.names[t.f[node]]);
        showSelected();
        runSearch();
      },
      exact(name) { return state.measured.includes(name); },
    });
    D.flame = flame;
    D.ui = { state, refresh, loadJvms, timing };
    $("back").addEventListener("click", back);
    $("reset").addEventListener("click", () => { state.zoomPath = null; flame.reset(); runSearch(); });
    $("search").addEventListener("input", runSearch);
    $("thread").addEventListener("change", () => { state.thread = $("thread").value; state.zoomPath = null; refresh(); });
    $("window").addEventListener("change", () => { state.window = $("window").value; refresh(); });
    $("compare").addEventListener("change", refresh);
    $("mark").addEventListener("click", mark);
    $("model-file").addEventListener("change", () => loadFile($("model-file"), "model-text"));
    $("modes-file").addEventListener("change", () => loadFile($("modes-file"), "modes-text"));
    $("measure").addEventListener("click", measure);
    $("ask").addEventListener("click", ask);
    $("stop-selected").addEventListener("click", () => stop(state.selected));
    $("apply-model").addEventListener("click", applyModel);
    $("remove-model").addEventListener("click", removeModel);
    $("pinned").addEventListener("change", async () => {
      try { await api("POST", "/api/jvms/" + state.pid + "/pin", { pinned: $("pinned").checked }); }
      catch (e) { status(e.message, true); }
    });
    $("detail").addEventListener("change", async () => {
      try { await api("POST", "/api/jvms/" + state.pid + "/detail", { on: $("detail").checked }); }
      catch (e) { status(e.message, true); }
    });
    document.addEventListener("keydown", e => { if (e.key === "Escape") $("reset").click(); });
    loadJvms().then(() => { document.body.dataset.listed = "true"; });
    state.jvmTimer = setInterval(() => { if (state.pid === null) loadJvms(); }, 3000);
  }

  setup();
})(window.Dyper);
