package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// PrepareConn registers a codec on a new connection (pgxpool.Config.AfterConnect) so that uuid.UUID
// values are sent in PostgreSQL's 16-byte binary form. Without it, pgx converts each id to and from its
// 36-character text form.
func PrepareConn(_ context.Context, conn *pgx.Conn) error {
	m := conn.TypeMap()
	id := &pgtype.Type{Name: "uuid", OID: pgtype.UUIDOID, Codec: uuidCodec{}}
	m.RegisterType(id)
	m.RegisterType(&pgtype.Type{Name: "_uuid", OID: pgtype.UUIDArrayOID, Codec: &pgtype.ArrayCodec{ElementType: id}})
	return nil
}

// uuidCodec is pgx's uuid codec, extended with binary encode and decode plans for uuid.UUID.
type uuidCodec struct{ pgtype.UUIDCodec }

func (c uuidCodec) PlanEncode(m *pgtype.Map, oid uint32, format int16, value any) pgtype.EncodePlan {
	if _, ok := value.(uuid.UUID); ok && format == pgtype.BinaryFormatCode {
		return encodeUUID{}
	}
	return c.UUIDCodec.PlanEncode(m, oid, format, value)
}

func (c uuidCodec) PlanScan(m *pgtype.Map, oid uint32, format int16, target any) pgtype.ScanPlan {
	if _, ok := target.(*uuid.UUID); ok && format == pgtype.BinaryFormatCode {
		return scanUUID{}
	}
	return c.UUIDCodec.PlanScan(m, oid, format, target)
}

type encodeUUID struct{}

func (encodeUUID) Encode(value any, buf []byte) ([]byte, error) {
	u := value.(uuid.UUID)
	return append(buf, u[:]...), nil
}

type scanUUID struct{}

func (scanUUID) Scan(src []byte, dst any) error {
	if src == nil {
		return errors.New("cannot scan NULL into *uuid.UUID")
	}
	if len(src) != len(uuid.UUID{}) {
		return fmt.Errorf("uuid: %d bytes, want 16", len(src))
	}
	copy(dst.(*uuid.UUID)[:], src)
	return nil
}
