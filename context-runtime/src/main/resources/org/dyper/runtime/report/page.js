/*
 * Dyper report page: reads the embedded data, fills in the summary, wires the flame graph's controls, links sampled
 * frames and exact figures both ways, and adds the tables (exact, monitor estimates, and the comparison of a diff).
 */
"use strict";
(function (D) {
  const { el, kids, kid, attr, num, methodKey } = D.dom;
  const F = D.fmt;
  const data = JSON.parse(document.getElementById("dyper-data").textContent);
  const diff = data.mode === "diff";
  const $ = id => document.getElementById(id);
  D.data = data;

  /** The exact part (DYPER_REPORT) and the monitor part (MONITOR_REPORT) of one run, wherever they sit. */
  function parts(run) {
    let r = run.root, exact = null, monitor = null;
    if (r.t === "DYPER_REPLY") r = kid(r, "MONITOR_REPORT") || kid(r, "DYPER_REPORT");
    if (r.t === "DYPER_REPORT") { exact = r; monitor = kid(r, "MONITOR_REPORT"); }
    if (r.t === "MONITOR_REPORT") {
      monitor = r;
      const ins = kid(r, "INSTRUMENTATION");
      exact = ins && attr(ins, "ACTIVE") !== "false" ? kid(ins, "DYPER_REPORT") : null;
    }
    return { run, exact, monitor };
  }
  const runs = data.runs.map(parts);
  const main = runs[runs.length - 1];
  // a report of many JVMs (dyper report --all): its per-thread trees are the JVMs (fleet.js adds the rest)
  const fleet = !diff && main.monitor && kid(main.monitor, "FLEET") ? "JVM" : null;

  // ---- exact figures by method, so sampled frames can link to them ----

  const EXACT_INDEX = [
    ["TIMING", "SITE", "x-timing", "Timing", a => F.count(a.COUNT) + " calls, mean " + F.duration(a.MEAN_NS)],
    ["SAMPLED_TIMING", "SITE", "x-sampled", "Sampled timing", a => F.count(a.COUNT) + " calls"],
    ["COUNTS", "SITE", "x-counts", "Counts", a => F.count(a.COUNT)],
    ["CALLS", "SITE", "x-calls", "Calls", a => F.count(a.COUNT) + " calls"],
    ["VALUES", "SITE", "x-values", "Values", a => F.count(a.COUNT) + " values"],
    ["LOCKS", "SITE", "x-locks", "Locks", a => F.count(a.ACQUISITIONS) + " acquired, wait " + F.duration(a.WAIT_NS)],
    ["ALLOCATIONS", "SITE", "x-allocations", "Allocations", a => F.count(a.COUNT) + " allocations"],
    ["FIELDS", "SITE", "x-fieldsites", "Field writes", a => F.count(a.WRITES) + " writes"],
    ["FAILURES", "SITE", "x-failures", "Hook failures", a => F.count(a.COUNT) + " failures"],
  ];
  const exactByFrame = new Map();
  function addExact(key, entry) {
    if (!exactByFrame.has(key)) exactByFrame.set(key, []);
    exactByFrame.get(key).push(entry);
  }
  if (main.exact) {
    for (const [tag, child, prefix, title, text] of EXACT_INDEX) {
      kids(kid(main.exact, tag), child).forEach((s, i) => {
        const key = methodKey(attr(s, "NAME") || "");
        if (key) addExact(key, { title, id: prefix + "-" + i, text: text(s.a), site: attr(s, "NAME") });
      });
    }
    kids(kid(main.exact, "LOCKS"), "LOCK_CLASS").forEach((s, i) => addExact("[lock " + attr(s, "NAME") + "]",
      { title: "Locks by class", id: "x-lockclass-" + i, text: F.count(attr(s, "ACQUISITIONS")) + " acquired",
        site: attr(s, "NAME") }));
    kids(kid(main.exact, "ALLOCATIONS"), "TYPE").forEach((s, i) => addExact("[alloc " + attr(s, "NAME") + "]",
      { title: "Allocations by type", id: "x-alloctype-" + i, text: F.count(attr(s, "COUNT")) + " allocations",
        site: attr(s, "NAME") }));
  }
  const sampledFrames = new Set(data.frames);

  // ---- summary ----

  function weaving(run, p) {
    // a report of many JVMs: each JVM says how it was woven or patched (dyper report --all, FLEET's WOVEN)
    const fleetJvms = kids(kid(p.monitor, "FLEET"), "JVM").filter(j => attr(j, "STATUS") === "OK");
    if (fleetJvms.length) {
      const how = new Map();
      fleetJvms.forEach(j => how.set(attr(j, "WOVEN"), (how.get(attr(j, "WOVEN")) || []).concat(attr(j, "N"))));
      return [...how].map(([w, ns]) => (ns.length === 1 ? "JVM " : "JVMs ") + ns.join(", ") + ": " + w).join("; ");
    }
    const agents = run.process ? run.process.agents : null;
    const sites = p.exact ? kids(p.exact).filter(s => s.t !== "MONITOR_REPORT" && s.t !== "FAILURES")
      .reduce((n, s) => n + kids(s).length, 0) : 0;
    const runTime = kids(kid(p.monitor, "PATCHES"), "MODEL").length > 0;
    if (!agents) {
      return sites ? "not recorded in the XML (pages made at exit or with dyper report --pid say how)"
        + (runTime ? "; patched at run time (below)" : "") : "nothing woven reported";
    }
    const parts = [];
    if (agents.some(a => a.includes("=replace="))) parts.push("at launch by dyper run: classes woven ahead, swapped in as they load (replace agent)");
    if (agents.some(a => /aspectjweaver/.test(a))) parts.push("at load time by the AspectJ weaver agent");
    if (!parts.length) parts.push(runTime ? "no weaving agent at launch; patched at run time (below)"
      : sites ? "before the launch (dyper weave or the Maven plugin: woven classes on the class path)" : "nothing woven");
    if (agents.some(a => /dyper-runtime/.test(a))) parts.push("DYPER monitor started as an agent");
    return parts.join("; ");
  }

  function when(ms) { return ms > 0 ? new Date(ms).toLocaleString() : "unknown"; }

  /**
   * A view's or section's window (FROM, TO: epoch ms) in seconds after the JVM's start: the thread dumps' figures of
   * the time before the flight recorder, and the recorder's from there (docs/monitor.md, "Where samples come from").
   */
  function windowText(a, m) {
    const start = num(m, "START"), s = ms => ((Number(ms) - start) / 1000).toFixed(1) + " s";
    if (!(start > 0) || !a.FROM) return "";
    return (a.TO ? s(a.FROM) + " to " + s(a.TO) : "from " + s(a.FROM)) + " after the JVM started";
  }

  function summaryOf(p) {
    const run = p.run, items = [];
    const m = p.monitor, x = p.exact;
    const pid = attr(m, "PID") || attr(x, "PID");
    const mainClass = attr(m, "MAIN") || (run.process && run.process.main);
    items.push(["Program", (mainClass || "main class not recorded") + (pid ? " (pid " + pid + ")" : "")]);
    const start = m ? num(m, "START") : run.process ? run.process.start : NaN;
    const end = x ? num(x, "TIME") : num(m, "TIME");
    items.push(["Ran", start > 0 && end > 0 ? F.duration((end - start) * 1e6) + ", from " + when(start) + " to " + when(end)
      : "report taken " + when(end)]);
    if (run.process && run.process.java) items.push(["Java", run.process.java]);
    items.push(["Woven", weaving(run, p)]);
    const patched = kids(kid(m, "PATCHES"), "MODEL");
    const classes = n => n + (n === 1 ? " class" : " classes");
    if (patched.length) items.push(["Patched at run time", patched.map(md => "model " + attr(md, "NAME") + " ("
      + classes(kids(md, "CLASS").filter(c => attr(c, "STATE") === "PATCHED").length) + " patched now): "
      + (attr(md, "ACTIVE") === "true" ? "in since " + when(num(md, "SINCE"))
        : "in from " + when(num(md, "SINCE")) + " to " + when(num(md, "UNTIL")))).join("; ")]);
    const measured = [];
    if (x) {
      for (const sec of D.tables.SECTIONS) {
        const s = kid(x, sec.tag);
        const unit = sec.unit || (sec.tag === "FIELDS" ? "FIELD" : "SITE");
        const noun = sec.noun || (sec.tag === "FIELDS" ? " field" : " site");
        const n = s ? kids(s, unit).length : 0;
        if (n && sec.tag !== "FAILURES") {
          measured.push(el("a", { href: "#exact-" + sec.id }, sec.title + ": " + n + noun + (n === 1 ? "" : "s")));
        }
      }
    }
    items.push(["Measured exactly", measured.length ? measured.flatMap((a, i) => i ? [", ", a] : [a])
      : "nothing (no instrumentation data in this report)"]);
    const est = [];
    const cpu = kid(m, "CPU"), before = kid(m, "CPU_BEFORE_JFR");
    if (cpu) est.push("CPU every " + attr(m, "CHECKTIME") + " ms: " + F.count(attr(cpu, "SAMPLES")) + " samples"
      + (before ? " (" + (attr(cpu, "SOURCE") || "?") + ", " + windowText(cpu.a, m) + ")" : ""));
    if (before) est.push("before the flight recorder started: " + F.count(attr(before, "SAMPLES")) + " samples ("
      + attr(before, "SOURCE") + ", " + windowText(before.a, m) + ")");
    if (data.stacks && p === main) {
      const a = data.stacks.a;
      est.push("stacks from " + (a.SOURCE || "?") + ": " + data.stacks.views.map(v => v.name + " " + F.weight(v.total, v.unit))
        .join(", ") + (a.NODES ? "; " + F.count(a.NODES) + " nodes" : ""));
    }
    items.push(["Estimated (sampled)", est.length ? est.join("; ") : m ? "no CPU samples or stacks in the monitor's report"
      : "nothing (the DYPER monitor's report is not in it)"]);
    const failures = x ? num(kid(x, "FAILURES"), "TOTAL") : 0;
    const dropped = data.stacks && p === main ? Number(data.stacks.a.DROPPED || 0) : 0;
    const agentErrors = kids(m, "AGENT").filter(a => attr(a, "ERROR"));
    const fail = [];
    fail.push(failures > 0 ? el("a", { class: "bad", href: "#exact-failures" }, F.count(failures) + " hook failures")
      : el("span", { class: "good" }, "no hook failures"));
    if (dropped > 0) fail.push(el("span", { class: "bad" }, "; " + F.count(dropped) + " samples dropped past the "
      + F.count(data.stacks.a.NODE_LIMIT) + "-node bound"));
    for (const a of agentErrors) fail.push(el("span", { class: "bad" }, "; agent " + attr(a, "NAME") + " failed: " + attr(a, "ERROR")));
    items.push(["Failures", fail]);
    return items;
  }

  function fillSummary() {
    const dl = $("summary-list");
    if (!diff) {
      for (const [k, v] of summaryOf(main)) dl.append(el("dt", null, k), el("dd", null, v));
      return;
    }
    const [a, b] = runs.map(summaryOf);
    dl.append(el("dt", null, "Compared"), el("dd", null, "before: " + runs[0].run.label + " — after: " + runs[1].run.label));
    a.forEach(([k, v], i) => {
      dl.append(el("dt", null, k + " (before)"), el("dd", null, v));
      dl.append(el("dt", null, k + " (after)"), el("dd", null, b[i][1]));
    });
  }

  // ---- flame graph ----

  const VIEW_TEXT = {
    CPU: "running threads: where CPU time goes",
    CPU_BEFORE_JFR: "running threads before the flight recorder started, from thread dumps: where CPU time went",
    WALL: "all threads, running or not: where time passes",
    LOCK: "time threads spent blocked or parked; the leaf names the lock's class",
    ALLOC: "bytes allocated; the leaf names the allocated type",
    THREAD_START: "where threads were started",
  };
  const state = { view: null, thread: "", inverted: false, before: false, selected: -1 };
  const treeCache = new Map();
  let flame = null;

  function treeOf(v, key) {
    if (!treeCache.has(key)) {
      treeCache.set(key, {
        names: data.frames, unit: v.unit, total: v.total, total0: v.total0, f: Int32Array.from(v.f),
        d: Int32Array.from(v.d), w: Float64Array.from(v.w), w0: v.w0 ? Float64Array.from(v.w0) : undefined,
      });
    }
    return treeCache.get(key);
  }

  function currentTree() {
    const v = data.stacks.views.find(x => x.name === state.view);
    let t;
    if (state.thread) {
      const th = v.threads.find(x => x.id === state.thread);
      t = treeOf(th, v.name + "/" + th.id);
      t.total = th.total;
    } else t = treeOf(v, v.name);
    return state.inverted ? D.flameTools.invert(t) : t;
  }

  function render() {
    const v = data.stacks.views.find(x => x.name === state.view);
    document.querySelectorAll("#views button").forEach(b => b.setAttribute("aria-selected", b.dataset.view === state.view));
    const t = currentTree();
    flame.show(t, state.before);
    const a = data.stacks.a, va = v.a || {}, source = va.SOURCE || a.SOURCE;
    const th = state.thread ? v.threads.find(x => x.id === state.thread) : null;
    $("flame-info").textContent = v.name + ": " + (VIEW_TEXT[v.name] || v.name.toLowerCase()) + ". "
      + (diff ? "Before " + F.weight(v.total0, v.unit) + ", after " + F.weight(v.total, v.unit)
        : F.weight(t.total, v.unit) + " in all" + (state.thread ? " in this " + (fleet || "thread") : ""))
      + (source ? ", sampled by " + source : "") + viewWindow(v, va)
      + (state.inverted ? "; inverted: roots are where it was spent, "
        + "children their callers" : "") + ". Estimates." + leftOut(th ? th.a || {} : va, v.unit);
    state.selected = -1;
    runSearch();
    details(-1);
  }

  /** The window of CPU_BEFORE_JFR, and CPU's when that view is there: two sources, each named with its time. */
  function viewWindow(v, va) {
    const apart = data.stacks.views.some(x => x.name === "CPU_BEFORE_JFR");
    if (diff || !main.monitor || !(va.TO || (apart && v.name === "CPU"))) return "";
    const w = windowText(va, main.monitor);
    return w ? ", " + w : "";
  }

  /** What the producer left out of a view, said where its graph is (never silently smaller). */
  function leftOut(va, unit) {
    const parts = [];
    if (Number(va.OMITTED_PATHS) > 0) {
      parts.push(F.count(va.OMITTED_PATHS) + " lighter paths (" + F.weight(va.OMITTED_WEIGHT || 0, unit)
        + ") left out of the report");
    }
    if (Number(va.DROPPED) > 0) {
      parts.push(F.count(va.DROPPED) + " events" + (Number(va.DROPPED_WEIGHT) > 0 ? " (" + F.weight(va.DROPPED_WEIGHT, unit)
        + ")" : "") + " dropped past the node bound");
    }
    if (Number(va.THREAD_DROPPED) > 0) parts.push(F.count(va.THREAD_DROPPED) + " events missing from the per-thread trees");
    if (Number(va.THREADS_OMITTED) > 0) parts.push(F.count(va.THREADS_OMITTED) + " threads not listed");
    return parts.length ? " Not shown: " + parts.join("; ") + "." : "";
  }

  function runSearch() {
    const q = $("search").value.trim(), out = $("search-share");
    const r = flame.search(q);
    out.className = "";
    if (!r) { out.textContent = ""; return; }
    if (r.error) { out.textContent = "Not a regular expression: " + r.error; out.className = "none"; return; }
    if (!r.frames) { out.textContent = "No frame matches “" + q + "”."; out.className = "none"; return; }
    const unit = flame.tree.unit;
    out.textContent = "Matched: " + F.pct(r.share) + " of " + (diff && state.before ? "before" : "all") + " ("
      + F.weight(r.weight, unit) + " of " + F.weight(r.total, unit) + "; " + r.frames + " frame name"
      + (r.frames === 1 ? "" : "s") + ")" + (r.zoomShare !== null ? "; " + F.pct(r.zoomShare) + " of the zoomed frame" : "");
  }

  /** The details line under the graph: the frame, its figures, and links to exact figures of the same method. */
  function details(node) {
    const box = $("frame-details");
    if (node < 0) node = state.selected;
    box.textContent = "";
    if (node < 0) {
      box.append("Hover over a frame to see its figures; click it to zoom in (Reset zoom or Esc to go back).");
      return;
    }
    const t = flame.tree, name = t.names[t.f[node]], lines = flame.describe(node);
    box.append(el("span", { class: "name" }, name), " — ", lines.slice(1).filter(l => !l.startsWith("◆")).join("; "));
    const exact = exactByFrame.get(name);
    if (exact) {
      box.append(el("br"), el("span", { class: "badge exact" }, "exact"), " ");
      exact.forEach((e, i) => box.append(i ? " · " : "", el("a", { href: "#" + e.id, class: "exact-link",
        onclick: () => flash(e.id) }, e.title + ": " + e.text)));
    }
  }

  function flash(id) {
    const tr = $(id);
    if (!tr) return;
    tr.classList.add("flash");
    setTimeout(() => tr.classList.remove("flash"), 2500);
  }

  function setupFlame() {
    if (!data.stacks || !data.stacks.views.length) {
      $("flame-ui").hidden = true;
      $("flame-empty").hidden = false;
      $("flame-empty").textContent = "No sampled stacks in this report. They come from the DYPER monitor: dyper run "
        + "starts it, and dyper report --pid PID takes its report from a running program.";
      return;
    }
    $("flame-source").textContent = diff ? "(differential: red grew, blue shrank)" : "";
    flame = new D.Flame($("flame"), $("tooltip"), {
      exact: name => exactByFrame.has(name),
      hover: node => details(node),
      select: node => { state.selected = node; details(node); runSearch(); },
    });
    D.flame = flame;
    const names = data.stacks.views.map(v => v.name);
    const order = ["CPU", "WALL", "LOCK", "ALLOC"].concat(names.filter(n => !["CPU", "WALL", "LOCK", "ALLOC"].includes(n)));
    for (const n of order) {
      const present = names.includes(n);
      $("views").append(el("button", { type: "button", role: "tab", "data-view": n, disabled: !present,
        title: present ? VIEW_TEXT[n] || n : "no " + n + " view in this report",
        onclick: () => { state.view = n; fillThreads(); render(); } }, n));
    }
    state.view = order.find(n => names.includes(n));
    if (fleet) $("thread").parentNode.firstChild.textContent = "JVM ";
    fillThreads();
    $("thread").addEventListener("change", () => { state.thread = $("thread").value; render(); });
    $("inverted").addEventListener("change", () => { state.inverted = $("inverted").checked; render(); });
    $("layout-label").hidden = !diff;
    $("layout").addEventListener("change", () => { state.before = $("layout").value === "before"; render(); });
    $("search").addEventListener("input", runSearch);
    $("reset").addEventListener("click", () => { flame.reset(); state.selected = -1; details(-1); runSearch(); });
    document.addEventListener("keydown", e => {
      if (e.key === "Escape" && document.activeElement !== $("search")) { flame.reset(); runSearch(); }
    });
    legend();
    render();
  }

  function fillThreads() {
    const v = data.stacks.views.find(x => x.name === state.view), sel = $("thread");
    sel.textContent = "";
    sel.append(el("option", { value: "" }, fleet ? "all JVMs" : "all threads"));
    for (const t of v.threads || []) sel.append(el("option", { value: t.id }, t.name + " (" + t.id + ")"));
    sel.disabled = !(v.threads && v.threads.length);
    state.thread = "";
  }

  function legend() {
    const L = $("flame-legend"), K = D.flameTools.KINDS;
    if (diff) {
      L.append(el("span", { class: "swatch", style: "background:rgb(255,60,60)" }), " larger share after (slower)",
        el("span", { class: "swatch", style: "background:rgb(60,60,255)" }), " smaller share after (faster)",
        el("span", { class: "swatch", style: "background:rgb(236,236,236)" }), " unchanged");
    } else {
      for (const k of ["app", "jdk", "dyper", "lock", "alloc"]) {
        const c = K[k].fixed || "hsl(" + K[k].hue[0] + "," + K[k].sat + "%," + K[k].light[0] + "%)";
        L.append(el("span", { class: "swatch", style: "background:" + c }), " " + K[k].label);
      }
    }
    L.append(el("span", { class: "swatch", style: "background:" + D.flameTools.HIGHLIGHT }), " search match",
      el("span", null, "◤ has exact figures (click the frame, then the link)"));
  }

  /** A link from an exact site to its frame in the flame graph, when the sampled stacks have that method. */
  function sampledLink(siteName) {
    const key = methodKey(siteName || "");
    if (!flame || !key || !sampledFrames.has(key)) return null;
    return el("a", { href: "#flame-section", class: "sampled", title: "show this method in the flame graph",
      onclick: () => { $("search").value = key; runSearch(); } }, "▲ flame graph");
  }
  D.page = { sampledLink, exactByFrame };

  // ---- the tables ----

  function monitorBlocks(m) {
    const T = D.tables, out = [];
    const cpu = kid(m, "CPU");
    const methods = kids(kid(cpu, "METHODS"), "METHOD").map(e => Object.assign({ method: attr(e, "CLASS") + "." + attr(e, "NAME") }, e.a));
    if (methods.length) {
      out.push(T.block("monitor-methods", "Hot methods (thread samples)", false, "Every " + attr(m, "CHECKTIME")
        + " ms the running threads' stacks are sampled; self: the sample's top frame in your code.",
        T.table([{ key: "method", label: "method", type: "site" }, { key: "SELF", label: "self", type: "count", est: true },
          { key: "SELF_NS", label: "self time", type: "ns", est: true }, { key: "TOTAL", label: "total", type: "count", est: true },
          { key: "TOTAL_NS", label: "total time", type: "ns", est: true }, { key: "IO", label: "I/O", type: "count", est: true },
          { key: "DETAIL", label: "hot", type: "text" }], methods, "monitor-methods")));
    }
    const before = kid(m, "CPU_BEFORE_JFR");
    const early = kids(kid(before, "METHODS"), "METHOD").map(e => Object.assign({ method: attr(e, "CLASS") + "." + attr(e, "NAME") }, e.a));
    if (early.length) {
      out.push(T.block("monitor-methods-before", "Hot methods before the flight recorder started (thread dumps)", false,
        "The thread dumps' samples of " + windowText(before.a, m) + ", kept apart from the flight recorder's, which "
        + "cover the time from there (the table above).",
        T.table([{ key: "method", label: "method", type: "site" }, { key: "SELF", label: "self", type: "count", est: true },
          { key: "SELF_NS", label: "self time", type: "ns", est: true }, { key: "TOTAL", label: "total", type: "count", est: true },
          { key: "TOTAL_NS", label: "total time", type: "ns", est: true }, { key: "IO", label: "I/O", type: "count", est: true }],
        early, "monitor-methods-before")));
    }
    const detailed = kids(kid(m, "DETAIL"), "DETAILED").map(e => {
      const x = kid(e, "EXACT"), s = kid(e, "ESTIMATE");
      return { method: attr(e, "CLASS") + "." + attr(e, "NAME"), state: attr(e, "STATE") === "PATCHED" ? "patched"
        : "removed", COUNT: attr(x, "COUNT"), TOTAL_NS: attr(x, "TOTAL_NS"), MEAN_NS: attr(x, "MEAN_NS"),
        MIN_NS: attr(x, "MIN_NS"), MAX_NS: attr(x, "MAX_NS"), EST_TOTAL: attr(s, "TOTAL"), EST_NS: attr(s, "TOTAL_NS") };
    });
    if (detailed.length) {
      out.push(T.block("monitor-detailed", "Detailed automatically", true, "Methods the monitor patched in the running "
        + "program because sampling found them hot (DETAIL=true, docs/detailing.md): every call timed while patched, "
        + "beside the sampled estimate of the same method.",
        T.table([{ key: "method", label: "method", type: "site" }, { key: "state", label: "now", type: "text" },
          { key: "COUNT", label: "calls", type: "count" }, { key: "TOTAL_NS", label: "total", type: "ns" },
          { key: "MEAN_NS", label: "mean", type: "ns" }, { key: "MIN_NS", label: "min", type: "ns" },
          { key: "MAX_NS", label: "max", type: "ns" }, { key: "EST_TOTAL", label: "samples", type: "count", est: true },
          { key: "EST_NS", label: "sampled time", type: "ns", est: true }], detailed, "monitor-detailed")));
    }
    const threads = kids(kid(cpu, "THREADS"), "THREAD").map(e => Object.assign({}, e.a));
    if (threads.length) {
      out.push(T.block("monitor-threads", "Threads", false, "CPU samples: the samples of the CPU view taken in "
        + "the thread (an estimate, by the source the flame graph names); CPU time: the JVM's thread CPU clock, exact "
        + "where marked.",
        T.table([{ key: "NAME", label: "thread", type: "text" },
          { key: "RUNNABLE", label: "CPU samples", type: "count", est: true },
          { key: "CPU_NS", label: "CPU time", type: "ns", est: r => r.CPU_EXACT !== "true",
            render: r => Number(r.CPU_NS) < 0 ? "-" : (r.CPU_EXACT === "true" ? "" : "≈ ") + F.duration(r.CPU_NS) }],
        threads, "monitor-threads")));
    }
    const con = kid(m, "CONTENTION");
    const monitors = kids(kid(con, "MONITORS"), "MONITOR").map(e => Object.assign({ threads: kids(e, "BLOCKED").length }, e.a));
    if (monitors.length) {
      out.push(T.block("monitor-monitors", "Contended monitors", false, "Threads sampled BLOCKED on each monitor.",
        T.table([{ key: "NAME", label: "monitor", type: "site" },
          { key: "BLOCKED_SAMPLES", label: "blocked samples", type: "count", est: true },
          { key: "BLOCKED_EPISODES", label: "episodes", type: "count", est: true },
          { key: "BLOCKED_NS", label: "blocked time", type: "ns", est: true },
          { key: "threads", label: "threads", type: "count" }], monitors, "monitor-monitors")));
    }
    const waits = kids(kid(con, "THREADS"), "THREAD").map(e => Object.assign({}, e.a));
    if (waits.length) {
      out.push(T.block("monitor-waits", "Blocked and waited (from the JVM)", true, "Counts are the JVM's own; times "
        + "need CONTENTION=true (else -).", T.table([{ key: "NAME", label: "thread", type: "text" },
          { key: "BLOCKED_COUNT", label: "blocked", type: "count" }, { key: "BLOCKED_MS", label: "blocked time", type: "ms" },
          { key: "WAITED_COUNT", label: "waited", type: "count" }, { key: "WAITED_MS", label: "waited time", type: "ms" }],
        waits, "monitor-waits")));
    }
    const dl = kid(con, "DEADLOCKS");
    if (dl && num(dl, "COUNT") > 0) {
      out.push(T.block("monitor-deadlocks", "Deadlocks: " + attr(dl, "COUNT"), true, null,
        kids(dl, "DEADLOCK").map(d => el("ul", null, kids(d, "THREAD").map(t => el("li", { class: "bad" },
          "“" + attr(t, "NAME") + "” waits for " + attr(t, "WAITS_FOR") + " held by “" + attr(t, "HELD_BY") + "”"))))));
    }
    return out;
  }

  function compareBlocks() {
    const T = D.tables, [a, b] = runs, out = [];
    const pairs = (tag, fn) => {
      const m = new Map();
      kids(kid(a.exact, tag), "SITE").forEach(s => m.set(attr(s, "NAME"), [s.a, null]));
      kids(kid(b.exact, tag), "SITE").forEach(s => { const p = m.get(attr(s, "NAME")) || [null, null]; p[1] = s.a; m.set(attr(s, "NAME"), p); });
      return Array.from(m.entries()).map(([name, [x, y]]) => fn(name, x || {}, y || {}));
    };
    const change = (x, y) => (x > 0 && isFinite(y) ? (y - x) / x : NaN);
    const changeCol = { key: "change", label: "change", type: "text", sort: r => isNaN(r.change) ? -Infinity : r.change,
      render: r => isNaN(r.change) ? "-" : el("span", { class: r.change > 0 ? "up" : r.change < 0 ? "down" : "" },
        (r.change > 0 ? "+" : "") + (r.change * 100).toFixed(1) + " %") };
    const timing = pairs("TIMING", (NAME, x, y) => ({ NAME, c0: x.COUNT, c1: y.COUNT, m0: x.MEAN_NS, m1: y.MEAN_NS,
      change: change(Number(x.MEAN_NS), Number(y.MEAN_NS)) }));
    if (timing.length) {
      out.push(T.block("compare-timing", "Timing: before and after", true, "Change: of the mean call time.",
        T.table([{ key: "NAME", label: "site", type: "site" }, { key: "c0", label: "calls before", type: "count" },
          { key: "c1", label: "calls after", type: "count" }, { key: "m0", label: "mean before", type: "ns" },
          { key: "m1", label: "mean after", type: "ns" }, changeCol], timing, "compare-timing")));
    }
    for (const [tag, title] of [["COUNTS", "Counts"], ["CALLS", "Calls"]]) {
      const rows = pairs(tag, (NAME, x, y) => ({ NAME, c0: x.COUNT, c1: y.COUNT, change: change(Number(x.COUNT), Number(y.COUNT)) }));
      if (rows.length) {
        out.push(T.block("compare-" + tag.toLowerCase(), title + ": before and after", true, null,
          T.table([{ key: "NAME", label: "site", type: "site" }, { key: "c0", label: "before", type: "count" },
            { key: "c1", label: "after", type: "count" }, changeCol], rows, "compare-" + tag.toLowerCase())));
      }
    }
    if (data.stacks) {
      for (const v of data.stacks.views) {
        const t = treeOf(v, v.name);
        D.flameTools.prepare(t);
        const self = new Map();
        for (let i = 0; i < t.f.length; i++) {
          let s = t.w[i], s0 = t.w0[i];
          for (let c = i + 1; c < t.end[i]; c = t.end[c]) { s -= t.w[c]; s0 -= t.w0[c]; }
          const e = self.get(t.f[i]) || [0, 0];
          e[0] += s0; e[1] += s;
          self.set(t.f[i], e);
        }
        const rows = Array.from(self.entries()).map(([fid, [s0, s1]]) => {
          const a0 = v.total0 > 0 ? s0 / v.total0 : 0, a1 = v.total > 0 ? s1 / v.total : 0;
          return { NAME: data.frames[fid], before: a0, after: a1, delta: a1 - a0 };
        }).filter(r => r.delta !== 0).sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta)).slice(0, 30);
        if (!rows.length) continue;
        out.push(T.block("compare-frames-" + v.name, v.name + ": biggest changes in self share", false,
          "Share of the view's total spent in the frame itself, before and after.",
          T.table([{ key: "NAME", label: "frame", type: "site" }, { key: "before", label: "before", type: "pct", est: true },
            { key: "after", label: "after", type: "pct", est: true },
            { key: "delta", label: "change", type: "text", sort: r => r.delta, render: r => el("span",
              { class: r.delta > 0 ? "up" : "down" }, (r.delta > 0 ? "+" : "") + (r.delta * 100).toFixed(2) + " points") }],
          rows, "compare-frames-" + v.name)));
      }
    }
    return out;
  }

  /** The blocks, or a note saying why there are none, so that no heading stands over nothing. */
  function nonEmpty(blocks, why) {
    return blocks.length ? blocks : [el("div", { class: "note" }, why)];
  }

  function fillTables() {
    const box = $("tables"), toc = $("toc");
    toc.append(el("a", { href: "#summary" }, "Summary"), el("a", { href: "#flame-section" }, "Flame graph"));
    if (diff) {
      box.append(el("section", { id: "compare" }, el("h2", null, "What changed"), compareBlocks()));
      toc.append(el("a", { href: "#compare" }, "What changed"));
    }
    box.append(el("section", { id: "exact" }, el("h2", null, "Exact measurements", el("span", { class: "badge exact" }, "exact"),
      diff ? el("span", { class: "note" }, "(after: " + main.run.label + ")") : null),
      nonEmpty(main.exact ? D.tables.exactBlocks(main.exact) : [], "No exact measurements in this report: nothing "
        + "woven reported into it.")));
    toc.append(el("a", { href: "#exact" }, "Exact measurements"));
    const heap = kid(main.monitor, "HEAP") || kid(main.exact, "HEAP");
    if (heap && !diff) {
      box.append(el("section", { id: "heap" }, el("h2", null, "Heap", el("span", { class: "badge exact" }, "exact")),
        el("div", { class: "note" }, F.count(attr(heap, "OBJECTS")) + " live objects, " + F.bytes(attr(heap,
          "SHALLOW_BYTES")) + " shallow, " + F.count(attr(heap, "REFERENCES")) + " references, from a dump of "
          + F.bytes(attr(heap, "DUMP_BYTES")) + "; sizes for " + attr(heap, "HEADER_BYTES") + "-byte headers, "
          + attr(heap, "REFERENCE_BYTES") + "-byte references, " + attr(heap, "ALIGNMENT") + "-byte alignment."),
        D.tables.heapBlocks(heap)));
      toc.append(el("a", { href: "#heap" }, "Heap"));
    }
    if (main.monitor && !diff) {
      box.append(el("section", { id: "monitor" }, el("h2", null, "Monitor", el("span", { class: "badge estimate" },
        "estimate")), nonEmpty(monitorBlocks(main.monitor), "No monitor tables in this report (hot methods, threads, "
        + "contention): its samples are in the flame graph above.")));
      toc.append(el("a", { href: "#monitor" }, "Monitor"));
    }
  }

  document.title = data.title;
  $("title").textContent = data.title;
  $("subtitle").textContent = (diff ? "Before: " + runs[0].run.label + " — after: " + runs[1].run.label
    : "From " + main.run.label) + " · page made " + new Date(data.generated).toLocaleString() + " by Dyper";
  fillSummary();
  setupFlame();
  fillTables();
  // when the page had opened and drawn, in ms since navigation started (the 100,000-node benchmark reads it)
  document.body.dataset.readyMs = String(Math.round(performance.now()));
  document.body.dataset.ready = "true";
})(window.Dyper);
