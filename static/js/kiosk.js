// Workspace Booking: the reception kiosk. "Scan a poster" starts the tablet's camera and reads a poster's
// QR code, whose content is the poster page's address (BASE_URL/p/CODE), then shows that resource. After a
// minute without a touch or a key, the kiosk goes back to scanning. Loaded as a module: qr-scanner loads its
// worker only when it needs one (browsers with BarcodeDetector need none).
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

// say writes a message where screen readers hear it.
function say(text) {
  if (message) message.textContent = text;
}

// codeFrom reads the poster code from a QR code's content: the last segment of a /p/CODE address, or the
// content itself.
function codeFrom(text) {
  text = String(text || "").trim();
  try {
    const match = new URL(text).pathname.match(/\/p\/([^/]+)\/?$/);
    if (match) return decodeURIComponent(match[1]);
  } catch (e) {
    // not an address: the code itself
  }
  return text;
}

function found(result) {
  const code = codeFrom(result && result.data);
  if (!code) return;
  stopScan();
  say("Found the poster " + code + ". Loading it…");
  window.location.assign("/kiosk/resource?code=" + encodeURIComponent(code));
}

async function startScan() {
  if (!window.isSecureContext || !navigator.mediaDevices) {
    say("The camera needs a secure (https) connection. Type the poster code below instead.");
    return;
  }
  say("Starting the camera…");
  if (!(await QrScanner.hasCamera())) {
    say("No camera was found on this device. Type the poster code below instead.");
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
    say("Hold the poster's QR code in front of the camera.");
    stopButton.focus();
  } catch (err) {
    stopScan();
    say("The camera could not start: permission was refused, or another app is using it. " +
      "Allow the camera for this site in the browser's settings, or type the poster code below.");
  }
}

function stopScan() {
  if (scanner) scanner.stop();
  if (area) area.hidden = true;
  if (startButton) startButton.hidden = false;
}

if (startButton && area && video) {
  startButton.hidden = false;
  startButton.addEventListener("click", startScan);
  stopButton.addEventListener("click", function () {
    stopScan();
    say("The camera is off.");
    startButton.focus();
  });
}

// Going back to scanning after a while without a touch or a key: from a resource, to the start page; on
// the start page, the camera stops and the typed code is cleared.
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
    say("The camera stopped after a minute without use. Press “Scan a poster” to start it again.");
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
