-- A match run keeps the answer it gave (about 10 KB) as the text it was, in json rather than jsonb:
-- nothing queries inside it, and jsonb parsing and pglz compression were most of a match run write.
-- Where the server has lz4 the column is compressed with it (faster than pglz at a similar size),
-- otherwise (PGlite) with the server default. The block body is an E-string whose statement ends are
-- written as \073: the driver adapter splits a migration script at every semicolon it sees.
ALTER TABLE "match_runs" ALTER COLUMN "offers" SET DATA TYPE JSON;

DO E'BEGIN ALTER TABLE match_runs ALTER COLUMN offers SET COMPRESSION lz4\073 EXCEPTION WHEN feature_not_supported THEN NULL\073 END';
