/* Dyper report page: number formatting and small DOM helpers, shared by the other scripts. */
"use strict";
window.Dyper = window.Dyper || {};
(function (D) {
  const UNITS = ["ns", "µs", "ms", "s"];

  function three(v) {
    if (v >= 99.95) return v.toFixed(0);
    if (v >= 9.995) return v.toFixed(1);
    return v.toFixed(2);
  }

  /** 812 ns, 1.23 µs, 45.6 ms, 2.00 s: the runtime's text report's rule. */
  function duration(ns) {
    ns = Number(ns);
    if (!isFinite(ns)) return "-";
    if (ns < 0) return "-" + duration(-ns);
    let v = ns, u = 0;
    while (u < UNITS.length - 1 && v >= 999.5) { v /= 1000; u++; }
    if (u === 0 && v === Math.round(v)) return v + " ns";
    return three(v) + " " + UNITS[u];
  }

  /** 1,234,567; a whole-number string is grouped as it is, so longs beyond 2^53 stay exact. */
  function count(n) {
    if (typeof n === "string" && /^-?\d+$/.test(n)) return n.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    n = Number(n);
    if (!isFinite(n)) return "-";
    return Math.round(n).toLocaleString("en-US");
  }

  function bytes(b) {
    b = Number(b);
    const u = ["B", "KB", "MB", "GB", "TB"];
    let i = 0;
    while (i < u.length - 1 && Math.abs(b) >= 999.5) { b /= 1000; i++; }
    return i === 0 ? b + " B" : three(b) + " " + u[i];
  }

  function pct(x) {
    if (!isFinite(x)) return "-";
    const p = x * 100;
    return (p >= 9.995 ? p.toFixed(1) : p >= 0.0995 ? p.toFixed(2) : p === 0 ? "0" : p.toPrecision(2)) + " %";
  }

  /** A weight in a stacks view's unit: SAMPLES, NS or BYTES (anything else as a plain number with its unit). */
  function weight(w, unit) {
    switch (unit) {
      case "SAMPLES": return count(w) + (Number(w) === 1 ? " sample" : " samples");
      case "NS": return duration(w);
      case "BYTES": return bytes(w);
      default: return count(w) + " " + String(unit).toLowerCase();
    }
  }

  function unitNoun(unit) {
    return { SAMPLES: "samples", NS: "time", BYTES: "bytes" }[unit] || String(unit).toLowerCase();
  }

  /** el("td", {class: "x"}, child...): children are nodes or text. */
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    if (attrs) {
      for (const k in attrs) {
        const v = attrs[k];
        if (v === undefined || v === null || v === false) continue;
        if (k === "text") e.textContent = v;
        else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
        else e.setAttribute(k, v === true ? "" : v);
      }
    }
    for (const c of children.flat()) {
      if (c === undefined || c === null || c === false) continue;
      e.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
    }
    return e;
  }

  /** The element children of a report element (JSON form {t, a, c, x}) with this tag, or all of them. */
  function kids(node, tag) {
    if (!node || !node.c) return [];
    return tag ? node.c.filter(k => k.t === tag) : node.c;
  }
  function kid(node, tag) { return kids(node, tag)[0] || null; }
  function attr(node, name) { return node && node.a && name in node.a ? node.a[name] : undefined; }
  function num(node, name) { const v = attr(node, name); return v === undefined ? NaN : Number(v); }

  /** "org.x.Bank.audit(int,long) block 3 (line 7)" -> "org.x.Bank.audit": the key that frames are named by. */
  function methodKey(siteName) {
    const p = siteName.indexOf("(");
    return p < 0 ? null : siteName.substring(0, p);
  }

  D.fmt = { duration, count, bytes, pct, weight, unitNoun };
  D.dom = { el, kids, kid, attr, num, methodKey };
})(window.Dyper);
