// Workspace Booking: the small script that every page loads after htmx.
//
// After htmx swaps in content, move keyboard focus to the element marked data-focus, or to the notice
// area when that was the target, so that screen reader and keyboard users land on the message. A target
// swapped whole (outerHTML) is no longer in the page: its replacement, with the same id, is looked in.
document.addEventListener("htmx:afterSwap", function (event) {
  var target = event.detail.target;
  if (target && !target.isConnected && target.id) target = document.getElementById(target.id);
  if (!target) return;
  var focus = target.querySelector("[data-focus]") || (target.id === "notice" ? target : null);
  if (focus) {
    if (!focus.hasAttribute("tabindex")) focus.setAttribute("tabindex", "-1");
    focus.focus();
  }
});

// Pressing Enter in a colleague search looks the name up instead of submitting the surrounding form.
document.addEventListener("keydown", function (event) {
  var input = event.target;
  if (event.key !== "Enter" || !input.matches || !input.matches("input[data-picker]")) return;
  event.preventDefault();
  if (window.htmx) window.htmx.trigger(input, "search");
});
