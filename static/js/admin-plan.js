// Workspace Booking: the plan editor of the admin pages.
//
// Each desk or room is a <g class="spot"> on the floor's plan, with its rectangle in data-x1…data-y2 (the
// plan's own units) and its version in data-etag. Drag it with a mouse, a pen or a finger (Pointer
// Events) to move it, drag its round handle to resize it; with the keyboard, the arrow keys move the
// focused one (Shift: ten times further) and Alt with the arrows resizes it. Every change is posted to
// /admin/resources/ID/position with the version it started from; the answer carries the new version, or
// says in words why it was refused. The words the script writes are the page's, in its language: data
// attributes of the status line (and of the edit link), with {name} where the name of a desk or room goes.
(function () {
  "use strict";
  var svg = document.querySelector("svg.plan.editing");
  if (!svg) return;
  var status = document.getElementById("editor-status");
  var editLink = document.getElementById("edit-selected");
  var view = svg.viewBox.baseVal;
  var MIN = 8, STEP = 5;
  var selected = null, drag = null;

  function box(g) {
    return {x1: +g.dataset.x1, y1: +g.dataset.y1, x2: +g.dataset.x2, y2: +g.dataset.y2};
  }
  function name(g) {
    return g.dataset.name || words("unnamed", "It");
  }
  // words is the page's message key (a data attribute of the status line), else the English fallback,
  // with the name of g in place of {name}.
  function words(key, fallback, g) {
    var text = (status && status.dataset[key]) || fallback;
    return g ? text.replace("{name}", name(g)) : text;
  }
  function say(text, kind) {
    if (!status) return;
    status.textContent = text;
    status.className = "editor-status" + (kind ? " " + kind : "");
  }
  // draw places the spot's shapes at the rectangle b, kept inside the plan. Its name stays in the
  // middle, made smaller than the page wrote it when the rectangle becomes too small for it.
  function draw(g, b) {
    var w = Math.max(MIN, b.x2 - b.x1), h = Math.max(MIN, b.y2 - b.y1);
    w = Math.min(w, view.width); h = Math.min(h, view.height);
    var x = Math.round(Math.min(Math.max(0, b.x1), view.width - w));
    var y = Math.round(Math.min(Math.max(0, b.y1), view.height - h));
    w = Math.round(w); h = Math.round(h);
    g.dataset.x1 = x; g.dataset.y1 = y; g.dataset.x2 = x + w; g.dataset.y2 = y + h;
    var r = g.querySelector(".area");
    r.setAttribute("x", x); r.setAttribute("y", y); r.setAttribute("width", w); r.setAttribute("height", h);
    var t = g.querySelector(".name"), bg = g.querySelector(".name-bg");
    if (t && bg) {
      var n = t.dataset.fit ? JSON.parse(t.dataset.fit) : null;
      if (!n) {
        n = {size: +t.getAttribute("font-size"), w: +bg.getAttribute("width"), h: +bg.getAttribute("height")};
        t.dataset.fit = JSON.stringify(n);
      }
      var k = Math.min(1, (w - 4) / n.w, (h - 4) / n.h), cx = x + w / 2, cy = y + h / 2;
      t.setAttribute("font-size", n.size * k);
      t.setAttribute("x", cx); t.setAttribute("y", cy);
      t.querySelectorAll("tspan").forEach(function (s) { s.setAttribute("x", cx); });
      bg.setAttribute("x", cx - n.w * k / 2); bg.setAttribute("y", cy - n.h * k / 2);
      bg.setAttribute("width", n.w * k); bg.setAttribute("height", n.h * k);
      bg.setAttribute("rx", n.size * k / 4);
    }
    var c = g.querySelector(".handle");
    if (c) { c.setAttribute("cx", x + w); c.setAttribute("cy", y + h); }
  }
  function select(g, focus) {
    if (selected && selected !== g) selected.classList.remove("selected");
    selected = g;
    g.classList.add("selected");
    document.querySelectorAll("[data-select]").forEach(function (b) {
      b.setAttribute("aria-pressed", b.dataset.select === g.dataset.id ? "true" : "false");
    });
    if (editLink) {
      editLink.href = editLink.dataset.editBase + g.dataset.id;
      editLink.textContent = (editLink.dataset.words || "Edit the details of {name}").replace("{name}", name(g));
    }
    if (focus) g.focus();
  }
  // point turns a pointer's position on the screen into the plan's units.
  function point(event) {
    var p = svg.createSVGPoint();
    p.x = event.clientX; p.y = event.clientY;
    return p.matrixTransform(svg.getScreenCTM().inverse());
  }

  // Saving: one request at a time per spot, so that each carries the version the previous one returned.
  var saving = {};
  function save(g) {
    var id = g.dataset.id;
    if (saving[id]) { saving[id] = "again"; return; }
    saving[id] = "busy";
    var b = box(g);
    var body = new URLSearchParams({x1: b.x1, y1: b.y1, x2: b.x2, y2: b.y2, etag: g.dataset.etag || ""});
    say(words("saving", "Saving {name}…", g));
    fetch("/admin/resources/" + encodeURIComponent(id) + "/position", {
      method: "POST", body: body, credentials: "same-origin", headers: {"Accept": "application/json"}
    }).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (data) {
        if (res.ok) {
          g.dataset.etag = data.etag || "";
          say(words("saved", "Saved {name}.", g), "ok");
        } else {
          say(data.message || words("notSaved", "That could not be saved. Reload the page and try again."), "error");
          if (data.etag) g.dataset.etag = data.etag;
          if (data.box) draw(g, data.box);
        }
      });
    }).catch(function () {
      say(words("unreachable", "The change to {name} was not saved: the service could not be reached. Try again.", g), "error");
    }).then(function () {
      var again = saving[id] === "again";
      delete saving[id];
      if (again) save(g);
    });
  }

  svg.addEventListener("pointerdown", function (event) {
    var g = event.target.closest && event.target.closest(".spot");
    if (!g || event.button > 0) return;
    event.preventDefault();
    select(g, true);
    drag = {
      g: g, id: event.pointerId, from: point(event), box: box(g), moved: false,
      resize: event.target.classList.contains("handle")
    };
    svg.setPointerCapture(event.pointerId);
    g.classList.add("dragging");
  });
  svg.addEventListener("pointermove", function (event) {
    if (!drag || event.pointerId !== drag.id) return;
    var p = point(event), dx = p.x - drag.from.x, dy = p.y - drag.from.y, b = drag.box;
    if (!drag.moved && Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
    drag.moved = true;
    if (drag.resize) {
      draw(drag.g, {x1: b.x1, y1: b.y1, x2: Math.max(b.x1 + MIN, b.x2 + dx), y2: Math.max(b.y1 + MIN, b.y2 + dy)});
    } else {
      draw(drag.g, {x1: b.x1 + dx, y1: b.y1 + dy, x2: b.x2 + dx, y2: b.y2 + dy});
    }
  });
  function drop(event) {
    if (!drag || event.pointerId !== drag.id) return;
    var d = drag;
    drag = null;
    d.g.classList.remove("dragging");
    if (svg.hasPointerCapture(event.pointerId)) svg.releasePointerCapture(event.pointerId);
    if (d.moved) save(d.g);
  }
  svg.addEventListener("pointerup", drop);
  svg.addEventListener("pointercancel", drop);

  // Keyboard: the arrows move the focused spot, Shift ten times further, Alt resizes it. It is saved
  // half a second after the last key.
  var keyTimer = null;
  svg.addEventListener("keydown", function (event) {
    var g = event.target.closest && event.target.closest(".spot");
    if (!g) return;
    var dx = 0, dy = 0;
    switch (event.key) {
      case "ArrowLeft": dx = -1; break;
      case "ArrowRight": dx = 1; break;
      case "ArrowUp": dy = -1; break;
      case "ArrowDown": dy = 1; break;
      default: return;
    }
    event.preventDefault();
    select(g, false);
    var step = event.shiftKey ? STEP * 10 : STEP, b = box(g);
    dx *= step; dy *= step;
    if (event.altKey) {
      draw(g, {x1: b.x1, y1: b.y1, x2: Math.max(b.x1 + MIN, b.x2 + dx), y2: Math.max(b.y1 + MIN, b.y2 + dy)});
    } else {
      draw(g, {x1: b.x1 + dx, y1: b.y1 + dy, x2: b.x2 + dx, y2: b.y2 + dy});
    }
    clearTimeout(keyTimer);
    keyTimer = setTimeout(function () { save(g); }, 500);
  });
  svg.addEventListener("focusin", function (event) {
    var g = event.target.closest && event.target.closest(".spot");
    if (g && g !== selected) select(g, false);
  });

  // The list beside the plan selects a spot and moves the focus to it.
  document.addEventListener("click", function (event) {
    var b = event.target.closest && event.target.closest("[data-select]");
    if (!b) return;
    var g = document.getElementById("spot-" + b.dataset.select);
    if (g) select(g, true);
  });
})();
