/*
 * Dyper report page, a report of many JVMs (dyper report --all, docs/fleet.md): the JVMs that answered and those that
 * did not, each JVM's share of every stack view, and each JVM's own exact figures beside the sums the main tables show.
 * Does nothing on a report of one JVM.
 */
"use strict";
(function (D) {
  const { el, kids, kid, attr } = D.dom;
  const F = D.fmt;
  const T = D.tables;
  const data = D.data;
  if (data.mode !== "report") return;
  let root = data.runs[data.runs.length - 1].root;
  if (root.t === "DYPER_REPLY") root = kid(root, "MONITOR_REPORT");
  const fleet = root && root.t === "MONITOR_REPORT" ? kid(root, "FLEET") : null;
  if (!fleet) return;
  const $ = id => document.getElementById(id);
  const jvms = kids(fleet, "JVM");
  const missing = jvms.filter(j => attr(j, "STATUS") !== "OK");

  // ---- summary: how many answered, and who did not ----
  const dl = $("summary-list");
  const said = [F.count(attr(fleet, "ANSWERED")) + " of " + F.count(attr(fleet, "ASKED")) + " JVMs answered ("
    + attr(fleet, "CARRIER") + "); figures below are their sums, per JVM under "];
  const dd = el("dd", null, said[0], el("a", { href: "#fleet" }, "JVMs"));
  if (missing.length) {
    dd.append(el("br"), el("span", { class: "bad" }, "No report from: " + missing.map(j => attr(j, "ERROR")).join("; ")));
  }
  dl.prepend(el("dt", null, "JVMs"), dd);

  // ---- the JVMs: who, and their share of each stack view ----
  const views = [];
  for (const j of jvms) {
    for (const s of kids(j, "SAMPLED")) if (!views.includes(attr(s, "VIEW"))) views.push(attr(s, "VIEW"));
  }
  const totals = {};
  for (const v of views) {
    totals[v] = jvms.reduce((n, j) => n + Number(attr(kids(j, "SAMPLED").find(s => attr(s, "VIEW") === v), "TOTAL") || 0), 0);
  }
  const rows = jvms.map(j => {
    const r = { id: "fleet-jvm-" + attr(j, "N"), N: attr(j, "N"), LABEL: attr(j, "LABEL"), HOST: attr(j, "HOST"),
      JAVA: attr(j, "JAVA"), STATUS: attr(j, "STATUS") === "OK" ? "answered" : attr(j, "ERROR"),
      WOVEN: attr(j, "WOVEN") };
    for (const v of views) {
      const s = kids(j, "SAMPLED").find(x => attr(x, "VIEW") === v);
      r[v] = s && totals[v] > 0 ? Number(attr(s, "TOTAL")) / totals[v] : null;
    }
    return r;
  });
  const viewLabel = v => v === "CPU_TABLE" ? "CPU samples" : v + " view";
  const cols = [{ key: "N", label: "#", type: "count" }, { key: "LABEL", label: "JVM", type: "text" },
    { key: "HOST", label: "host", type: "text" }, { key: "JAVA", label: "JDK", type: "text" },
    { key: "WOVEN", label: "woven or patched", type: "text" },
    { key: "STATUS", label: "report", type: "text", render: r => r.STATUS === "answered" ? r.STATUS
      : el("span", { class: "bad" }, r.STATUS) }]
    .concat(views.map(v => ({ key: v, label: "share of " + viewLabel(v), type: "pct", est: true })));
  const blocks = [T.block("fleet-jvms", "JVMs", false, "# is the JVM's number in the flame graph's JVM choice (the "
    + "merged graph is the sum of theirs). Shares: of each sampled view's weight.", T.table(cols, rows, "fleet-jvms"))];

  // ---- each JVM's exact figures, beside the sums ----
  const SECTIONS = [
    ["TIMING", "SITE", "Timing", [["COUNT", "calls", "count"], ["TOTAL_NS", "total", "ns"], ["MEAN_NS", "mean", "ns"],
      ["MAX_NS", "max", "ns"]]],
    ["SAMPLED_TIMING", "SITE", "Sampled timing", [["COUNT", "calls", "count"], ["ESTIMATED_TOTAL_NS", "total (est.)", "ns"]]],
    ["COUNTS", "SITE", "Counts", [["COUNT", "count", "count"]]],
    ["CALLS", "SITE", "Calls", [["COUNT", "calls", "count"]]],
    ["VALUES", "SITE", "Values", [["COUNT", "count", "count"], ["SUM", "sum", "count"], ["MIN", "min", "count"],
      ["MAX", "max", "count"]]],
    ["LOCKS", "SITE", "Locks", [["ACQUISITIONS", "acquired", "count"], ["CONTENDED", "contended", "count"],
      ["WAIT_NS", "wait", "ns"]]],
    ["ALLOCATIONS", "SITE", "Allocations", [["COUNT", "allocations", "count"], ["ARRAYS", "arrays", "count"]]],
    ["FIELDS", "FIELD", "Field writes", [["WRITES", "writes", "count"], ["UNLOCKED_WRITES", "unlocked", "count"]]],
    ["FAILURES", "SITE", "Hook failures", [["COUNT", "failures", "count"]]],
  ];
  const merged = kid(kid(root, "INSTRUMENTATION"), "DYPER_REPORT");
  for (const [tag, item, title, figures] of SECTIONS) {
    const sums = new Map(kids(kid(merged, tag), item).map(s => [attr(s, "NAME"), s.a]));
    const perJvm = [];
    for (const j of jvms) {
      kids(kid(kid(j, "DYPER_REPORT"), tag), item).forEach((s, i) => {
        const r = Object.assign({ id: "fleet-" + tag.toLowerCase() + "-" + attr(j, "N") + "-" + i, JVM: attr(j, "LABEL"),
          N: attr(j, "N") }, s.a);
        const sum = sums.get(attr(s, "NAME"));
        const key = figures[0][0];
        r.share = sum && Number(sum[key]) > 0 ? Number(r[key]) / Number(sum[key]) : null;
        perJvm.push(r);
      });
    }
    if (!perJvm.length) continue;
    const c = [{ key: "NAME", label: "site", type: "site" }, { key: "JVM", label: "JVM", type: "text" }]
      .concat(figures.map(([key, label, type]) => ({ key, label, type, est: key === "ESTIMATED_TOTAL_NS" })))
      .concat([{ key: "share", label: "share of the " + figures[0][1], type: "pct" }]);
    blocks.push(T.block("fleet-exact-" + tag.toLowerCase(), title + " per JVM", true, "Each JVM's own figures; the "
      + "tables above add them up (counts and totals summed, min and max over the JVMs).", T.table(c, perJvm,
        "fleet-" + tag.toLowerCase())));
  }
  const box = $("tables"), toc = $("toc");
  box.append(el("section", { id: "fleet" }, el("h2", null, "JVMs"), blocks));
  toc.append(el("a", { href: "#fleet" }, "JVMs"));
})(window.Dyper);
