-- The contact e-mail of a service (reservable): who looks after it, as features already have. '' is none.
ALTER TABLE reservables ADD COLUMN email text NOT NULL DEFAULT '';
