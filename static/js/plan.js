// Workspace Booking: the floor plan, driven by hand. It zooms and pans the drawing (buttons, Ctrl or ⌘
// and the wheel, two fingers, dragging when zoomed, the + and - keys), writes every name and state mark
// 12 to 15 px tall on screen whatever the zoom (a shorter name, or nothing, where that does not fit),
// moves between desks and rooms with the arrow keys, shows a tip on hover and focus, and on a narrow
// screen starts zoomed in far enough that every desk is a fingertip's size. Without it the plan still
// works: it is drawn at one size, and Tab goes from one desk to the next.
(function () {
  "use strict";

  var MIN_PX = 12, MAX_PX = 15; // the height of names and marks on screen
  var TARGET_PX = 44; // the smallest hit area on a touch screen at the first zoom
  var CHAR = 0.62; // the width of an average character of the names' font, in ems
  var MAX_ZOOM = 8;
  var narrow = window.matchMedia("(max-width: 61.99rem)");
  var views = {}; // the last view of each floor, kept while the plan is redrawn for other hours


  function setUp(frame) {
    var svg = frame.querySelector("svg.plan");
    if (!svg || svg.dataset.driven) return;
    svg.dataset.driven = "1";
    var full = svg.viewBox.baseVal;
    var F = { x: full.x, y: full.y, w: full.width, h: full.height };
    var vb = { x: F.x, y: F.y, w: F.w, h: F.h };
    var spots = Array.prototype.slice.call(svg.querySelectorAll("a.spot"));
    var tip = frame.querySelector(".plan-tip");
    var zoomBar = frame.querySelector(".plan-zoom");
    var help = frame.parentNode.querySelector(".plan-help");
    frame.classList.add("zoomable");
    if (zoomBar) zoomBar.hidden = false;
    if (help) help.hidden = false;

    function box(el) {
      return { x: +el.getAttribute("x"), y: +el.getAttribute("y"), w: +el.getAttribute("width"), h: +el.getAttribute("height") };
    }
    var areas = spots.map(function (a) { return box(a.querySelector("rect.area")); });

    // scale is how many screen pixels one unit of the plan takes now.
    function scale() { return svg.getBoundingClientRect().width / vb.w || 1; }

    // aspect is the drawing's height over its width on screen: on a phone the plan is taller than the
    // floor's shape, so that more of it shows when zoomed in.
    function aspect() {
      var r = svg.getBoundingClientRect();
      return r.width > 0 && r.height > 0 ? r.height / r.width : F.h / F.w;
    }
    function clamp(v, lo, hi) { return lo > hi ? (lo + hi) / 2 : Math.min(hi, Math.max(lo, v)); }
    function setView(x, y, w) {
      w = Math.min(F.w, Math.max(F.w / MAX_ZOOM, w));
      var h = w * aspect();
      vb.x = clamp(x, F.x, F.x + F.w - w);
      vb.y = clamp(y, F.y, F.y + F.h - h);
      vb.w = w; vb.h = h;
      svg.setAttribute("viewBox", [vb.x, vb.y, vb.w, vb.h].join(" "));
      frame.classList.toggle("zoomed", w < F.w - 0.5);
      views[frame.dataset.plan] = { x: vb.x, y: vb.y, w: vb.w };
      layOut(scale());
    }

    // zoomAt zooms by factor keeping the plan point (px, py) where it is on screen.
    function zoomAt(factor, px, py) {
      var w = Math.min(F.w, Math.max(F.w / MAX_ZOOM, vb.w / factor));
      setView(px - (px - vb.x) * w / vb.w, py - (py - vb.y) * w / vb.w, w);
    }
    function centre() { return { x: vb.x + vb.w / 2, y: vb.y + vb.h / 2 }; }
    function toPlan(clientX, clientY) {
      var r = svg.getBoundingClientRect();
      return { x: vb.x + (clientX - r.left) / r.width * vb.w, y: vb.y + (clientY - r.top) / r.height * vb.h };
    }
    function show(i) { // pans so that spot i is in view, centred if it was not
      var a = areas[i];
      if (a.x >= vb.x && a.y >= vb.y && a.x + a.w <= vb.x + vb.w && a.y + a.h <= vb.y + vb.h) return;
      setView(a.x + a.w / 2 - vb.w / 2, a.y + a.h / 2 - vb.h / 2, vb.w);
    }

    // relayout writes each spot's mark and name for the current zoom: the mark and the whole name, or the
    // mark and the name's number, or either alone, the first that fits inside the shape at 12 to 15 px.
    var pending = false;
    function relayout() {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; layOut(scale()); });
    }
    function layOut(s) {
      spots.forEach(function (a, i) {
        var r = areas[i], full = a.dataset.name || "", short = a.dataset.short || "";
        var parts = labelParts(a);
        var room = { w: r.w - 3 / s, h: r.h - 3 / s };
        // In order of preference; the first that fits at 12 px or more is written, as large as fits up
        // to 15 px.
        var choices = [[full, true], [short, true], [full, false], [short, false], ["", true]];
        for (var c = 0; c < choices.length; c++) {
          var text = choices[c][0], mark = choices[c][1];
          if (!text && c < 4) continue;
          var unit = labelSize(text, mark, 1);
          var size = Math.min(MAX_PX / s, room.w / unit.w, room.h / unit.h);
          if (size * s >= MIN_PX) { placeLabel(parts, r, text, mark, size); return; }
        }
        hideLabel(parts, true, true);
      });
    }

    // labelSize is the width and height of a label written size units tall: the mark in its circle,
    // and the name on its backing, 0.2 em wider than the text on each side.
    function labelSize(text, mark, size) {
      var w = mark ? 1.5 * size : 0, h = mark ? 1.5 * size : 0;
      if (text) {
        w += (mark ? 0.3 * size : 0) + (textWidth(text) + 0.4) * size;
        h = Math.max(h, 1.3 * size);
      }
      return { w: w, h: h };
    }

    function labelParts(a) {
      var ns = "http://www.w3.org/2000/svg";
      var name = a.querySelector("text.name"), bg = a.querySelector("rect.name-bg");
      if (!name) {
        bg = document.createElementNS(ns, "rect"); bg.setAttribute("class", "name-bg");
        name = document.createElementNS(ns, "text"); name.setAttribute("class", "name"); name.setAttribute("aria-hidden", "true");
        var before = a.querySelector("circle.mark-bg");
        a.insertBefore(bg, before); a.insertBefore(name, before);
      }
      return { name: name, bg: bg, mark: a.querySelector("text.mark"), markBg: a.querySelector("circle.mark-bg") };
    }

    function hideLabel(p, name, mark) {
      p.name.classList.toggle("label-hidden", name); p.bg.classList.toggle("label-hidden", name);
      if (p.mark) { p.mark.classList.toggle("label-hidden", mark); p.markBg.classList.toggle("label-hidden", mark); }
    }

    function placeLabel(p, r, text, mark, size) {
      var need = labelSize(text, mark, size);
      var x = r.x + (r.w - need.w) / 2, cy = r.y + r.h / 2;
      hideLabel(p, !text, !mark);
      if (mark && p.mark) {
        var rad = 0.75 * size;
        p.markBg.setAttribute("cx", x + rad); p.markBg.setAttribute("cy", cy); p.markBg.setAttribute("r", rad);
        p.mark.setAttribute("x", x + rad); p.mark.setAttribute("y", cy);
        p.mark.style.fontSize = size + "px"; p.mark.style.dominantBaseline = "central";
        p.markBg.style.strokeWidth = size / 8;
        x += 1.5 * size + 0.3 * size;
      }
      if (text) {
        var w = (textWidth(text) + 0.4) * size, h = 1.3 * size;
        if (p.name.textContent !== text || p.name.childElementCount) p.name.textContent = text;
        p.name.setAttribute("x", x + w / 2); p.name.setAttribute("y", cy);
        p.name.setAttribute("font-size", size); p.name.style.fontSize = size + "px";
        p.bg.setAttribute("x", x); p.bg.setAttribute("y", cy - h / 2);
        p.bg.setAttribute("width", w); p.bg.setAttribute("height", h); p.bg.setAttribute("rx", size / 4);
        p.bg.style.strokeWidth = size / 16;
      }
    }

    // The first view: on a narrow screen, zoomed in until the smallest hit area is 44 px, around the
    // chosen resource or else the first free one; elsewhere the whole floor. A redraw for other hours
    // keeps the view the person had.
    function firstView() {
      var kept = views[frame.dataset.plan];
      if (kept) { setView(kept.x, kept.y, kept.w); return; }
      if (!narrow.matches || !spots.length) { setView(F.x, F.y, F.w); return; }
      var smallest = Infinity;
      spots.forEach(function (a) {
        var h = box(a.querySelector("rect.hit") || a.querySelector("rect.area"));
        smallest = Math.min(smallest, h.w, h.h);
      });
      var fit = svg.getBoundingClientRect().width / F.w;
      var want = TARGET_PX / smallest;
      if (want <= fit) { setView(F.x, F.y, F.w); return; }
      var i = spots.findIndex(function (a) { return a.classList.contains("selected"); });
      if (i < 0) i = spots.findIndex(function (a) { return a.classList.contains("free"); });
      if (i < 0) i = 0;
      var w = F.w * fit / want, a = areas[i];
      setView(a.x + a.w / 2 - w / 2, a.y + a.h / 2 - w * aspect() / 2, w);
    }
    firstView();
    window.addEventListener("resize", relayout);

    if (zoomBar) zoomBar.addEventListener("click", function (e) {
      var b = e.target.closest("button[data-zoom]");
      if (!b) return;
      var c = centre();
      if (b.dataset.zoom === "in") zoomAt(1.5, c.x, c.y);
      else if (b.dataset.zoom === "out") zoomAt(1 / 1.5, c.x, c.y);
      else setView(F.x, F.y, F.w);
    });

    svg.addEventListener("wheel", function (e) {
      if (!e.ctrlKey && !e.metaKey) return; // a plain wheel scrolls the page
      e.preventDefault();
      var p = toPlan(e.clientX, e.clientY);
      zoomAt(Math.exp(-e.deltaY * 0.0025), p.x, p.y);
    }, { passive: false });

    // Pointers: one drags the plan when it is zoomed in, two pinch. A drag does not choose a desk.
    var pointers = new Map(), drag = null, pinch = null, dragged = false;
    svg.addEventListener("pointerdown", function (e) {
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 1) {
        drag = { x: e.clientX, y: e.clientY, vx: vb.x, vy: vb.y, id: e.pointerId };
        dragged = false;
      } else if (pointers.size === 2) {
        var ps = Array.from(pointers.values());
        var mid = toPlan((ps[0].x + ps[1].x) / 2, (ps[0].y + ps[1].y) / 2);
        pinch = { d: distance(ps), w: vb.w, px: mid.x, py: mid.y, sx: (mid.x - vb.x) / vb.w, sy: (mid.y - vb.y) / vb.h };
        drag = null;
        dragged = true;
      }
    });
    svg.addEventListener("pointermove", function (e) {
      if (!pointers.has(e.pointerId)) return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pinch && pointers.size === 2) {
        var w = Math.min(F.w, Math.max(F.w / MAX_ZOOM, pinch.w * pinch.d / distance(Array.from(pointers.values()))));
        setView(pinch.px - pinch.sx * w, pinch.py - pinch.sy * w * aspect(), w);
        return;
      }
      if (!drag || vb.w >= F.w - 0.5) return;
      var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!dragged && Math.abs(dx) + Math.abs(dy) < 6) return;
      if (!dragged) { dragged = true; frame.classList.add("panning"); try { svg.setPointerCapture(drag.id); } catch (err) { /* gone */ } }
      var s = scale();
      setView(drag.vx - dx / s, drag.vy - dy / s, vb.w);
    });
    function lift(e) {
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (pointers.size === 0) { drag = null; frame.classList.remove("panning"); }
    }
    svg.addEventListener("pointerup", lift);
    svg.addEventListener("pointercancel", lift);
    svg.addEventListener("click", function (e) {
      if (dragged) { e.preventDefault(); e.stopPropagation(); dragged = false; }
    }, true);

    // Keys: arrows go from one resource to the next in reading order (left and right along the rows,
    // up and down to the nearest one in the row above or below), Home and End to the first and last;
    // + and - zoom. Only one resource is in the Tab order: the one last reached.
    var order = readingOrder();
    var current = spots.findIndex(function (a) { return a.classList.contains("selected"); });
    if (current < 0) current = order.length ? order[0].i : -1;
    spots.forEach(function (a, i) { a.setAttribute("tabindex", i === current ? "0" : "-1"); });

    function readingOrder() {
      var items = areas.map(function (r, i) { return { i: i, x: r.x + r.w / 2, y: r.y + r.h / 2, h: r.h }; });
      items.sort(function (a, b) { return a.y - b.y; });
      var rows = [], row = null;
      items.forEach(function (it) {
        if (!row || it.y - row.y > Math.min(row.h, it.h) / 2) { row = { y: it.y, h: it.h, items: [] }; rows.push(row); }
        row.items.push(it);
      });
      var out = [];
      rows.forEach(function (r, n) {
        r.items.sort(function (a, b) { return a.x - b.x; });
        r.items.forEach(function (it) { it.row = n; out.push(it); });
      });
      return out;
    }
    function moveTo(i) {
      if (i < 0 || i === current) return;
      if (current >= 0) spots[current].setAttribute("tabindex", "-1");
      current = i;
      spots[i].setAttribute("tabindex", "0");
      show(i);
      spots[i].focus();
    }
    svg.addEventListener("keydown", function (e) {
      var a = e.target.closest && e.target.closest("a.spot");
      if (e.key === "+" || e.key === "=") { e.preventDefault(); var c = centre(); zoomAt(1.5, c.x, c.y); return; }
      if (e.key === "-") { e.preventDefault(); var d = centre(); zoomAt(1 / 1.5, d.x, d.y); return; }
      if (!a) return;
      var at = order.findIndex(function (it) { return it.i === spots.indexOf(a); });
      var next = -1;
      switch (e.key) {
        case "ArrowRight": next = at + 1 < order.length ? order[at + 1].i : -1; break;
        case "ArrowLeft": next = at > 0 ? order[at - 1].i : -1; break;
        case "ArrowDown": next = nearestInRow(order[at], 1); break;
        case "ArrowUp": next = nearestInRow(order[at], -1); break;
        case "Home": next = order[0].i; break;
        case "End": next = order[order.length - 1].i; break;
        default: return;
      }
      e.preventDefault();
      moveTo(next);
    });
    function nearestInRow(from, step) {
      var best = -1, bestD = Infinity;
      order.forEach(function (it) {
        if (it.row !== from.row + step) return;
        var d = Math.abs(it.x - from.x);
        if (d < bestD) { bestD = d; best = it.i; }
      });
      return best;
    }
    svg.addEventListener("focusin", function (e) {
      var a = e.target.closest && e.target.closest("a.spot");
      if (!a) return;
      var i = spots.indexOf(a);
      if (i !== current) { if (current >= 0) spots[current].setAttribute("tabindex", "-1"); current = i; a.setAttribute("tabindex", "0"); }
      show(i);
      showTip(a);
    });
    svg.addEventListener("focusout", function () { if (tip) tip.hidden = true; });
    window.addEventListener("scroll", function () { if (tip && !svg.contains(document.activeElement)) tip.hidden = true; }, { passive: true });
    svg.addEventListener("pointerover", function (e) {
      var a = e.target.closest && e.target.closest("a.spot");
      if (a && e.pointerType === "mouse") showTip(a);
    });
    svg.addEventListener("pointerleave", function () { if (tip && !svg.contains(document.activeElement)) tip.hidden = true; });

    function showTip(a) {
      if (!tip || !a.dataset.tip) return;
      tip.textContent = a.dataset.tip;
      tip.hidden = false;
      var fr = frame.getBoundingClientRect(), r = a.querySelector("rect.area").getBoundingClientRect();
      var left = r.left - fr.left + r.width / 2 - tip.offsetWidth / 2;
      var top = r.top - fr.top - tip.offsetHeight - 6;
      if (top < 4) top = r.bottom - fr.top + 6;
      tip.style.left = Math.max(4, Math.min(fr.width - tip.offsetWidth - 4, left)) + "px";
      tip.style.top = Math.max(4, Math.min(fr.height - tip.offsetHeight - 4, top)) + "px";
    }
  }

  // textWidth is the width of text in the names' font, in ems, measured once for each text.
  var widths = {}, ruler = null;
  function textWidth(text) {
    if (widths[text] === undefined) {
      if (!ruler) { ruler = document.createElement("canvas").getContext("2d"); ruler.font = "650 100px system-ui, sans-serif"; }
      widths[text] = ruler ? ruler.measureText(text).width / 100 : CHAR * text.length;
    }
    return widths[text];
  }

  function distance(ps) { return Math.hypot(ps[0].x - ps[1].x, ps[0].y - ps[1].y) || 1; }

  // When a resource's details load, they are shown (a sheet closed before opens again) with the Book
  // button in view; the close button hides the sheet and goes back to the resource on the plan.
  document.addEventListener("htmx:afterSwap", function (e) {
    var panel = document.getElementById("panel");
    if (!panel || e.detail.target !== panel) return;
    panel.classList.remove("closed");
    document.querySelectorAll(".plan-tip").forEach(function (t) { t.hidden = true; });
    var book = panel.querySelector(".booking-form button[type=submit]");
    if (book) book.scrollIntoView({ block: "nearest" });
    // On a narrow screen the details are a sheet over the bottom of the screen: the page moves up so
    // that the chosen resource shows above it.
    var chosen = document.querySelector("svg.plan a.spot.selected rect.area");
    if (chosen && getComputedStyle(panel).position === "fixed") {
      var limit = panel.getBoundingClientRect().top - 8, r = chosen.getBoundingClientRect();
      if (r.bottom > limit) window.scrollBy(0, r.bottom - limit);
      else if (r.top < 0) window.scrollBy(0, r.top - 8);
    }
  });
  document.addEventListener("click", function (e) {
    var close = e.target.closest && e.target.closest("[data-close-panel]");
    if (!close) return;
    var panel = close.closest(".plan-panel");
    if (!panel) return;
    panel.classList.add("closed");
    var chosen = document.querySelector("svg.plan a.spot.selected");
    if (chosen) chosen.focus();
  });

  function ready() { document.querySelectorAll("[data-plan]").forEach(setUp); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
  document.addEventListener("htmx:afterSettle", ready);
})();
