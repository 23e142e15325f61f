package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/workspacebooking/booking/cmd/internal/cli"
	"github.com/workspacebooking/booking/web/layout"
)

// importLayout loads a layout document, all or nothing, and prints what it created or updated.
func importLayout(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	c := cli.NewCommand("import", `usage: booking import FILE.json

Loads a layout document into the database of DATABASE_URL, all or nothing; importing again updates every
object in place by id.`, "FILE.json")
	args, err := c.Parse(args, stdout, stderr)
	if err != nil {
		return err
	}
	dbURL, err := dbURLFrom(getenv)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	l, err := layout.DecodeLayout(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: not a layout document: %w", args[0], err)
	}
	pool, svc, err := open(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	sum, err := layout.New(pool, svc).Import(ctx, l)
	if err != nil {
		return fmt.Errorf("%s: nothing imported: %w", args[0], err)
	}
	fmt.Fprintf(stdout, "imported %s: %s\n", args[0], summary(sum))
	return nil
}

// summary writes an import's counts as "2 buildings, 14 resources", leaving out the zeros.
func summary(sum layout.ImportSummary) string {
	keys := make([]string, 0, len(sum))
	for k, n := range sum {
		if n > 0 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", sum[k], k)
	}
	return strings.Join(parts, ", ")
}
