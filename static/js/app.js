// Workspace Booking: the little script every page loads after htmx. It moves keyboard focus to what htmx
// swapped in when that is a refusal, so that screen readers and keyboard users land on it.
document.addEventListener("htmx:afterSwap", function (event) {
  var target = event.detail.target;
  if (!target) return;
  var focus = target.querySelector("[data-focus]") || (target.id === "notice" ? target : null);
  if (focus) {
    if (!focus.hasAttribute("tabindex")) focus.setAttribute("tabindex", "-1");
    focus.focus();
  }
});
