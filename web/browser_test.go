package web_test

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// The browser tests use chromedp to drive Chromium against a test server. They sign in, click through
// the main user journeys, run axe-core on every page, and save a screenshot of each main page under
// testdata/screens/ (git-ignored).

//go:embed testdata/axe-4.14.1.min.js
var axeScript string

// chromiumPath returns the path of the Chromium binary. If there is none, the test fails in CI, and is
// skipped elsewhere with a note on how to install it.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed (.ci/run installs it with apt-get install -y chromium)")
	}
	t.Skip("chromium is not installed: apt-get install -y chromium (or set CHROMIUM) to run the browser tests")
	return ""
}

// tab is one Chromium tab with its own profile, pointed at a test server.
type tab struct {
	t    *testing.T
	ctx  context.Context
	base string
}

// chromium is the one Chromium that every browser test of the package shares: starting one per test
// cost more than the tests themselves on a small machine. Each tab still gets a browser context of its
// own, so tabs share no cookies or storage. The fake camera is for the kiosk's scanner, and needs no
// permission.
var chromium struct {
	once   sync.Once
	ctx    context.Context
	cancel context.CancelFunc
	err    error
}

// TestMain runs the tests, then stops the shared Chromium if a test started it.
func TestMain(m *testing.M) {
	code := m.Run()
	if chromium.cancel != nil {
		chromium.cancel()
	}
	os.Exit(code)
}

// sharedBrowser returns the context of the shared Chromium, starting it on first use.
func sharedBrowser(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath(t)
	chromium.once.Do(func() {
		dir, err := os.MkdirTemp("", "booking-chromium-")
		if err != nil {
			chromium.err = err
			return
		}
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path),
			chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("use-fake-device-for-media-stream", true),
			chromedp.Flag("use-fake-ui-for-media-stream", true),
			chromedp.UserDataDir(dir),
			chromedp.WindowSize(1280, 900),
		)
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelCtx := chromedp.NewContext(actx)
		chromium.ctx = ctx
		chromium.cancel = func() { cancelCtx(); cancelAlloc(); os.RemoveAll(dir) }
		chromium.err = chromedp.Do(ctx, chromedp.Navigate("about:blank"))
	})
	if chromium.err != nil {
		t.Fatalf("start chromium: %v", chromium.err)
	}
	return chromium.ctx
}

// newTab opens a tab of the shared Chromium for the test, in a browser context of its own and with a
// laptop-sized window.
func newTab(t *testing.T, base string) *tab {
	t.Helper()
	return newTabSized(t, base, 1280, 900)
}

// newTabSized opens a tab like newTab, with a w×h window.
func newTabSized(t *testing.T, base string, w, h int) *tab {
	t.Helper()
	ctx, cancelCtx := chromedp.NewContext(sharedBrowser(t), chromedp.WithNewBrowserContext())
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancelCtx() })
	b := &tab{t: t, ctx: ctx, base: base}
	b.do(chromedp.EmulateViewport(int64(w), int64(h)))
	return b
}

// do runs the steps in order and fails the test on the first error.
func (b *tab) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	for _, step := range steps {
		if err := retryStale(func() error { return chromedp.Do(b.ctx, step) }); err != nil {
			b.t.Fatalf("browser: %v (at %s)", err, b.location())
		}
	}
}

// retryStale runs a step that acts on an element, and runs it again, for up to two seconds, while
// Chromium says the element's node no longer exists.
//
// waitText reads the page with a script, so it can see a new page before chromedp has caught up with it.
// chromedp then finds the element in the page it still has, and the new page no longer has that node.
// Chromium refuses before any click or key is sent, so running the step again does it once.
func retryStale(step func() error) error {
	err := step()
	for try := 0; err != nil && staleNode(err) && try < 10; try++ {
		time.Sleep(200 * time.Millisecond)
		err = step()
	}
	return err
}

// staleNode reports whether err is Chromium's answer for a node, or a script context, of a page that has
// since been replaced. Chromium words it in three ways, depending on the command: "Could not find node
// with given id", "No node with given id found", and "Cannot find context with specified id" for a
// script step sent to the old page's context.
func staleNode(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "Could not find node with given id") ||
		strings.Contains(msg, "No node with given id found") ||
		strings.Contains(msg, "Cannot find context with specified id")
}

// open navigates to a path of the server and waits for the page's main element.
func (b *tab) open(path string) {
	b.t.Helper()
	b.do(chromedp.Navigate(b.base+path), chromedp.WaitReady(chromedp.CSS("main")))
}

// location returns the tab's current URL.
func (b *tab) location() string {
	loc, _ := chromedp.Run(context.WithoutCancel(b.ctx), chromedp.Location())
	return loc
}

// text returns the visible text of the first element that matches selector, with whitespace collapsed.
func (b *tab) text(selector string) string {
	b.t.Helper()
	var s string
	err := retryStale(func() (err error) {
		s, err = chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(selector)))
		return err
	})
	if err != nil {
		b.t.Fatalf("text of %q: %v (at %s)", selector, err, b.location())
	}
	return strings.Join(strings.Fields(s), " ")
}

// waitText waits until the element that matches selector contains every part, in a page that has loaded
// completely: text near the top of a page shows while the rest is still arriving, and before its scripts
// (htmx among them) run, so that a click then would post the form without them.
func (b *tab) waitText(selector string, parts ...string) {
	b.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		got := ""
		if s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(
			`document.readyState !== "complete" ? "" : (document.querySelector(%q) || {innerText: ""}).innerText`, selector))); err == nil {
			got = strings.Join(strings.Fields(s), " ")
		}
		missing := ""
		for _, p := range parts {
			if !strings.Contains(got, p) {
				missing = p
				break
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("%q shows %q, want %q (at %s)", selector, got, missing, b.location())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// pressEnter presses Enter in the focused element the way a real keyboard does: a single keydown that
// carries the text, so that a page's preventDefault cancels all of it. chromedp's KeyEvent alone would
// send the text in a separate char event, which still triggers implicit form submission.
func pressEnter() chromedp.Action[chromedp.Void] {
	return chromedp.KeyEvent("\r", func(p *input.DispatchKeyEventParams) {
		switch p.Type {
		case input.DispatchKeyEventTypeKeyDown:
			p.Text, p.UnmodifiedText = "\r", "\r"
		case input.DispatchKeyEventTypeChar:
			p.Modifiers |= int64(chromedp.ModifierAlt) // KeyEvent skips char events with Alt; the keydown has the text
		}
	})
}

// attrOf returns an attribute of the first element that matches selector, or "" if there is none.
func (b *tab) attrOf(selector, name string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(
		`((e) => e ? (e.getAttribute(%q) || "") : "")(document.querySelector(%q))`, name, selector)))
	if err != nil {
		b.t.Fatalf("attribute %s of %q: %v", name, selector, err)
	}
	return v
}

// axeViolation is what axe-core reports for one rule.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any  `json:"target"`
		HTML   string `json:"html"`
	} `json:"nodes"`
}

// axe runs axe-core's WCAG 2.x A and AA rules on the page as it is now. Serious and critical violations
// fail the test; lesser ones are logged.
func (b *tab) axe(name string) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](axeScript+";true")); err != nil {
		b.t.Fatalf("load axe-core: %v", err)
	}
	raw, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`axe.run(document, {
		runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]},
		resultTypes: ["violations"]
	}).then(r => JSON.stringify(r.violations))`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("axe on %s: %v", name, err)
	}
	var vs []axeViolation
	if err := json.Unmarshal([]byte(raw), &vs); err != nil {
		b.t.Fatalf("axe result: %v", err)
	}
	for _, v := range vs {
		where := make([]string, 0, len(v.Nodes))
		for _, n := range v.Nodes {
			where = append(where, n.HTML)
		}
		msg := fmt.Sprintf("axe on %s: %s (%s): %s — %s", name, v.ID, v.Impact, v.Help, strings.Join(where, " | "))
		if v.Impact == "serious" || v.Impact == "critical" {
			b.t.Error(msg)
		} else {
			b.t.Log(msg)
		}
	}
}

// screenshot saves the whole page as testdata/screens/name.png.
func (b *tab) screenshot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	dir := filepath.Join("testdata", "screens")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// check runs axe on the page, then saves a screenshot.
func (b *tab) check(name string) {
	b.t.Helper()
	b.axe(name)
	b.screenshot(name)
}
