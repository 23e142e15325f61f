-- Names sort as people read them: "Desk 2" before "Desk 10", and "desk" beside "Desk". The ICU
-- collation compares runs of digits as numbers; the queries that list buildings, floors, resources, kinds
-- of space, features, services and people by name order by it.
CREATE COLLATION natural_names (provider = icu, locale = 'und-u-kn-true');
