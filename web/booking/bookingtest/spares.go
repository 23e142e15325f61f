package bookingtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/peterldowns/pgtestdb"
)

// Creating a database from the template and dropping it costs the server about a quarter of a second,
// and the tests ask for more than a thousand. So a database whose test passed is emptied and kept for the
// next test of the same process, instead of being dropped.
//
// A database is kept only when it can be put back exactly as it was made: its schema must be unchanged
// (a test that drops a trigger or adds a constraint makes its database unfit, and it is dropped), and the
// rows the migrations left, such as the first signing key, are written back. A test that failed leaves
// its database as it was, for a look afterwards.
//
// Kept databases are named booking_spare_<process>_<n>. The process holds an advisory lock on its number
// for as long as it runs; a later process drops the spares of any process whose lock is free, so that a
// run that was killed leaves nothing behind for long.

// spareLockSpace is the first key of the advisory locks that mark a process's spares as in use.
const spareLockSpace = 7311

var spares struct {
	mu      sync.Mutex
	ready   bool              // the fields below are set
	owner   *pgx.Conn         // holds the lock on process for as long as the process runs
	proc    int32             // this process's number in the spares' names
	next    int               // the number of the next spare's name
	free    []string          // names of emptied databases that no test is using
	shape   string            // the schema's fingerprint, taken on a fresh database
	tables  []string          // every table to empty, quoted
	seqs    []string          // every sequence to restart, quoted
	rows    map[string]string // the rows a fresh database holds, by quoted table name, as JSON
	broken  bool              // keeping spares failed once: drop every database instead
	userURL string            // the URL of a fresh database, as the tests connect to it
}

// keptOrNew returns the URL of a migrated, empty database for t: a spare when there is one, or else a new
// one. The database goes back to the spares when t passes, if it can.
func keptOrNew(t testing.TB, conf pgtestdb.Config) string {
	t.Helper()
	admin := serverConfig(conf)
	spares.mu.Lock()
	ready := spares.ready && !spares.broken
	var name string
	if ready && len(spares.free) > 0 {
		name = spares.free[len(spares.free)-1]
		spares.free = spares.free[:len(spares.free)-1]
	}
	spares.mu.Unlock()

	var dbURL string
	if name != "" {
		dbURL = withDatabase(spares.userURL, name)
	} else {
		made := pgtestdb.Custom(noCleanup{t}, conf, migrator{})
		dbURL = made.URL()
		name = made.Database
		if err := learnShape(admin, dbURL); err != nil {
			t.Logf("keeping test databases is off: %v", err)
		}
	}
	t.Cleanup(func() { giveBack(t, admin, dbURL, name) })
	return dbURL
}

// noCleanup is the test as pgtestdb sees it, without its clean-up: keptOrNew decides what becomes of the
// database.
type noCleanup struct{ testing.TB }

func (noCleanup) Cleanup(func()) {}

// serverConfig is the URL of the server's postgres database as the configured user, who may empty
// tables with their triggers off.
func serverConfig(conf pgtestdb.Config) string {
	u := url.URL{Scheme: "postgres", Host: conf.Host + ":" + conf.Port, Path: "/postgres", RawQuery: conf.Options}
	if conf.Password != "" {
		u.User = url.UserPassword(conf.User, conf.Password)
	} else {
		u.User = url.User(conf.User)
	}
	return u.String()
}

// withDatabase returns rawURL naming database instead.
func withDatabase(rawURL, database string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return rawURL
	}
	u.Path = "/" + database
	return u.String()
}

// learnShape reads, once per process, what a fresh database looks like: its schema's fingerprint, its
// tables and sequences, and the rows the migrations left in it. It also takes this process's lock and
// drops the spares that earlier processes left behind.
func learnShape(admin, dbURL string) error {
	spares.mu.Lock()
	defer spares.mu.Unlock()
	if spares.ready || spares.broken {
		return nil
	}
	err := func() error {
		ctx := context.Background()
		owner, err := pgx.Connect(ctx, admin)
		if err != nil {
			return err
		}
		spares.owner = owner // closed when the process ends
		if !isSuperuser(ctx, owner) {
			return fmt.Errorf("the test user is not a superuser, who alone may empty tables with their triggers off")
		}
		spares.proc = rand.Int32N(1 << 30)
		if _, err := owner.Exec(ctx, "SELECT pg_advisory_lock($1, $2)", spareLockSpace, spares.proc); err != nil {
			return err
		}
		dropAbandoned(ctx, owner)

		db, err := pgx.Connect(ctx, withDatabase(admin, databaseOf(dbURL)))
		if err != nil {
			return err
		}
		defer db.Close(ctx)
		if spares.shape, err = fingerprint(ctx, db); err != nil {
			return err
		}
		if err := db.QueryRow(ctx, `SELECT coalesce(array_agg(format('%I', relname) ORDER BY relname), '{}')
			FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p') AND NOT relispartition
			AND relname <> 'schema_version'`).Scan(&spares.tables); err != nil {
			return err
		}
		if err := db.QueryRow(ctx, `SELECT coalesce(array_agg(format('%I', relname) ORDER BY relname), '{}')
			FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'S'`).Scan(&spares.seqs); err != nil {
			return err
		}
		spares.rows = map[string]string{}
		for _, table := range spares.tables {
			var rows *string
			if err := db.QueryRow(ctx, "SELECT json_agg(t)::text FROM "+table+" t").Scan(&rows); err != nil {
				return err
			}
			if rows != nil {
				spares.rows[table] = *rows
			}
		}
		spares.userURL = dbURL
		spares.ready = true
		return nil
	}()
	if err != nil {
		spares.broken = true
	}
	return err
}

func isSuperuser(ctx context.Context, c *pgx.Conn) bool {
	var on string
	return c.QueryRow(ctx, "SHOW is_superuser").Scan(&on) == nil && on == "on"
}

// dropAbandoned drops the spares of processes that no longer hold their lock.
func dropAbandoned(ctx context.Context, owner *pgx.Conn) {
	rows, err := owner.Query(ctx, "SELECT datname FROM pg_database WHERE datname LIKE 'booking\\_spare\\_%'")
	if err != nil {
		return
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return
	}
	for _, name := range names {
		parts := strings.Split(name, "_") // booking, spare, process, n
		if len(parts) != 4 {
			continue
		}
		proc, err := strconv.ParseInt(parts[2], 10, 32)
		if err != nil || int32(proc) == spares.proc {
			continue
		}
		var free bool
		if owner.QueryRow(ctx, "SELECT pg_try_advisory_lock($1, $2)", spareLockSpace, int32(proc)).Scan(&free) != nil || !free {
			continue
		}
		_, _ = owner.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
		_, _ = owner.Exec(ctx, "SELECT pg_advisory_unlock($1, $2)", spareLockSpace, int32(proc))
	}
}

// fingerprint sums up the database's schema: its relations, columns, defaults, constraints, triggers
// (and whether they are enabled), functions, schemas, extensions and settings. A test that changes any
// of them changes the fingerprint.
func fingerprint(ctx context.Context, db *pgx.Conn) (string, error) {
	var sum string
	err := db.QueryRow(ctx, `SELECT md5(string_agg(x, ',' ORDER BY x)) FROM (
		SELECT concat_ws(' ', 'c', c.oid, c.relkind, c.relnatts) FROM pg_class c
			JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND n.nspname NOT LIKE 'pg\_%temp\_%'
		UNION ALL SELECT concat_ws(' ', 'a', a.attrelid, a.attnum, a.attnotnull, a.atthasdef, a.attisdropped, a.atttypid)
			FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relnamespace = 'public'::regnamespace
		UNION ALL SELECT 'd' || oid FROM pg_attrdef
		UNION ALL SELECT concat_ws(' ', 'k', oid, convalidated) FROM pg_constraint
		UNION ALL SELECT concat_ws(' ', 't', oid, tgenabled) FROM pg_trigger
		UNION ALL SELECT concat_ws(' ', 'i', indexrelid, indisvalid) FROM pg_index
		UNION ALL SELECT 'p' || p.oid FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
			WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
		UNION ALL SELECT 'n' || nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\_%temp\_%'
		UNION ALL SELECT 'x' || extname FROM pg_extension
		UNION ALL SELECT 's' || array_to_string(setconfig, ';') FROM pg_db_role_setting
			WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
		UNION ALL SELECT concat_ws(' ', 'o', datallowconn, datconnlimit) FROM pg_database WHERE datname = current_database()
	) f(x)`).Scan(&sum)
	return sum, err
}

// giveBack empties the database of a test that passed and keeps it as a spare, or drops it when it
// cannot be put back as it was made. A failed test's database is left as it is.
func giveBack(t testing.TB, admin, dbURL, name string) {
	if t.Failed() {
		t.Logf("the database of this test is kept for a look: %s", dbURL)
		return
	}
	ctx := context.Background()
	c, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Errorf("connect to put back database %s: %v", name, err)
		return
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", name); err != nil {
		t.Errorf("end the connections to %s: %v", name, err)
		return
	}
	spares.mu.Lock()
	keep := spares.ready && !spares.broken
	spares.mu.Unlock()
	if keep {
		kept, err := empty(ctx, c, admin, name)
		if err == nil {
			spares.mu.Lock()
			spares.free = append(spares.free, kept)
			spares.mu.Unlock()
			return
		}
		t.Logf("dropping database %s instead of keeping it: %v", name, err)
	}
	if _, err := c.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
		t.Errorf("drop database %s: %v", name, err)
	}
}

// empty puts the database back as it was made, and renames it to a spare's name, which it returns. It
// fails, changing nothing that matters, when the schema is no longer what it was.
func empty(ctx context.Context, admin *pgx.Conn, adminURL, name string) (string, error) {
	err := func() error {
		db, err := pgx.Connect(ctx, withDatabase(adminURL, name))
		if err != nil {
			return err
		}
		defer db.Close(ctx)
		shape, err := fingerprint(ctx, db)
		if err != nil {
			return err
		}
		if shape != spares.shape {
			return fmt.Errorf("the test changed the schema")
		}
		tx, err := db.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(ctx)
		// As a replica applies changes: without triggers, so that foreign keys and append-only tables let
		// the rows go.
		if _, err := tx.Exec(ctx, "SET LOCAL session_replication_role = replica"); err != nil {
			return err
		}
		var b pgx.Batch
		for _, table := range spares.tables {
			b.Queue("DELETE FROM " + table)
		}
		for table, rows := range spares.rows {
			b.Queue("INSERT INTO "+table+" SELECT * FROM json_populate_recordset(NULL::"+table+", $1)", rows)
		}
		for _, seq := range spares.seqs {
			b.Queue("ALTER SEQUENCE " + seq + " RESTART")
		}
		if err := tx.SendBatch(ctx, &b).Close(); err != nil {
			return err
		}
		return tx.Commit(ctx)
	}()
	if err != nil {
		return "", err
	}
	if strings.HasPrefix(name, "booking_spare_") {
		return name, nil
	}
	spares.mu.Lock()
	kept := "booking_spare_" + strconv.Itoa(int(spares.proc)) + "_" + strconv.Itoa(spares.next)
	spares.next++
	spares.mu.Unlock()
	if _, err := admin.Exec(ctx, "ALTER DATABASE "+pgx.Identifier{name}.Sanitize()+" RENAME TO "+pgx.Identifier{kept}.Sanitize()); err != nil {
		return "", err
	}
	return kept, nil
}

// databaseOf returns the database a URL names.
func databaseOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(u.Path, "/")
}
