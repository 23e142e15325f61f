package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"time"

	"github.com/alexedwards/scs/pgxstore"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
)

// demoEmployee finds the employee in what `booking demo` prints: "  employee  Name Surname <email>  id".
var demoEmployee = regexp.MustCompile(`(?m)^\s+employee\s.*\s([0-9a-f-]{36})\s*$`)

// prepareDemo recreates the demo database and loads the demo office into it, as `make run` does, so
// that the pages can be weighed on it too.
func prepareDemo(ctx context.Context, b *benchRun) error {
	fmt.Fprintf(b.stdout, "bench: recreating database %s for the demo office\n", b.o.DemoDatabase)
	if err := recreate(ctx, b.o.ServerURL, b.o.DemoDatabase); err != nil {
		return err
	}
	dbURL, err := withDatabase(b.o.ServerURL, b.o.DemoDatabase)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	demo := exec.CommandContext(ctx, "bin/booking", "demo")
	demo.Env = append(os.Environ(), "DATABASE_URL="+dbURL)
	demo.Stdout, demo.Stderr = &out, b.stderr
	if err := demo.Run(); err != nil {
		return fmt.Errorf("bin/booking demo: %w", err)
	}
	m := demoEmployee.FindSubmatch(out.Bytes())
	if m == nil {
		return fmt.Errorf("bin/booking demo named no employee:\n%s", out.String())
	}
	b.demoURL, b.demoEmployee = dbURL, uuid.MustParse(string(m[1]))
	return nil
}

// weighPages weighs /find and the plan after the first run of pages: on the synthetic data, as one of
// the people the run opened them as, then on the demo office, served by a server of its own.
func weighPages(ctx context.Context, b *benchRun, run int) error {
	if run != 1 {
		return nil
	}
	hc := &http.Client{Timeout: 30 * time.Second}
	defer hc.CloseIdleConnections()
	set := b.sets[0]
	for _, path := range []string{set.world.pages.find, set.world.pages.plan} {
		w, err := weigh(ctx, hc, set.srv.base, set.world.cookies[0], "synthetic", path)
		if err != nil {
			return err
		}
		b.rep.Weights = append(b.rep.Weights, w)
	}
	if b.demoURL == "" {
		return nil
	}
	srv, err := startServer(ctx, b.demoURL, filepath.Join(b.resultsDir, "demo-server.log"), b.stdout, nil)
	if err != nil {
		return err
	}
	defer srv.stop()
	pool, err := openPool(ctx, b.demoURL, 2)
	if err != nil {
		return err
	}
	defer pool.Close()
	// The floor of the demo office with the most resources, in its building.
	var org, building, floor uuid.UUID
	if err := pool.QueryRow(ctx, `
		SELECT f.organization_id, f.building_id, f.id FROM users u
		JOIN floors f ON f.organization_id = u.organization_id AND f.visible
		JOIN resources r ON r.organization_id = f.organization_id AND r.floor_id = f.id AND r.visible
		WHERE u.id = $1
		GROUP BY f.organization_id, f.building_id, f.id ORDER BY count(*) DESC, f.id LIMIT 1`, b.demoEmployee).Scan(&org, &building, &floor); err != nil {
		return fmt.Errorf("the demo office's floor: %w", err)
	}
	token, err := web.StartSession(ctx, pgxstore.NewWithCleanupInterval(pool, 0), org, b.demoEmployee)
	if err != nil {
		return err
	}
	q := url.Values{"building": {building.String()}, "kind": {"desk"}, "date": {time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly)},
		"from": {pageFrom}, "to": {pageTo}}
	find := "/find?" + q.Encode()
	q.Set("floor", floor.String())
	for _, path := range []string{find, "/find/plan?" + q.Encode()} {
		w, err := weigh(ctx, hc, srv.base, web.SessionCookie+"="+token, "demo", path)
		if err != nil {
			return err
		}
		b.rep.Weights = append(b.rep.Weights, w)
	}
	if err := srv.stop(); err != nil {
		return fmt.Errorf("stop the demo office's server: %w", err)
	}
	return os.Remove(srv.logPath)
}
