/*
 * Dyper report page: the flame graph. A small canvas renderer of call trees held as pre-order arrays (frame id,
 * depth, weight per node): roots on top, children left to right by name, widths by weight. Click zooms, search
 * highlights, and a tree can be turned into its callers (inverted) tree. Differential trees carry a second weight.
 */
"use strict";
(function (D) {
  const ROW = 18;
  const FONT = "11px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";
  const HIGHLIGHT = "#e040fb";
  const KINDS = {
    app: { label: "your code", hue: [8, 48], sat: 85, light: [56, 68] },
    jdk: { label: "JDK", hue: [190, 215], sat: 45, light: [66, 80] },
    dyper: { label: "Dyper and AspectJ (what measuring costs)", hue: [262, 292], sat: 45, light: [68, 80] },
    lock: { label: "waiting for a lock", fixed: "#a8a8a8" },
    alloc: { label: "allocated type", fixed: "#7cc47f" },
    synthetic: { label: "other synthetic frame", fixed: "#c8c8c8" },
  };

  function hash(s) {
    let h = 2166136261;
    for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
    return h >>> 0;
  }

  function kindOf(name) {
    if (name.charAt(0) === "[") {
      return name.startsWith("[lock") ? "lock" : name.startsWith("[alloc") ? "alloc" : "synthetic";
    }
    if (/^(java|javax|jdk|sun|com\.sun)\./.test(name)) return "jdk";
    if ((name.startsWith("org.dyper.") && !name.startsWith("org.dyper.samples.")) || name.startsWith("org.aspectj.")) {
      return "dyper";
    }
    // Run-time patching defines its aspects in the patched class's own package (Dyper$<id>$DyperPatches1), and ajc's
    // glue methods in woven classes start with ajc$: both are what measuring costs, not the program's code.
    if (/(^|\.)Dyper\$[0-9a-f]+\$/.test(name) || /\.ajc\$[^.]*$/.test(name)) return "dyper";
    return "app";
  }

  function colourOf(name) {
    const k = KINDS[kindOf(name)];
    if (k.fixed) return k.fixed;
    const h = hash(name);
    const hue = k.hue[0] + (h % 1000) / 1000 * (k.hue[1] - k.hue[0]);
    const light = k.light[0] + ((h >>> 10) % 1000) / 1000 * (k.light[1] - k.light[0]);
    return "hsl(" + hue.toFixed(1) + "," + k.sat + "%," + light.toFixed(1) + "%)";
  }

  /** Red when a frame's share grew from before to after (slower), blue when it shrank; paler for smaller changes. */
  function diffColour(after, total, before, total0) {
    const b = total > 0 ? after / total : 0;
    const a = total0 > 0 ? before / total0 : 0;
    const top = Math.max(a, b);
    const rel = top > 0 ? (b - a) / top : 0;
    const t = Math.min(1, Math.abs(rel));
    if (t < 0.02) return "rgb(236,236,236)";
    const c = Math.round(236 - 176 * t);
    return rel > 0 ? "rgb(255," + c + "," + c + ")" : "rgb(" + c + "," + c + ",255)";
  }

  /** "org.x.Bank.audit" -> "Bank.audit" (synthetic frames as they are). */
  function shortName(name) {
    if (name.charAt(0) === "[") return name;
    const parts = name.split(".");
    return parts.length <= 2 ? name : parts.slice(-2).join(".");
  }

  /** Adds end (one past the subtree), parent and depth facts to a tree, once. */
  function prepare(tree) {
    if (tree.end) return tree;
    const n = tree.f.length, d = tree.d;
    const end = new Int32Array(n), parent = new Int32Array(n), stack = [];
    let maxDepth = -1;
    for (let i = 0; i < n; i++) {
      const dep = d[i];
      while (stack.length > dep) end[stack.pop()] = i;
      parent[i] = dep > 0 ? stack[dep - 1] : -1;
      stack.push(i);
      if (dep > maxDepth) maxDepth = dep;
    }
    while (stack.length) end[stack.pop()] = n;
    tree.end = end;
    tree.parent = parent;
    tree.maxDepth = maxDepth;
    tree.rootSum = rootSum(tree.w, d);
    tree.rootSum0 = tree.w0 ? rootSum(tree.w0, d) : 0;
    return tree;
  }

  function rootSum(w, d) {
    let s = 0;
    for (let i = 0; i < w.length; i++) if (d[i] === 0) s += w[i];
    return s;
  }

  /**
   * The callers tree: each frame where weight was spent (its self weight) becomes a root, its callers its children.
   * The result has the same form as the input and is cached on it.
   */
  function invert(tree) {
    if (tree.inverted) return tree.inverted;
    prepare(tree);
    const n = tree.f.length, f = tree.f, w = tree.w, w0 = tree.w0, parent = tree.parent, names = tree.names;
    const self = Float64Array.from(w), self0 = w0 ? Float64Array.from(w0) : null;
    for (let i = 0; i < n; i++) {
      const p = parent[i];
      if (p >= 0) { self[p] -= w[i]; if (self0) self0[p] -= w0[i]; }
    }
    // the new tree's nodes, found by (parent node, frame) in one numeric map: no object per node
    const nf = names.length, key = new Map(), F = [], P = [], W = [], W0 = [];
    for (let i = 0; i < n; i++) {
      const s = self[i], s0 = self0 ? self0[i] : 0;
      if (s <= 0 && s0 <= 0) continue;
      let node = -1;
      for (let j = i; j >= 0; j = parent[j]) {
        const k = (node + 1) * nf + f[j];
        let c = key.get(k);
        if (c === undefined) { c = F.length; key.set(k, c); F.push(f[j]); P.push(node); W.push(0); W0.push(0); }
        W[c] += s; W0[c] += s0;
        node = c;
      }
    }
    // children lists (by parent), each sorted by name through a rank of the names, then a pre-order walk
    const m = F.length, rank = new Int32Array(nf);
    Array.from(names.keys()).sort((a, b) => (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0))
      .forEach((id, r) => { rank[id] = r; });
    const start = new Int32Array(m + 2);
    for (let c = 0; c < m; c++) start[P[c] + 2]++;
    for (let k = 1; k < m + 2; k++) start[k] += start[k - 1];
    const kids = new Int32Array(m), fill = start.slice();
    for (let c = 0; c < m; c++) kids[fill[P[c] + 1]++] = c;
    for (let p = 0; p <= m; p++) {
      const a = start[p], b = start[p + 1];
      if (b - a > 1) kids.subarray(a, b).sort((x, y) => rank[F[x]] - rank[F[y]]);
    }
    const of = new Int32Array(m), od = new Int32Array(m), ow = new Float64Array(m), ow0 = new Float64Array(m);
    const stack = [];
    for (let k = start[1] - 1; k >= start[0]; k--) stack.push(kids[k], 0);
    let out = 0;
    while (stack.length) {
      const dep = stack.pop(), c = stack.pop();
      of[out] = F[c]; od[out] = dep; ow[out] = W[c]; ow0[out] = W0[c]; out++;
      for (let k = start[c + 2] - 1; k >= start[c + 1]; k--) stack.push(kids[k], dep + 1);
    }
    tree.inverted = prepare({ names, unit: tree.unit, total: tree.total, total0: tree.total0, f: of, d: od, w: ow,
      w0: w0 ? ow0 : undefined });
    return tree.inverted;
  }

  /** A canvas that draws one tree at a time. hooks: hover(node|-1), select(node), exact(name) -> truthy. */
  class Flame {
    constructor(canvas, tooltip, hooks) {
      this.canvas = canvas;
      this.tooltip = tooltip;
      this.hooks = hooks || {};
      this.tree = null;
      this.zoom = -1;
      this.match = null;
      this.before = false;
      this.colours = new Map();
      this.rows = [];
      canvas.addEventListener("mousemove", e => this.onMove(e));
      canvas.addEventListener("mouseleave", () => { this.tooltip.hidden = true; this.hover(-1); });
      canvas.addEventListener("click", e => this.onClick(e));
      window.addEventListener("resize", () => { if (this.tree) this.draw(); });
    }

    /** Shows a tree, zoomed out; before: lay it out by the before weights of a differential tree. */
    show(tree, before) {
      this.tree = prepare(tree);
      this.before = !!before && !!tree.w0;
      this.zoom = -1;
      this.draw();
    }

    reset() { this.zoom = -1; this.draw(); }

    zoomTo(node) { this.zoom = node; this.draw(); }

    layoutWeights() { return this.before ? this.tree.w0 : this.tree.w; }

    colour(fid) {
      let c = this.colours.get(fid);
      if (!c) { c = colourOf(this.tree.names[fid]); this.colours.set(fid, c); }
      return c;
    }

    draw() {
      const t = this.tree, c = this.canvas, ctx = c.getContext("2d");
      const width = c.parentNode.clientWidth - 2;
      const rows = Math.max(t.maxDepth + 1, 1);
      const height = rows * ROW + 1;
      const dpr = window.devicePixelRatio || 1;
      c.style.height = height + "px";
      c.width = Math.round(width * dpr);
      c.height = Math.round(height * dpr);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, width, height);
      ctx.font = FONT;
      ctx.textBaseline = "middle";
      this.charWidth = ctx.measureText("abcdefghij").width / 10;
      this.width = width;
      this.rows = [];
      for (let r = 0; r < rows; r++) this.rows.push([]);
      const lw = this.layoutWeights(), z = this.zoom, n = t.f.length;
      const start = z < 0 ? 0 : z, stop = z < 0 ? n : t.end[z];
      const base = z < 0 ? (this.before ? t.rootSum0 : t.rootSum) : lw[z];
      if (!(base > 0)) return;
      for (let a = z < 0 ? -1 : t.parent[z]; a >= 0; a = t.parent[a]) this.box(ctx, a, 0, width, true);
      const scale = width / base;
      const cursor = new Float64Array(t.maxDepth + 2);
      let i = start;
      while (i < stop) {
        const dep = t.d[i], x = cursor[dep], wi = lw[i];
        cursor[dep] = x + wi;
        cursor[dep + 1] = x;
        const pw = wi * scale;
        if (pw < 0.4) { i = t.end[i]; continue; }
        this.box(ctx, i, x * scale, pw, false);
        i++;
      }
    }

    box(ctx, i, x, w, faded) {
      const t = this.tree, fid = t.f[i], y = t.d[i] * ROW, name = t.names[fid];
      const matched = this.match !== null && this.match[fid] === 1;
      let fill;
      if (matched) fill = HIGHLIGHT;
      else if (t.w0) fill = diffColour(t.w[i], t.total, t.w0[i], t.total0);
      else fill = this.colour(fid);
      ctx.fillStyle = fill;
      ctx.fillRect(x, y, w > 3 ? w - 1 : w, ROW - 1);
      if (faded) {
        ctx.fillStyle = "rgba(255,255,255,0.55)";
        ctx.fillRect(x, y, w, ROW - 1);
      }
      const exact = this.hooks.exact && this.hooks.exact(name);
      if (exact && w >= 8) {
        ctx.fillStyle = "#1a7f37";
        ctx.beginPath();
        ctx.moveTo(x, y); ctx.lineTo(x + 7, y); ctx.lineTo(x, y + 7);
        ctx.fill();
      }
      const max = Math.floor((w - 6) / this.charWidth);
      if (max >= 3) {
        let s = name;
        if (s.length > max) {
          s = shortName(name);
          if (s.length > max) s = s.substring(0, max - 1) + "…";
        }
        ctx.fillStyle = faded ? "#666" : "#111";
        ctx.fillText(s, x + 3, y + ROW / 2);
      }
      this.rows[t.d[i]].push(i, x, w, faded ? 1 : 0);
    }

    /** The node under a point in CSS pixels of the canvas, or -1. */
    nodeAt(px, py) {
      const r = this.rows[Math.floor(py / ROW)];
      if (!r) return -1;
      for (let k = 0; k < r.length; k += 4) {
        if (px >= r[k + 1] && px < r[k + 1] + r[k + 2]) return r[k];
      }
      return -1;
    }

    point(e) {
      const b = this.canvas.getBoundingClientRect();
      return [e.clientX - b.left, e.clientY - b.top];
    }

    onMove(e) {
      const [x, y] = this.point(e);
      const node = this.nodeAt(x, y);
      this.hover(node);
      if (node < 0) { this.tooltip.hidden = true; return; }
      this.tooltip.textContent = this.describe(node).join("\n");
      this.tooltip.hidden = false;
      const wrap = this.canvas.parentNode.getBoundingClientRect();
      const tw = this.tooltip.offsetWidth;
      let left = e.clientX - wrap.left + 14;
      if (left + tw > wrap.width) left = Math.max(0, e.clientX - wrap.left - tw - 14);
      this.tooltip.style.left = left + "px";
      this.tooltip.style.top = (e.clientY - wrap.top + 16) + "px";
    }

    hover(node) { if (this.hooks.hover) this.hooks.hover(node); }

    onClick(e) {
      const [x, y] = this.point(e);
      const node = this.nodeAt(x, y);
      if (node < 0) return;
      this.zoomTo(node);
      if (this.hooks.select) this.hooks.select(node);
    }

    /** Lines for a tooltip: the name, weight and share (before, after and change for a differential tree). */
    describe(node) {
      const t = this.tree, F = D.fmt, name = t.names[t.f[node]];
      const lines = [name];
      if (t.w0) {
        const a = t.total0 > 0 ? t.w0[node] / t.total0 : 0, b = t.total > 0 ? t.w[node] / t.total : 0;
        lines.push("before: " + F.weight(t.w0[node], t.unit) + " (" + F.pct(a) + ")");
        lines.push("after:  " + F.weight(t.w[node], t.unit) + " (" + F.pct(b) + ")");
        const d = (b - a) * 100;
        lines.push("change: " + (d >= 0 ? "+" : "") + d.toFixed(2) + " points of the total"
          + (d > 0 ? " (larger share: slower)" : d < 0 ? " (smaller share: faster)" : ""));
      } else {
        lines.push(F.weight(t.w[node], t.unit) + ", " + F.pct(t.w[node] / t.total) + " of all (estimate)");
        const p = t.parent[node];
        if (p >= 0) lines.push(F.pct(t.w[node] / t.w[p]) + " of its parent " + shortName(t.names[t.f[p]]));
      }
      if (this.hooks.exact && this.hooks.exact(name)) lines.push("◆ has exact figures: click, then follow the link");
      return lines;
    }

    /**
     * Highlights the frames whose name contains the query (any case), or matches /regex/. Returns the weight of the
     * matching frames (a frame inside a matching one counted once), the total, the share, and the frames matched.
     */
    search(query) {
      const t = this.tree;
      if (!query) { this.match = null; this.draw(); return null; }
      let test;
      const m = /^\/(.+)\/([a-z]*)$/.exec(query);
      if (m) {
        try { const re = new RegExp(m[1], m[2]); test = s => re.test(s); } catch (e) { return { error: e.message }; }
      } else {
        const q = query.toLowerCase();
        test = s => s.toLowerCase().includes(q);
      }
      const match = new Uint8Array(t.names.length);
      for (let i = 0; i < t.names.length; i++) if (test(t.names[i])) match[i] = 1;
      this.match = match;
      this.draw();
      return this.share();
    }

    share() {
      const t = this.tree, lw = this.layoutWeights(), match = this.match, n = t.f.length;
      let weight = 0;
      const names = new Set();
      for (let i = 0; i < n;) {
        if (match[t.f[i]] === 1 && lw[i] > 0) { weight += lw[i]; names.add(t.f[i]); i = t.end[i]; } else i++;
      }
      const total = this.before ? t.rootSum0 : t.rootSum;
      let zoomShare = null;
      if (this.zoom >= 0) {
        let zw = 0;
        for (let i = this.zoom; i < t.end[this.zoom];) {
          if (match[t.f[i]] === 1) { zw += lw[i]; i = t.end[i]; } else i++;
        }
        zoomShare = lw[this.zoom] > 0 ? zw / lw[this.zoom] : 0;
      }
      return { weight, total, share: total > 0 ? weight / total : 0, frames: names.size, zoomShare };
    }

    /** What is drawn, for people who cannot see the canvas and for tests: one entry per box. */
    frames() {
      const out = [], t = this.tree;
      for (let r = 0; r < this.rows.length; r++) {
        const row = this.rows[r];
        for (let k = 0; k < row.length; k += 4) {
          const i = row[k], name = t.names[t.f[i]];
          out.push({ node: i, name, depth: r, x: row[k + 1], y: r * ROW, width: row[k + 2], height: ROW - 1,
            faded: row[k + 3] === 1, matched: this.match !== null && this.match[t.f[i]] === 1,
            exact: !!(this.hooks.exact && this.hooks.exact(name)) });
        }
      }
      return out;
    }
  }

  D.Flame = Flame;
  D.flameTools = { prepare, invert, kindOf, colourOf, shortName, KINDS, HIGHLIGHT, diffColour };
})(window.Dyper);
