-- sqlite_reopen.sql -- fuzz/real_libs.py's second SQLite run, on the
-- database file the first left (its WAL not checkpointed): the data, the
-- indexes, FTS5 and R*Tree as the first run left them, more changes, a
-- checkpoint, VACUUM and a last integrity check.
.headers on
.mode list
.nullvalue NULL
PRAGMA journal_mode;
PRAGMA foreign_keys=ON;
PRAGMA integrity_check;
SELECT count(*), sum(salary), max(id), total(bonus) FROM emp;
SELECT what, count(*) FROM audit GROUP BY what ORDER BY what;
SELECT count(*) FROM docs WHERE docs MATCH 'fox OR wolf';
SELECT rowid, title FROM docs WHERE docs MATCH 'seventh' ORDER BY rank LIMIT 3;
SELECT count(*) FROM boxes WHERE minx >= 100 AND maxx <= 400;
SELECT k, v FROM kv WHERE k IN ('key7', 'ret');
BEGIN IMMEDIATE;
UPDATE emp SET salary = salary * 1.01 WHERE dept BETWEEN 10 AND 12;
INSERT INTO docs(rowid, title, body) VALUES (1001, 'late', 'a red fox reopened the database');
INSERT INTO boxes VALUES (5001, 0, 1, 0, 1);
COMMIT;
SELECT count(*) FROM audit WHERE what = 'raise';
SELECT rowid, highlight(docs, 1, '*', '*') FROM docs WHERE docs MATCH 'reopened';
PRAGMA wal_checkpoint(TRUNCATE);
VACUUM;
SELECT dept, rank() OVER (ORDER BY sum(salary) DESC), round(sum(salary), 2) FROM emp GROUP BY dept ORDER BY 2 LIMIT 5;
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x * 2 FROM c WHERE x < 1e18) SELECT count(*), max(x) FROM c;
PRAGMA integrity_check;
INSERT INTO docs(docs) VALUES ('integrity-check');
SELECT rtreecheck('boxes');
PRAGMA page_count;
