/* The replay's win-probability graph (bangarena analyze): one line per analysed seat — the
   value of the option it chose at each of its decisions, from its own information — with axes
   (win probability 0–100 % against the step), the current step, and markers on inaccuracies,
   mistakes and blunders; its legend names each line and says what each marker means (the
   win probability lost, from the page's `levels`).  Drawn as SVG at the width of its box, so
   its text keeps its size on a phone; a click on a marker opens that decision. */
var GRAPH = (function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, text) {
    var e = document.createElementNS(NS, tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function h(tag, cls, kids) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    (kids || []).forEach(function (c) { e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }
  function fill(text, values) {
    return String(text).replace(/\{(\w+)\}/g, function (m, k) { return values[k] !== undefined ? String(values[k]) : m; });
  }
  /* Round steps of 1, 2 or 5 × 10^k covering 1 … n, about five of them. */
  function xticks(n) {
    var raw = Math.max(1, n / 5), mag = Math.pow(10, Math.floor(Math.log10(raw)));
    var step = [1, 2, 5, 10].map(function (m) { return m * mag; }).filter(function (s) { return s >= raw; })[0];
    var out = [1];
    for (var v = step; v <= n; v += step) if (v > 1) out.push(v);
    return out;
  }

  var R = { inaccuracy: 4, mistake: 5, blunder: 6 };

  function draw(box, legend, UI, g, seat, current, pick) {
    while (box.firstChild) box.removeChild(box.firstChild);
    while (legend.firstChild) legend.removeChild(legend.firstChild);
    var points = (g.wp || []).filter(function (p) { return seat < 0 || p[1] === seat; });
    if (!points.length) return false;
    var W = Math.max(260, Math.round(box.clientWidth || document.documentElement.clientWidth - 40)), H = W < 520 ? 210 : 250;
    var L = 46, Rm = 12, T = 10, B = 38;
    var n = Math.max(2, g.steps.length);
    function x(step) { return L + (W - L - Rm) * step / (n - 1); }
    function y(v) { return T + (H - T - B) * (1 - v); }
    var root = svg("svg", { id: "wp-svg", width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": UI.wp_title });
    [0, 0.25, 0.5, 0.75, 1].forEach(function (v) {
      root.appendChild(svg("line", { x1: L, x2: W - Rm, y1: y(v), y2: y(v), "class": v === 0.5 ? "wp-mid" : "wp-grid" }));
      root.appendChild(svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", "class": "wp-tick" }, (100 * v) + " %"));
    });
    xticks(n).forEach(function (s) {
      root.appendChild(svg("line", { x1: x(s - 1), x2: x(s - 1), y1: H - B, y2: H - B + 4, "class": "wp-axis" }));
      root.appendChild(svg("text", { x: x(s - 1), y: H - B + 16, "text-anchor": "middle", "class": "wp-tick" }, String(s)));
    });
    root.appendChild(svg("line", { x1: L, x2: W - Rm, y1: H - B, y2: H - B, "class": "wp-axis" }));
    root.appendChild(svg("line", { x1: L, x2: L, y1: T, y2: H - B, "class": "wp-axis" }));
    root.appendChild(svg("text", { x: (L + W - Rm) / 2, y: H - 4, "text-anchor": "middle", "class": "wp-label" }, UI.wp_axis_x));
    root.appendChild(svg("text", { x: 12, y: (T + H - B) / 2, "text-anchor": "middle", "class": "wp-label",
      transform: "rotate(-90 12 " + (T + H - B) / 2 + ")" }, UI.wp_axis_y));
    var seats = [];
    points.forEach(function (p) { if (seats.indexOf(p[1]) < 0) seats.push(p[1]); });
    seats.sort(function (a, b) { return a - b; });
    seats.forEach(function (s) {
      var mine = points.filter(function (p) { return p[1] === s; });
      root.appendChild(svg("polyline", {
        points: mine.map(function (p) { return x(p[0]).toFixed(1) + "," + y(p[2]).toFixed(1); }).join(" "),
        "class": "wp-line", stroke: BOARD.colors[s % BOARD.colors.length], "data-seat": s
      }));
    });
    root.appendChild(svg("line", { x1: x(current), x2: x(current), y1: T, y2: H - B, "class": "wp-now" }));
    points.forEach(function (p) {
      if (!p[3]) return;
      var m = svg("circle", { cx: x(p[0]).toFixed(1), cy: y(p[2]).toFixed(1), r: R[p[3]] || 5,
        "class": "wp-marker wp-" + p[3], "data-step": p[0], "data-seat": p[1] });
      m.appendChild(svg("title", {}, g.players[p[1]].name + " · " + UI["label_" + p[3]] + " · " + (100 * p[2]).toFixed(1) + " %"));
      m.addEventListener("click", function () { pick(p[0]); });
      root.appendChild(m);
    });
    box.appendChild(root);
    // the legend: a line per seat, then what each marker means
    seats.forEach(function (s) {
      var sw = h("span", "wp-swatch");
      sw.style.background = BOARD.colors[s % BOARD.colors.length];
      legend.appendChild(h("li", "wp-seat", [sw, g.players[s].name + " (" + g.players[s].player + ")"]));
    });
    ["inaccuracy", "mistake", "blunder"].forEach(function (k) {
      var dot = svg("svg", { width: 14, height: 14, viewBox: "0 0 14 14", "aria-hidden": "true" });
      dot.appendChild(svg("circle", { cx: 7, cy: 7, r: R[k], "class": "wp-" + k }));
      legend.appendChild(h("li", "wp-level", [dot, fill(UI.level_legend, { label: UI["label_" + k], pp: UI.levels[k] })]));
    });
    legend.appendChild(h("li", "wp-level", [h("span", "wp-now-key"), UI.wp_now]));
    return true;
  }

  return { draw: draw };
})();
