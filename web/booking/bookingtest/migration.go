package bookingtest

import (
	"context"
	"io/fs"
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
	"github.com/workspacebooking/booking/web/layoutimport"
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

// laterColumn is a column the import writes that a migration added after the first schema.
type laterColumn struct {
	version       int32 // the migration that adds it
	table, column string
	definition    string
}

// laterColumns are the columns the import writes that a later migration added, defined as it defines them.
var laterColumns = []laterColumn{
	{16, "reservables", "email", "text NOT NULL DEFAULT ''"},
}

// laterTable is a table the import reads (its check of object ids) that a migration added after the
// first schema; during the import of an older schema it stands empty, with the columns read.
type laterTable struct {
	version int32 // the migration that adds it
	table   string
}

// laterTables are the tables the import reads that a later migration added.
var laterTables = []laterTable{{12, "closures"}, {14, "scim_tokens"}}

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
	// Today's import writes columns that older schemas lack: they are there during the import only, so
	// that the database is at d.Version exactly when the test starts.
	var added []laterColumn
	for _, c := range laterColumns {
		if d.Version < c.version {
			added = append(added, c)
		}
	}
	for _, c := range added {
		if _, err := d.Conn.Exec(t.Context(), "ALTER TABLE "+c.table+" ADD COLUMN "+c.column+" "+c.definition); err != nil {
			t.Fatalf("add %s.%s for the fixture: %v", c.table, c.column, err)
		}
	}
	var tables []string
	for _, lt := range laterTables {
		if d.Version < lt.version {
			tables = append(tables, lt.table)
		}
	}
	for _, table := range tables {
		if _, err := d.Conn.Exec(t.Context(), "CREATE TABLE "+table+" (organization_id uuid, id uuid)"); err != nil {
			t.Fatalf("add table %s for the fixture: %v", table, err)
		}
	}
	if _, err := layoutimport.Import(t.Context(), booking.NewService(pool), Layout()); err != nil {
		t.Fatalf("import the fixture at version %d: %v", d.Version, err)
	}
	for _, table := range tables {
		if _, err := d.Conn.Exec(t.Context(), "DROP TABLE "+table); err != nil {
			t.Fatalf("drop table %s after the fixture: %v", table, err)
		}
	}
	for _, c := range added {
		if _, err := d.Conn.Exec(t.Context(), "ALTER TABLE "+c.table+" DROP COLUMN "+c.column); err != nil {
			t.Fatalf("drop %s.%s after the fixture: %v", c.table, c.column, err)
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
