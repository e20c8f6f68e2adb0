/*
 * Dyper report page: sortable tables, the per-site histogram plot, and the tables of the exact measurements (the
 * DYPER_REPORT sections of docs/runtime-contract.md).
 */
"use strict";
(function (D) {
  const { el, kids, kid, attr, num } = D.dom;
  const F = D.fmt;

  function display(col, v) {
    if (v === undefined || v === null || v === "") return "";
    switch (col.type) {
      case "count": return F.count(v);
      case "ns": return F.duration(v);
      case "ms": return Number(v) < 0 ? "-" : F.duration(Number(v) * 1e6);
      case "bytes": return F.bytes(v);
      case "pct": return F.pct(v);
      default: return String(v);
    }
  }

  function sortValue(col, row) {
    if (col.sort) return col.sort(row);
    const v = row[col.key];
    if (col.type === "text" || col.type === "site" || col.type === undefined) return v === undefined ? "" : String(v);
    const n = Number(v);
    return isNaN(n) ? -Infinity : n;
  }

  /**
   * A table that sorts when a header is clicked (again: the other way). cols: {key, label, type (text, site, count,
   * ns, ms, bytes, pct), est (true, or a function of the row: an estimate), render (row -> node), sort (row -> value),
   * title}. rows: objects with the keys, and optionally id (an anchor).
   */
  function table(cols, rows, name) {
    const thead = el("thead", null, el("tr", null, cols.map((c, k) => el("th", {
      class: c.type === "text" || c.type === "site" ? "text" : null, title: c.title || "Click to sort",
      scope: "col", "data-col": k, onclick: () => sortBy(k),
    }, c.label))));
    const tbody = el("tbody");
    const trs = rows.map(r => {
      const tr = el("tr", { id: r.id });
      tr._row = r;
      for (const c of cols) {
        const estimate = typeof c.est === "function" ? c.est(r) : !!c.est;
        const cls = [c.type === "text" || c.type === "site" ? "text" : "", c.type === "site" ? "site" : "",
          estimate ? "est" : ""].filter(Boolean).join(" ");
        let content;
        if (c.render) content = c.render(r);
        else {
          const shown = display(c, r[c.key]);
          content = estimate && shown !== "" && shown !== "-" ? "≈ " + shown : shown;
        }
        tr.appendChild(el("td", { class: cls || null }, content));
      }
      tbody.appendChild(tr);
      return tr;
    });
    const t = el("table", { class: "sortable", "data-table": name }, thead, tbody);
    let current = -1, descending = false;
    function sortBy(k) {
      const col = cols[k];
      descending = current === k ? !descending : !(col.type === "text" || col.type === "site");
      current = k;
      const sorted = trs.slice().sort((a, b) => {
        const x = sortValue(col, a._row), y = sortValue(col, b._row);
        const c = x < y ? -1 : x > y ? 1 : 0;
        return descending ? -c : c;
      });
      for (const tr of sorted) tbody.appendChild(tr);
      thead.querySelectorAll("th").forEach((th, i) => {
        if (i === k) th.setAttribute("aria-sort", descending ? "descending" : "ascending");
        else th.removeAttribute("aria-sort");
      });
    }
    return t;
  }

  /** A heading with the exact or estimate badge, a note, and the content. */
  function block(id, title, exact, note, ...content) {
    return el("div", { class: "block", id },
      el("h3", null, title, el("span", { class: "badge " + (exact ? "exact" : "estimate") },
        exact ? "exact" : "estimate")),
      note ? el("div", { class: "note" }, note) : null, ...content);
  }

  // ---- timing: percentiles from the log2 histogram, and a plot of it ----

  function bucketIndex(upper) { return Math.round(Math.log2(Number(upper))); }

  /** The runtime's rule: rank ceil(q * count), linear inside the bucket, clamped to [min, max]. */
  function percentile(buckets, count, min, max, q) {
    const rank = Math.max(1, Math.ceil(q * count));
    let below = 0;
    for (const b of buckets) {
      const c = b.count;
      if (c > 0 && below + c >= rank) {
        const lo = b.index === 0 ? 0 : Math.pow(2, b.index - 1), hi = Math.pow(2, b.index);
        const est = lo + (hi - lo) * (rank - below) / c;
        return Math.min(max, Math.max(min, est));
      }
      below += c;
    }
    return max;
  }

  function histogram(buckets, name) {
    if (!buckets.length) return el("span", { class: "note" }, "-");
    const first = buckets[0].index, last = buckets[buckets.length - 1].index;
    const n = last - first + 1, bw = Math.max(3, Math.min(10, Math.floor(160 / n))), h = 30;
    const top = Math.max(...buckets.map(b => b.count));
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("class", "hist");
    svg.setAttribute("width", n * bw);
    svg.setAttribute("height", h);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "histogram of call durations of " + name);
    for (const b of buckets) {
      const bh = Math.max(1, Math.round(b.count / top * (h - 1)));
      const r = document.createElementNS(ns, "rect");
      r.setAttribute("x", (b.index - first) * bw);
      r.setAttribute("y", h - bh);
      r.setAttribute("width", bw - 1);
      r.setAttribute("height", bh);
      const t = document.createElementNS(ns, "title");
      const lo = b.index === 0 ? 0 : Math.pow(2, b.index - 1);
      t.textContent = F.duration(lo) + " to " + F.duration(Math.pow(2, b.index)) + ": " + F.count(b.count) + " calls";
      r.appendChild(t);
      svg.appendChild(r);
    }
    const wrap = el("span", { class: "histwrap", title: "log2 buckets from " + F.duration(first ? Math.pow(2, first - 1) : 0)
      + " to " + F.duration(Math.pow(2, last)) });
    wrap.appendChild(svg);
    return wrap;
  }

  // ---- the exact sections ----

  /** The site cell: the name, and a link to the flame graph when sampled stacks have that method. */
  function site(r) {
    const link = D.page && D.page.sampledLink ? D.page.sampledLink(r.NAME) : null;
    return [r.NAME, link];
  }

  function rowsOf(section, tag, prefix) {
    return kids(section, tag).map((s, i) => Object.assign({ id: prefix + "-" + i }, s.a || {}));
  }

  const SITE = { key: "NAME", label: "site", type: "site", render: site };

  function timing(s) {
    const rows = kids(s, "SITE").map((e, i) => {
      const r = Object.assign({ id: "x-timing-" + i }, e.a);
      const buckets = kids(e, "BUCKET").map(b => ({ index: bucketIndex(attr(b, "UPPER_NS")), count: num(b, "COUNT") }));
      const count = Number(r.COUNT), min = Number(r.MIN_NS), max = Number(r.MAX_NS);
      r.p50 = percentile(buckets, count, min, max, 0.5);
      r.p90 = percentile(buckets, count, min, max, 0.9);
      r.p99 = percentile(buckets, count, min, max, 0.99);
      r.buckets = buckets;
      return r;
    });
    return [[rows, [SITE, { key: "COUNT", label: "calls", type: "count" }, { key: "TOTAL_NS", label: "total", type: "ns" },
      { key: "MEAN_NS", label: "mean", type: "ns" }, { key: "MIN_NS", label: "min", type: "ns" },
      { key: "MAX_NS", label: "max", type: "ns" },
      { key: "p50", label: "p50", type: "ns", est: true, title: "estimated from the histogram" },
      { key: "p90", label: "p90", type: "ns", est: true, title: "estimated from the histogram" },
      { key: "p99", label: "p99", type: "ns", est: true, title: "estimated from the histogram" },
      { key: "buckets", label: "histogram", type: "text", render: r => histogram(r.buckets, r.NAME),
        sort: r => r.buckets.length }]]];
  }

  // ---- traces (a JFR recording's dyper.MethodTrace events): a timeline per thread, and a table ----

  /**
   * One lane per thread (in the order they first traced), a bar per traced call at its start and duration (the axis
   * from the first traced call to the end of the last), nested calls one row lower per depth. Bars carry the call's figures as data-* attributes and a title.
   */
  function timeline(rows) {
    const ns = "http://www.w3.org/2000/svg", L = 160, W = 1000, ROW = 16;
    // the axis runs from the first traced call to the end of the last, not from the recording's start
    const first = Math.min(...rows.map(r => Number(r.AT_NS)));
    const span = Math.max(1, ...rows.map(r => Number(r.AT_NS) + Number(r.DURATION_NS) - first));
    const lanes = new Map();
    for (const r of rows) {
      const l = lanes.get(r.THREAD_ID) || { name: r.THREAD, depth: 1 };
      l.depth = Math.max(l.depth, Number(r.DEPTH) || 1);
      lanes.set(r.THREAD_ID, l);
    }
    let y = 0;
    for (const l of lanes.values()) { l.top = y; y += l.depth * ROW + 8; }
    const svg = document.createElementNS(ns, "svg");
    const make = (tag, a, text) => {
      const e = document.createElementNS(ns, tag);
      for (const k in a) e.setAttribute(k, a[k]);
      if (text !== undefined) e.textContent = text;
      return e;
    };
    svg.setAttribute("class", "timeline");
    svg.setAttribute("viewBox", "0 0 " + W + " " + Math.max(y, ROW));
    svg.setAttribute("width", "100%");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "timeline of " + rows.length + " traced calls over " + F.duration(span));
    for (const [id, l] of lanes) {
      const g = make("g", { class: "lane", "data-thread": l.name, "data-thread-id": id });
      g.appendChild(make("text", { x: 2, y: l.top + 12, "font-size": 11 }, l.name));
      g.appendChild(make("line", { x1: L, x2: W, y1: l.top + l.depth * ROW + 3, y2: l.top + l.depth * ROW + 3,
        stroke: "#ddd" }));
      svg.appendChild(g);
    }
    rows.forEach(r => {
      const l = lanes.get(r.THREAD_ID), at = Number(r.AT_NS), d = Number(r.DURATION_NS);
      const x = L + (at - first) / span * (W - L), w = Math.max(0.5, d / span * (W - L));
      const bar = make("rect", { class: "trace", x: x.toFixed(2), y: l.top + ((Number(r.DEPTH) || 1) - 1) * ROW,
        width: w.toFixed(2), height: ROW - 2, fill: "#4e79a7", "data-method": r.METHOD, "data-thread": r.THREAD,
        "data-depth": r.DEPTH, "data-duration-ns": r.DURATION_NS, "data-at-ns": r.AT_NS });
      bar.appendChild(make("title", {}, r.METHOD + " — " + F.duration(d) + " at +" + F.duration(at) + ", thread "
        + r.THREAD + ", depth " + r.DEPTH + ", argument " + r.ARGUMENT + ", returned " + r.RETURN));
      svg.appendChild(bar);
    });
    return el("div", { class: "timelinewrap" }, svg);
  }

  function traces(s) {
    const rows = rowsOf(s, "TRACE", "x-trace");
    return [timeline(rows), table([{ key: "AT_NS", label: "at", type: "ns", title: "since the recording's first event" },
      { key: "THREAD", label: "thread", type: "text" }, { key: "METHOD", label: "method", type: "site", render: r =>
        site({ NAME: r.METHOD }) }, { key: "DEPTH", label: "depth", type: "count" },
      { key: "DURATION_NS", label: "duration", type: "ns" }, { key: "ARGUMENT", label: "argument", type: "count" },
      { key: "RETURN", label: "returned", type: "count" }], rows, "traces")];
  }

  const SECTIONS = [
    { tag: "TIMING", id: "timing", title: "Timing", exact: true,
      note: "Every call timed. Percentiles are estimated from a log2 histogram (each bar: one bucket, hover for it).",
      build: timing },
    { tag: "SAMPLED_TIMING", id: "sampled", title: "Sampled timing", exact: false,
      note: s => "Calls counted exactly; one call in " + (attr(s, "EVERY") || "N")
        + " per thread and site timed: totals are estimates (± one standard error).",
      build: s => [[rowsOf(s, "SITE", "x-sampled"), [SITE, { key: "COUNT", label: "calls", type: "count" },
        { key: "SAMPLES", label: "timed", type: "count" },
        { key: "ESTIMATED_TOTAL_NS", label: "total", type: "ns", est: r => r.EXACT !== "true" },
        { key: "ERROR_NS", label: "± error", type: "ns", est: r => r.EXACT !== "true" }]]] },
    { tag: "COUNTS", id: "counts", title: "Counts", exact: true, note: "Executions counted by woven code.",
      build: s => [[rowsOf(s, "SITE", "x-counts"), [SITE, { key: "COUNT", label: "count", type: "count" }]]] },
    { tag: "CALLS", id: "calls", title: "Calls", exact: true, note: "Calls of these methods, counted at call sites.",
      build: s => [[rowsOf(s, "SITE", "x-calls"), [SITE, { key: "COUNT", label: "calls", type: "count" }]]] },
    { tag: "VALUES", id: "values", title: "Values", exact: true, note: "Values recorded at each site.",
      build: s => [[rowsOf(s, "SITE", "x-values"), [SITE, { key: "COUNT", label: "count", type: "count" },
        { key: "SUM", label: "sum", type: "count" }, { key: "MIN", label: "min", type: "count" },
        { key: "MAX", label: "max", type: "count" }, { key: "NULLS", label: "nulls", type: "count" },
        { key: "NONNULLS", label: "non-nulls", type: "count" }]]] },
    { tag: "LOCKS", id: "locks", title: "Locks", exact: true,
      note: s => "Waits (before the monitor was held) and holds, per lock site and per lock class; contended: waited "
        + "longer than " + F.duration(attr(s, "CONTENDED_NS") || 0) + ". The holder is best effort.",
      build: s => {
        const cols = name => [name === "site" ? SITE : { key: "NAME", label: "lock class", type: "site" },
          { key: "ACQUISITIONS", label: "acquired", type: "count" }, { key: "CONTENDED", label: "contended", type: "count" },
          { key: "WAIT_NS", label: "wait", type: "ns" }, { key: "MAX_WAIT_NS", label: "max wait", type: "ns" },
          { key: "HOLD_NS", label: "hold", type: "ns" }, { key: "MAX_HOLD_NS", label: "max hold", type: "ns" },
          { key: "WAITER", label: "longest waiter", type: "text" }, { key: "HOLDER", label: "holder", type: "text" }];
        return [[rowsOf(s, "SITE", "x-locks"), cols("site"), "by site"],
          [rowsOf(s, "LOCK_CLASS", "x-lockclass"), cols("class"), "by lock class"]];
      } },
    { tag: "ALLOCATIONS", id: "allocations", title: "Allocations", exact: true,
      note: "Objects and arrays allocated, per allocating site and per type; lengths are over arrays.",
      build: s => [[rowsOf(s, "SITE", "x-allocations"), [SITE, { key: "COUNT", label: "allocations", type: "count" },
        { key: "ARRAYS", label: "arrays", type: "count" }, { key: "TOTAL_LENGTH", label: "total length", type: "count" },
        { key: "MAX_LENGTH", label: "max length", type: "count" }], "by site"],
      [rowsOf(s, "TYPE", "x-alloctype"), [{ key: "NAME", label: "type", type: "site" },
        { key: "COUNT", label: "allocations", type: "count" }, { key: "TOTAL_LENGTH", label: "total length", type: "count" },
        { key: "MAX_LENGTH", label: "max length", type: "count" }], "by type"]] },
    { tag: "FIELDS", id: "fields", title: "Field writes", exact: true,
      note: "Unlocked: written while the thread did not hold the owner's monitor; no owner: a static field.",
      build: s => {
        const fields = kids(s, "FIELD").map((f, i) => Object.assign({ id: "x-fields-" + i, writes: kids(f, "WRITE") },
          f.a));
        const counts = [{ key: "WRITES", label: "writes", type: "count" },
          { key: "UNLOCKED_WRITES", label: "unlocked", type: "count" },
          { key: "NO_OWNER_WRITES", label: "no owner", type: "count" }];
        const last = { key: "writes", label: "last writes", type: "text", sort: r => r.writes.length,
          render: r => r.writes.length ? el("details", null, el("summary", null, r.writes.length + " writes"),
            el("table", { class: "writes" }, el("tr", null, ["old", "new", "thread", "lock held"].map(h => el("th", null, h))),
              r.writes.map(w => el("tr", null, ["OLD", "NEW", "THREAD", "LOCKED"].map(k => el("td", null, attr(w, k)))))))
            : "" };
        return [[fields, [{ key: "NAME", label: "field", type: "site" }].concat(counts, [last]), "by field"],
          [rowsOf(s, "SITE", "x-fieldsites"), [SITE].concat(counts), "by writing site"]];
      } },
    { tag: "ANSWERS", id: "answers", title: "Answers", exact: true,
      note: "One table per question (docs/questions.md): checks are the events whose conditions were tested, records "
        + "the events recorded.",
      build: s => kids(s, "QUESTION").map((q, i) => {
        const a = q.a || {}, timed = a.MEASURE === "TIME" || a.MEASURE === "WAIT" || a.MEASURE === "HOLD", v = a.VALUE || "";
        const secs = parseFloat(a.SECONDS || "0");
        const rows = rowsOf(q, "GROUP", "x-answers-" + i).map(r => Object.assign(r, r.OTHERS !== undefined
          && r.OTHERS !== "0" ? { NAME: "(others: " + r.OTHERS + " more groups)" } : {},
          a.MEASURE === "RATE" ? { PER_SECOND: secs > 0 ? (Number(r.COUNT) / secs).toFixed(2) : "-" } : {}));
        const name = { key: "NAME", label: a.GROUP_BY || "", type: "site", render: site };
        const cols = a.MEASURE === "COUNT" ? [name, { key: "COUNT", label: "count", type: "count" }]
          : a.MEASURE === "RATE" ? [name, { key: "COUNT", label: "count", type: "count" },
            { key: "PER_SECOND", label: "per second", title: "the count over the " + a.SECONDS + " s "
              + (a.WINDOW ? "the window's slots cover" : "since the question table was read") }]
          : timed ? [name, { key: "COUNT", label: a.MEASURE === "WAIT" ? "waits" : a.MEASURE === "HOLD" ? "holds"
            : "calls", type: "count" },
            { key: "SUM", label: "total", type: "ns" }, { key: "MEAN", label: "mean", type: "ns" },
            { key: "MIN", label: "min", type: "ns" }, { key: "MAX", label: "max", type: "ns" }].concat(a.WINDOW ? []
            : [{ key: "P50", label: "p50", type: "ns", est: true, title: "estimated from a log2 histogram" },
              { key: "P99", label: "p99", type: "ns", est: true, title: "estimated from a log2 histogram" }])
          : [name, { key: "COUNT", label: "count", type: "count" }, { key: "SUM", label: "sum " + v, type: "count" },
            { key: "MIN", label: "min " + v, type: "count" }, { key: "MAX", label: "max " + v, type: "count" },
            { key: "MEAN", label: "mean " + v }];
        // a window (last N seconds) keeps no histogram: no percentiles; its rows are the window's
        return [rows, cols, a.TEXT + " — " + F.count(a.SITES) + " sites patched, " + F.count(a.CHECKS) + " checks, "
          + F.count(a.RECORDS) + " records" + (a.WINDOW ? "; the table: the last " + a.WINDOW + " s" : "")];
      }) },
    { tag: "TRACES", id: "traces", title: "Trace timeline", exact: true, unit: "TRACE", noun: " traced call",
      note: s => "Each traced call (dyper.MethodTrace) that lasted at least the threshold: "
        + (attr(s, "TOTAL") === attr(s, "SHOWN") ? F.count(attr(s, "TOTAL")) + " calls."
          : F.count(attr(s, "TOTAL")) + " calls, the first " + F.count(attr(s, "SHOWN")) + " shown.")
        + " Hover a bar for the call.",
      render: traces },
    { tag: "FAILURES", id: "failures", title: "Hook failures", exact: true,
      note: "Failures inside Dyper's hooks: caught and counted, never thrown into the program.",
      build: s => [[rowsOf(s, "SITE", "x-failures"), [SITE, { key: "COUNT", label: "failures", type: "count" },
        { key: "FIRST", label: "first", type: "text" }]]] },
  ];

  /** The exact sections of a DYPER_REPORT that have rows, as blocks. */
  function exactBlocks(report) {
    const out = [];
    for (const sec of SECTIONS) {
      const s = kid(report, sec.tag);
      if (!s || !kids(s).length) continue;
      const parts = sec.render ? sec.render(s) : [];
      for (const [rows, cols, sub] of sec.render ? [] : sec.build(s)) {
        if (!rows.length) continue;
        if (sub) parts.push(el("div", { class: "note" }, sub));
        parts.push(table(cols, rows, sec.id + (sub ? "-" + sub.replace(/\W+/g, "-") : "")));
      }
      const note = typeof sec.note === "function" ? sec.note(s) : sec.note;
      out.push(block("exact-" + sec.id, sec.title, sec.exact, note, parts));
    }
    return out;
  }

  /**
   * The heap (dyper report --pid PID --heap, docs/cli.md#dyper-ctl-pid-heap): the classes of most shallow bytes with
   * the classes that refer to them, and the objects of most retained bytes.
   */
  function heapBlocks(h) {
    const classes = kids(h, "CLASS").map((c, i) => Object.assign({ id: "heap-class-" + i, referrers: kids(c, "REFERRER")
      .map(r => attr(r, "CLASS") + " " + F.count(attr(r, "REFERENCES"))).join(", ") }, c.a || {}));
    const retainers = rowsOf(h, "RETAINER", "heap-retainer");
    return [block("heap-classes", "Classes by shallow size", true, "The " + classes.length + " classes (of "
        + F.count(attr(h, "CLASSES")) + ") whose live objects take most bytes, and the classes whose objects refer to "
        + "them (references; class X: its static fields).",
      table([{ key: "NAME", label: "class", type: "site" }, { key: "INSTANCES", label: "instances", type: "count" },
        { key: "SHALLOW_BYTES", label: "shallow", type: "bytes" },
        { key: "referrers", label: "referred to by", type: "text" }], classes, "heap-classes")),
    block("heap-retainers", "Largest retainers", true, "The " + retainers.length + " objects that retain most: "
        + "what would be freed with the object (its dominator tree), and the object that dominates it.",
      table([{ key: "CLASS", label: "object", type: "site" }, { key: "RETAINED_BYTES", label: "retained", type: "bytes" },
        { key: "SHALLOW_BYTES", label: "shallow", type: "bytes" }, { key: "OBJECT", label: "id", type: "text" },
        { key: "DOMINATOR", label: "dominated by", type: "site" }], retainers, "heap-retainers"))];
  }

  D.tables = { table, block, exactBlocks, heapBlocks, percentile, histogram, timeline, SECTIONS };
})(window.Dyper);
