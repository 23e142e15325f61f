package main

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// dbCheck is what the database says after a run.
type dbCheck struct {
	// OverlappingPairs counts the pairs of blocking bookings (WAITING_APPROVAL, PENDING, ACTIVE) of one
	// resource whose times overlap: double bookings. Overlaps shows a few.
	OverlappingPairs int      `json:"overlapping_pairs"`
	Overlaps         []string `json:"overlaps,omitempty"`
	// Answered201 counts the bookings the run was answered 201 for, Found201 those of them in the database.
	Answered201 int      `json:"answered_201"`
	Found201    int      `json:"found_201"`
	Missing     []string `json:"missing,omitempty"`
	Seconds     float64  `json:"seconds"`
	OK          bool     `json:"ok"`
	Failures    []string `json:"-"`
}

// overlapQuery finds every pair of blocking bookings of one resource of organization $1 whose times
// overlap, each pair once. The scenarios book in organization 0 only.
// Joining a million bookings with themselves on && alone would probe the index once per booking. So a
// window function first marks the bookings that start before some earlier booking of the same resource
// has ended. Only a booking so marked can be the later half of an overlapping pair, and the join then
// looks only at those.
const overlapQuery = `
WITH blocking AS MATERIALIZED (
    SELECT organization_id, resource_id, id, start_date, end_date,
           max(end_date) OVER (PARTITION BY organization_id, resource_id ORDER BY start_date, id
                               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS latest_end_before
    FROM bookings
    WHERE organization_id = $1 AND status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
), pairs AS (
    SELECT b.resource_id, a.id AS first_id, b.id AS second_id
    FROM blocking b
    JOIN blocking a ON a.organization_id = b.organization_id AND a.resource_id = b.resource_id
     AND (a.start_date, a.id) < (b.start_date, b.id)
     AND tstzrange(a.start_date, a.end_date, '[)') && tstzrange(b.start_date, b.end_date, '[)')
    WHERE b.latest_end_before > b.start_date
)
SELECT count(*), COALESCE((array_agg(format('resource %s: bookings %s and %s', resource_id, first_id, second_id)))[1:5], '{}')
FROM pairs`

// checkDatabase proves that no two blocking bookings of one resource overlap, and that every booking
// answered 201 (ids) is in the database.
func checkDatabase(ctx context.Context, pool *pgxpool.Pool, ids []string) (dbCheck, error) {
	start := time.Now()
	c := dbCheck{Answered201: len(ids)}
	uids := make([]uuid.UUID, 0, len(ids))
	seen := make(map[uuid.UUID]bool, len(ids))
	for _, id := range ids {
		u, err := uuid.Parse(id)
		if err != nil {
			c.Failures = append(c.Failures, fmt.Sprintf("a 201 answer named booking %q, not an id", id))
			continue
		}
		if seen[u] {
			c.Failures = append(c.Failures, fmt.Sprintf("two 201 answers named booking %s", u))
			continue
		}
		seen[u] = true
		uids = append(uids, u)
	}
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		// The window sorts every blocking booking: in memory rather than on disk.
		if _, err := tx.Exec(ctx, `SET LOCAL work_mem = '256MB'`); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, overlapQuery, orgID).Scan(&c.OverlappingPairs, &c.Overlaps); err != nil {
			return fmt.Errorf("overlap check: %w", err)
		}
		return tx.QueryRow(ctx, `
			SELECT count(*) FILTER (WHERE found), COALESCE((array_agg(id::text) FILTER (WHERE NOT found))[1:5], '{}')
			FROM (SELECT x.id, EXISTS (SELECT 1 FROM bookings b WHERE b.organization_id = $1 AND b.id = x.id) AS found
			      FROM unnest($2::uuid[]) AS x (id)) s`, orgID, uids).Scan(&c.Found201, &c.Missing)
	})
	if err != nil {
		return c, fmt.Errorf("check the database: %w", err)
	}
	if c.OverlappingPairs > 0 {
		c.Failures = append(c.Failures, fmt.Sprintf("%d pairs of blocking bookings overlap (double bookings), e.g. %s", c.OverlappingPairs, c.Overlaps[0]))
	}
	if c.Found201 != c.Answered201 {
		c.Failures = append(c.Failures, fmt.Sprintf("%d of %d bookings answered 201 are not in the database", c.Answered201-c.Found201, c.Answered201))
	}
	c.Seconds = time.Since(start).Seconds()
	c.OK = len(c.Failures) == 0
	return c, nil
}
