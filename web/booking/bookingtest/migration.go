package bookingtest

import (
	"context"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/tern/v2/migrate"

	schema "github.com/workspacebooking/booking/sql"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/layout"
)

// BeforeMigration is a new database holding the fixture, migrated up to the version just before one
// migration, so that a test can write the rows that migration must handle and then run it.
type BeforeMigration struct {
	URL      string
	Conn     *pgx.Conn         // a connection of the test's own, closed when the test ends
	Version  int32             // the version the database is at: the migration's number minus one
	Migrator *migrate.Migrator // runs the remaining migrations on Conn

	mu      sync.Mutex
	notices []string
}

// laterSchema is a part of the schema that the import reads or writes and that a migration added after
// the first schema: add makes it, drop removes it.
type laterSchema struct {
	since   int32 // the first version the part can be added to (0: any)
	version int32 // the migration that adds it
	add     string
	drop    string
}

// laterSchemas are the parts of the schema the import uses that later migrations added, defined as they
// define them, or as far as the import uses them.
var laterSchemas = []laterSchema{
	{0, 14, "ALTER TABLE users ADD COLUMN active boolean NOT NULL DEFAULT true", "ALTER TABLE users DROP COLUMN active"},
	{0, 14, "CREATE TABLE organization_email_domains (organization_id uuid, domain text, verified_at timestamptz)",
		"DROP TABLE organization_email_domains"},
	{0, 16, "ALTER TABLE reservables ADD COLUMN email text NOT NULL DEFAULT ''", "ALTER TABLE reservables DROP COLUMN email"},
	// Tables the import's check of object ids reads: empty, with the columns it reads.
	{0, 12, "CREATE TABLE closures (organization_id uuid, id uuid)", "DROP TABLE closures"},
	{0, 14, "CREATE TABLE scim_tokens (organization_id uuid, id uuid)", "DROP TABLE scim_tokens"},
	{0, 19, "ALTER TABLE users ADD COLUMN binds_by_email boolean NOT NULL DEFAULT true", "ALTER TABLE users DROP COLUMN binds_by_email"},
	{14, 19, "ALTER TABLE organization_email_domains ADD COLUMN verified_at timestamptz",
		"ALTER TABLE organization_email_domains DROP COLUMN verified_at"},
}

// MigratedBefore makes a BeforeMigration for the migration whose file name ends with suffix. There must be
// exactly one such file.
func MigratedBefore(t *testing.T, suffix string) *BeforeMigration {
	t.Helper()
	files, err := fs.Glob(schema.Migrations, "*_"+suffix)
	if err != nil || len(files) != 1 {
		t.Fatalf("the migration *_%s: %v %v", suffix, files, err)
	}
	n, err := strconv.Atoi(strings.SplitN(files[0], "_", 2)[0])
	if err != nil {
		t.Fatal(err)
	}
	d := &BeforeMigration{URL: NewEmptyDatabaseURL(t), Version: int32(n) - 1}
	cfg, err := pgx.ParseConfig(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		d.mu.Lock()
		defer d.mu.Unlock()
		d.notices = append(d.notices, n.Message)
	}
	if d.Conn, err = pgx.ConnectConfig(t.Context(), cfg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Conn.Close(context.Background()) })
	if d.Migrator, err = migrate.NewMigrator(t.Context(), d.Conn, "schema_version"); err != nil {
		t.Fatal(err)
	}
	if err := d.Migrator.LoadMigrations(schema.Migrations); err != nil {
		t.Fatal(err)
	}
	if err := d.Migrator.MigrateTo(t.Context(), d.Version); err != nil {
		t.Fatalf("migrate to %d: %v", d.Version, err)
	}
	pool, err := pgxpool.New(t.Context(), d.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	// Today's import uses columns and tables that older schemas lack: they are there during the import
	// only, so that the database is at d.Version exactly when the test starts.
	var added []laterSchema
	for _, c := range laterSchemas {
		if c.since <= d.Version && d.Version < c.version {
			added = append(added, c)
		}
	}
	for _, c := range added {
		if _, err := d.Conn.Exec(t.Context(), c.add); err != nil {
			t.Fatalf("%s for the fixture: %v", c.add, err)
		}
	}
	if _, err := layout.New(pool, booking.NewService(pool)).Import(t.Context(), Layout()); err != nil {
		t.Fatalf("import the fixture at version %d: %v", d.Version, err)
	}
	for _, c := range slices.Backward(added) {
		if _, err := d.Conn.Exec(t.Context(), c.drop); err != nil {
			t.Fatalf("%s after the fixture: %v", c.drop, err)
		}
	}
	return d
}

// Notices returns the messages of the notices the database sent on Conn so far.
func (d *BeforeMigration) Notices() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.notices...)
}
