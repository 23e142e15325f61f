-- Number 0030 belongs to a migration made beside this one; this empty file keeps the numbers
-- continuous until both are together, and goes away then.
SELECT 1;
