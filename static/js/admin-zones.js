// Workspace Booking: drawing a neighbourhood in the plan editor.
//
// The button "Draw on the plan" (#zone-draw) turns drawing on: the next rectangle dragged on the plan
// with a mouse, a pen or a finger fills the corners of the form that adds a neighbourhood, in the plan's
// units, and the name field gets the focus. Typing the corners draws the same rectangle, so the form alone
// (keyboard, screen readers) does everything the drawing does. Escape stops drawing.
(function () {
  "use strict";
  var svg = document.querySelector("svg.plan.editing");
  var button = document.getElementById("zone-draw");
  if (!svg || !button) return;
  var form = button.form;
  var view = svg.viewBox.baseVal;
  var fields = {};
  form.querySelectorAll("[data-corner]").forEach(function (i) { fields[i.dataset.corner] = i; });
  var draft = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  draft.setAttribute("class", "zone-draft");
  var label = button.textContent, start = null;

  function point(event) {
    var p = svg.createSVGPoint();
    p.x = event.clientX; p.y = event.clientY;
    p = p.matrixTransform(svg.getScreenCTM().inverse());
    return {x: Math.round(Math.min(Math.max(p.x, 0), view.width)), y: Math.round(Math.min(Math.max(p.y, 0), view.height))};
  }
  function show(x1, y1, x2, y2) {
    if (!(x2 > x1 && y2 > y1)) { draft.remove(); return; }
    draft.setAttribute("x", x1); draft.setAttribute("y", y1);
    draft.setAttribute("width", x2 - x1); draft.setAttribute("height", y2 - y1);
    var first = svg.querySelector(".spot");
    if (!draft.parentNode) svg.insertBefore(draft, first);
  }
  function fromFields() {
    show(+fields.x1.value, +fields.y1.value, +fields.x2.value, +fields.y2.value);
  }
  function drawing(on) {
    svg.classList.toggle("drawing", on);
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? (button.dataset.drawing || label) : label;
    start = null;
  }
  button.addEventListener("click", function () { drawing(!svg.classList.contains("drawing")); });
  Object.keys(fields).forEach(function (k) { fields[k].addEventListener("input", fromFields); });
  document.addEventListener("keydown", function (e) { if (e.key === "Escape") drawing(false); });
  // Capture: while drawing, the desks under the pointer are not dragged.
  svg.addEventListener("pointerdown", function (e) {
    if (!svg.classList.contains("drawing")) return;
    e.preventDefault(); e.stopPropagation();
    start = point(e);
    svg.setPointerCapture(e.pointerId);
  }, true);
  svg.addEventListener("pointermove", function (e) {
    if (!start) return;
    var p = point(e);
    show(Math.min(start.x, p.x), Math.min(start.y, p.y), Math.max(start.x, p.x), Math.max(start.y, p.y));
  }, true);
  svg.addEventListener("pointerup", function (e) {
    if (!start) return;
    e.stopPropagation();
    var p = point(e);
    fields.x1.value = Math.min(start.x, p.x); fields.y1.value = Math.min(start.y, p.y);
    fields.x2.value = Math.max(start.x, p.x); fields.y2.value = Math.max(start.y, p.y);
    fromFields();
    drawing(false);
    var name = form.querySelector("input[name=name]");
    if (name) name.focus();
  }, true);
})();
