// Workspace Booking: the reception kiosk.
//
// "Scan a poster" starts the tablet's camera and reads a poster's QR code. The code holds the address of
// the poster page (BASE_URL/p/CODE); the kiosk then shows that resource. It refuses QR codes that are not
// posters of this service. The camera is released when the user leaves the page. After a minute without
// a touch or a key press, the kiosk goes back to scanning.
//
// The script is loaded as a module so that qr-scanner can load its worker only when it needs one
// (browsers with BarcodeDetector don't).
import QrScanner from "/static/js/qr-scanner.min.js";

const root = document.querySelector("[data-kiosk-idle]");
const idleMs = (Number(root && root.dataset.kioskIdle) || 60) * 1000;
const onScanPage = !!(root && root.hasAttribute("data-kiosk-home"));

const startButton = document.getElementById("scan-start");
const area = document.getElementById("scan-area");
const video = document.getElementById("scan-video");
const stopButton = document.getElementById("scan-stop");
const message = document.getElementById("scan-message");
let scanner = null;

// say shows a message in the status area, which screen readers announce. The page gives the messages in
// its language, as data attributes of the status area: say("hold") shows data-hold. code replaces "{code}".
function say(name, code) {
  if (!message) return;
  const text = message.dataset[name] || "";
  message.textContent = code === undefined ? text : text.replace("{code}", code);
}

// posterCode returns the poster code in a QR code's text. The text can be the address of a poster page
// (…/p/CODE, on this page's origin or on the service's public address) or the bare code printed on the
// poster. For anything else, such as another site, another page of this service or a Wi-Fi code, it
// returns "".
function posterCode(text) {
  text = String(text || "").trim();
  let url = null;
  try {
    url = new URL(text);
  } catch (e) {
    // Not an address, so accept only a bare code: letters, digits, dots, underscores and dashes.
    return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(text) ? text : "";
  }
  const main = document.getElementById("main");
  const origins = [window.location.origin];
  try {
    if (main && main.dataset.baseUrl) origins.push(new URL(main.dataset.baseUrl).origin);
  } catch (e) {
    // The public address is not a valid URL: accept this page's origin only.
  }
  if (!origins.includes(url.origin)) return "";
  const match = url.pathname.match(/^\/p\/([^/]+)\/?$/);
  if (!match) return "";
  try {
    return decodeURIComponent(match[1]).trim();
  } catch (e) {
    return "";
  }
}

// scanned handles the text the camera read. A poster of this service opens its resource. For anything
// else, it shows a message once and keeps scanning.
let lastRefused = "";
function scanned(text) {
  const code = posterCode(text);
  if (!code) {
    if (text !== lastRefused) {
      lastRefused = text;
      say("notPoster");
    }
    return;
  }
  stopScan();
  say("found", code);
  window.location.assign("/kiosk/resource?code=" + encodeURIComponent(code));
}

function found(result) {
  scanned(result && result.data);
}

// setMirror mirrors the preview only for a camera that faces the user. The rear camera, or a camera
// whose direction is unknown, shows the poster the right way round.
function setMirror() {
  const stream = video && video.srcObject;
  const track = stream && stream.getVideoTracks && stream.getVideoTracks()[0];
  const facing = track && track.getSettings ? track.getSettings().facingMode : "";
  video.classList.toggle("mirrored", facing === "user");
}

async function startScan() {
  if (!window.isSecureContext || !navigator.mediaDevices) {
    say("insecure");
    return;
  }
  say("starting");
  if (!(await QrScanner.hasCamera())) {
    say("noCamera");
    return;
  }
  if (!scanner) {
    scanner = new QrScanner(video, found, {
      returnDetailedScanResult: true,
      preferredCamera: "environment",
      maxScansPerSecond: 10,
    });
  }
  area.hidden = false;
  startButton.hidden = true;
  try {
    await scanner.start();
    setMirror();
    lastRefused = "";
    say("hold");
    stopButton.focus();
  } catch (err) {
    stopScan();
    say("failed");
  }
}

function stopScan() {
  if (scanner) scanner.stop();
  if (area) area.hidden = true;
  if (startButton) startButton.hidden = false;
}

// Leaving the page releases the camera at once. scanner.stop() alone waits a moment before releasing it,
// and a page being left has no moment to spare. A page restored from the back-forward cache creates a
// new scanner when the user presses "Scan a poster".
window.addEventListener("pagehide", function () {
  if (!scanner) return;
  scanner.pause(true);
  scanner.destroy();
  scanner = null;
  if (area) area.hidden = true;
  if (startButton) startButton.hidden = false;
});

// Exposed for the browser tests, which call these directly instead of using a camera.
window.kiosk = Object.freeze({ posterCode: posterCode, scanned: scanned });

if (startButton && area && video) {
  startButton.hidden = false;
  startButton.addEventListener("click", startScan);
  stopButton.addEventListener("click", function () {
    stopScan();
    say("off");
    startButton.focus();
  });
}

// After idleMs without a touch or a key press, the kiosk resets. A resource page goes back to the start
// page. On the start page, the typed code is cleared and the camera stops.
let timer = 0;
function idle() {
  if (!onScanPage) {
    window.location.assign("/kiosk");
    return;
  }
  const typed = document.getElementById("code");
  if (typed) typed.value = "";
  if (scanner && area && !area.hidden) {
    stopScan();
    say("idle");
  }
}
function active() {
  clearTimeout(timer);
  timer = setTimeout(idle, idleMs);
}
if (root) {
  for (const type of ["pointerdown", "keydown", "input", "wheel", "touchstart"]) {
    document.addEventListener(type, active, { capture: true, passive: true });
  }
  active();
}
