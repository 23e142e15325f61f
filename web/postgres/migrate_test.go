package postgres_test

import (
	"context"
	"io/fs"
	"net/url"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	schema "github.com/workspacebooking/booking/sql"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/postgres"
)

func TestMigrate(t *testing.T) {
	t.Parallel()
	files, err := fs.Glob(schema.Migrations, "*.sql")
	if err != nil {
		t.Fatalf("list migrations: %v", err)
	}
	if len(files) == 0 {
		t.Fatalf("no migrations embedded")
	}

	t.Run("ConcurrentOnEmptyDatabase", func(t *testing.T) {
		t.Parallel()
		dbURL := bookingtest.NewEmptyDatabaseURL(t)
		const n = 4
		start := make(chan struct{})
		applied := make([]int, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				applied[i], errs[i] = postgres.Migrate(t.Context(), dbURL)
			}()
		}
		close(start)
		wg.Wait()
		total := 0
		for i, err := range errs {
			if err != nil {
				t.Errorf("Migrate %d: %v", i, err)
			}
			total += applied[i]
		}
		// Exactly one of the instances applies each migration, ours and River's.
		if got, want := total, len(files)+riverMigrations(t); got != want {
			t.Errorf("migrations applied in all = %d (%v), want %d", got, applied, want)
		}

		conn, err := pgx.Connect(t.Context(), dbURL)
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		defer conn.Close(context.Background())
		var version, keys int
		if err := conn.QueryRow(t.Context(), "SELECT version FROM schema_version").Scan(&version); err != nil {
			t.Fatalf("read schema_version: %v", err)
		}
		if got, want := version, len(files); got != want {
			t.Errorf("schema_version = %d, want %d", got, want)
		}
		if got, want := version, 31; got != want {
			t.Errorf("schema_version = %d, want %d (the migrations of today)", got, want)
		}
		if err := conn.QueryRow(t.Context(), "SELECT count(*) FROM signing_keys").Scan(&keys); err != nil {
			t.Fatalf("count signing keys: %v", err)
		}
		if got, want := keys, 1; got != want {
			t.Errorf("signing_keys = %d rows, want %d", got, want)
		}

		again, err := postgres.Migrate(t.Context(), dbURL)
		if err != nil {
			t.Fatalf("Migrate again: %v", err)
		}
		if got, want := again, 0; got != want {
			t.Errorf("Migrate again applied %d, want %d", got, want)
		}
		if err := conn.QueryRow(t.Context(), "SELECT count(*) FROM signing_keys").Scan(&keys); err != nil {
			t.Fatalf("count signing keys: %v", err)
		}
		if got, want := keys, 1; got != want {
			t.Errorf("signing_keys after a second run = %d rows, want %d", got, want)
		}
	})

	t.Run("CreatesMissingDatabase", func(t *testing.T) {
		t.Parallel()
		dbURL := bookingtest.NewEmptyDatabaseURL(t)
		// Drop the database so that Migrate has to create it. The cleanup drops it with IF EXISTS.
		u, _ := url.Parse(dbURL)
		name := u.Path[1:]
		admin, err := pgx.Connect(t.Context(), bookingtest.ServerURL())
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		defer admin.Close(context.Background())
		if _, err := admin.Exec(t.Context(), "DROP DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
			t.Fatalf("drop database: %v", err)
		}
		got, err := postgres.Migrate(t.Context(), dbURL)
		if err != nil {
			t.Fatalf("Migrate: %v", err)
		}
		if want := len(files) + riverMigrations(t); got != want {
			t.Errorf("applied = %d, want %d", got, want)
		}
		var exists bool
		if err := admin.QueryRow(t.Context(), "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
			t.Fatalf("look for database: %v", err)
		}
		if !exists {
			t.Errorf("database %s was not created", name)
		}
	})

	t.Run("ServiceReadsSigningKey", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		keys, err := b.Identity().SigningKeys(t.Context())
		if err != nil {
			t.Fatalf("SigningKeys: %v", err)
		}
		if got, want := len(keys), 1; got != want {
			t.Fatalf("keys = %d, want %d", got, want)
		}
		if keys[0].Key == nil || keys[0].ID == uuid.Nil {
			t.Errorf("key = %+v, want an id and a key", keys[0])
		}
		if _, err := b.Pool.Exec(t.Context(), "DELETE FROM signing_keys"); err != nil {
			t.Fatalf("delete keys: %v", err)
		}
		if _, err := b.Identity().SigningKeys(t.Context()); err == nil {
			t.Errorf("SigningKeys without keys: err = nil, want an error")
		}
	})
}

// riverMigrations returns the number of River's own migrations, which Migrate applies after ours.
func riverMigrations(t *testing.T) int {
	m, err := rivermigrate.New(riverpgxv5.New(nil), nil)
	if err != nil {
		t.Fatalf("rivermigrate: %v", err)
	}
	return len(m.AllVersions())
}
