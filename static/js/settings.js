// Workspace Booking: the Copy button of the settings page. Without script the button stays hidden and
// the address can be selected and copied by hand. Its words are the page's, in its language: data
// attributes of the button (data-done, data-said, data-failed), English when they are missing.
(function () {
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    var status = document.getElementById(button.getAttribute("data-copied"));
    if (!field) return;
    var label = button.textContent;
    button.hidden = false;
    button.addEventListener("click", function () {
      copy(field).then(function () {
        say(status, button.dataset.said || "Copied. Paste it where your calendar asks for an address.");
        button.textContent = button.dataset.done || "Copied";
        setTimeout(function () { button.textContent = label || "Copy"; }, 3000);
      }, function () {
        field.focus();
        field.select();
        say(status, button.dataset.failed || "Could not copy: the address is selected, copy it with your keyboard or menu.");
      });
    });
  });

  // The whole address is selected when the field is focused, ready to copy by hand.
  document.querySelectorAll("input[readonly]").forEach(function (field) {
    field.addEventListener("focus", function () { field.select(); });
  });

  // copy puts the field's value on the clipboard: with the Clipboard API where the page may use it,
  // else by selecting the text and the browser's copy command.
  function copy(field) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(field.value).catch(function () { return copyBySelection(field); });
    }
    return copyBySelection(field);
  }

  function copyBySelection(field) {
    field.focus();
    field.select();
    return document.execCommand && document.execCommand("copy") ? Promise.resolve() : Promise.reject();
  }

  function say(status, words) {
    if (status) status.textContent = words;
  }
})();
