-- The size of a floor's plan in the units its desks are placed in: a PNG's or JPEG's pixels, an SVG's
-- viewBox (else its width and height). The employees' floor plan and the admins' plan editor both draw
-- the floor in this coordinate system, so that a plan sits under its desks the same way in both. NULL
-- for a plan stored before sizes were kept, until the service measures it the first time it is drawn.
ALTER TABLE floor_plans
    ADD COLUMN width  integer,
    ADD COLUMN height integer,
    ADD CONSTRAINT floor_plans_dimensions_check CHECK (
        (width IS NULL) = (height IS NULL) AND width BETWEEN 1 AND 100000 AND height BETWEEN 1 AND 100000
    );
