-- sqlite_create.sql -- fuzz/real_libs.py's first SQLite run, fed to the
-- shell on stdin against a new database file: WAL mode (left uncheckpointed
-- on close, so that the second run recovers it), tables, indexes, triggers,
-- views, recursive CTEs, window and JSON functions, transactions rolled back,
-- savepoints, UPSERT and RETURNING, FTS5 and R*Tree.  The errors provoked
-- on purpose (constraints, STRICT) go to stderr, which is compared too.
.headers on
.mode list
.nullvalue NULL
.dbconfig no_ckpt_on_close on
PRAGMA journal_mode=WAL;
PRAGMA foreign_keys=ON;
PRAGMA wal_autocheckpoint=0;

CREATE TABLE dept(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, parent INTEGER REFERENCES dept(id));
CREATE TABLE emp(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  dept INTEGER NOT NULL REFERENCES dept(id) ON DELETE CASCADE,
  salary REAL CHECK (salary > 0),
  hired TEXT,
  tags TEXT DEFAULT '[]',
  bonus REAL GENERATED ALWAYS AS (round(salary * 0.1, 2)) VIRTUAL
);
CREATE TABLE audit(seq INTEGER PRIMARY KEY AUTOINCREMENT, what TEXT, emp INTEGER, detail TEXT);
CREATE TABLE kv(k TEXT PRIMARY KEY, v ANY, n INTEGER) WITHOUT ROWID;
CREATE TABLE typed(i INTEGER, r REAL, t TEXT, b BLOB) STRICT;

CREATE TRIGGER emp_ins AFTER INSERT ON emp
  WHEN new.salary > 90000
  BEGIN INSERT INTO audit(what, emp, detail) VALUES ('rich hire', new.id, new.name || ' ' || new.salary); END;
CREATE TRIGGER emp_raise AFTER UPDATE OF salary ON emp
  WHEN new.salary <> old.salary
  BEGIN INSERT INTO audit(what, emp, detail) VALUES ('raise', new.id, printf('%.2f -> %.2f', old.salary, new.salary)); END;
CREATE TRIGGER emp_del BEFORE DELETE ON emp
  BEGIN INSERT INTO audit(what, emp, detail) VALUES ('gone', old.id, old.name); END;

WITH RECURSIVE d(id, name, parent) AS (
  SELECT 1, 'root', NULL
  UNION ALL
  SELECT id + 1, 'dept' || (id + 1), (id + 1) / 3 + 0 FROM d WHERE id < 40
) INSERT INTO dept SELECT id, name, CASE WHEN parent = 0 THEN 1 ELSE parent END FROM d;
UPDATE dept SET parent = NULL WHERE id = 1;

WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
INSERT INTO emp(id, name, dept, salary, hired, tags)
SELECT i, 'emp' || printf('%04d', i), 1 + (i * 7) % 40, 30000 + (i * 7919) % 70000,
       date('2000-01-01', '+' || (i * 3) || ' days'),
       json_array('t' || (i % 5), i % 3 = 0, i * 1.5)
FROM n;

CREATE INDEX emp_dept ON emp(dept, salary DESC);
CREATE INDEX emp_hired ON emp(substr(hired, 1, 4));
CREATE INDEX emp_rich ON emp(name) WHERE salary > 95000;
CREATE UNIQUE INDEX kv_n ON kv(n);
ANALYZE;

SELECT count(*), sum(salary), min(hired), max(hired), total(bonus) FROM emp;
SELECT count(*) AS audits FROM audit;
SELECT d.name, count(e.id), round(avg(e.salary), 3), max(e.salary) FROM dept d LEFT JOIN emp e ON e.dept = d.id
  GROUP BY d.id HAVING count(e.id) > 70 ORDER BY 3 DESC, 1 LIMIT 8;
SELECT name, salary FROM emp WHERE salary > 95000 ORDER BY name LIMIT 5;
SELECT substr(hired, 1, 4) AS year, count(*) FROM emp WHERE substr(hired, 1, 4) BETWEEN '2005' AND '2009' GROUP BY 1;
EXPLAIN QUERY PLAN SELECT * FROM emp WHERE dept = 3 AND salary > 50000;

-- recursive CTEs
WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT n + 1, b, a + b FROM fib WHERE n < 90)
SELECT n, a FROM fib WHERE n % 15 = 0;
WITH RECURSIVE tree(id, name, depth, path) AS (
  SELECT id, name, 0, name FROM dept WHERE parent IS NULL
  UNION ALL
  SELECT d.id, d.name, t.depth + 1, t.path || '/' || d.name FROM dept d JOIN tree t ON d.parent = t.id
  ORDER BY 3 DESC
) SELECT depth, count(*), max(path) FROM tree GROUP BY depth;
WITH RECURSIVE
  xaxis(x) AS (VALUES(-2.0) UNION ALL SELECT x + 0.05 FROM xaxis WHERE x < 1.2),
  yaxis(y) AS (VALUES(-1.0) UNION ALL SELECT y + 0.1 FROM yaxis WHERE y < 1.0),
  m(iter, cx, cy, x, y) AS (
    SELECT 0, x, y, 0.0, 0.0 FROM xaxis, yaxis
    UNION ALL
    SELECT iter + 1, cx, cy, x * x - y * y + cx, 2.0 * x * y + cy FROM m
     WHERE (x * x + y * y) < 4.0 AND iter < 28),
  m2(iter, cx, cy) AS (SELECT max(iter), cx, cy FROM m GROUP BY cx, cy),
  a(t) AS (SELECT group_concat(substr(' .+*#', 1 + min(iter / 7, 4), 1), '') FROM m2 GROUP BY cy)
SELECT group_concat(rtrim(t), x'0a') FROM a;

-- window functions
SELECT id, dept, salary,
  row_number() OVER w, rank() OVER w, dense_rank() OVER w,
  round(percent_rank() OVER w, 4), round(cume_dist() OVER w, 4), ntile(4) OVER w,
  lag(salary, 1, -1) OVER w, lead(name, 2) OVER w,
  first_value(name) OVER w, nth_value(name, 3) OVER w
FROM emp WHERE dept IN (2, 5) WINDOW w AS (PARTITION BY dept ORDER BY salary DESC, id) ORDER BY dept, 4 LIMIT 30;
SELECT id, salary,
  sum(salary) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS rows_sum,
  sum(salary) OVER (ORDER BY salary RANGE BETWEEN 1000 PRECEDING AND 1000 FOLLOWING) AS range_sum,
  count(*) OVER (ORDER BY dept GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE TIES) AS groups_count,
  max(salary) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW) AS running_max,
  avg(salary) FILTER (WHERE dept % 2 = 0) OVER (PARTITION BY dept % 3) AS filtered_avg,
  group_concat(id, ',') OVER (ORDER BY id ROWS 3 PRECEDING) AS last4
FROM emp WHERE id <= 400 AND id % 9 = 0 ORDER BY id;
SELECT dept, sum(s) OVER (ORDER BY dept) FROM (SELECT dept, sum(salary) AS s FROM emp GROUP BY dept) LIMIT 10;

-- JSON
SELECT json_object('id', id, 'name', name, 'tags', json(tags)) FROM emp WHERE id < 4;
SELECT json_group_array(json_object('d', dept, 'n', n)) FROM (SELECT dept, count(*) AS n FROM emp GROUP BY dept LIMIT 5);
SELECT key, value, type, fullkey FROM json_tree('{"a":[1,2,{"b":null,"c":[true,false]}],"d":{"e":1.5e10,"f":"\u00e9x"}}');
SELECT json_extract(tags, '$[0]'), tags ->> '$[2]', tags -> 1, json_type(tags, '$[1]') FROM emp WHERE id IN (3, 10, 2999);
SELECT json_patch('{"a":1,"b":{"c":2}}', '{"b":{"c":null,"d":[3]},"e":4}'), json_remove('[0,1,2,3]', '$[1]', '$[#-1]'),
  json_insert('{"a":1}', '$.b', json('[1,2]')), json_set('{"a":1}', '$.a', 'x'), json_replace('{"a":1}', '$.z', 0),
  json_valid('{"a":'), json_quote('x"y'), json_array_length('[1,[2,3],4]'), json_pretty('{"a":[1,2]}');
SELECT hex(jsonb('{"a":[1,2,3]}')), json(jsonb_set(jsonb('{"a":1}'), '$.b', 2)), jsonb_extract(jsonb('[5,6]'), '$[1]');
SELECT t.value ->> 'n', sum(e.salary) FROM json_each('[{"n":1},{"n":7},{"n":13}]') t JOIN emp e ON e.dept = t.value ->> 'n' GROUP BY 1;
SELECT json_group_object(name, salary) FROM emp WHERE id % 500 = 0;

-- transactions
BEGIN;
DELETE FROM emp WHERE dept = 4;
UPDATE emp SET salary = salary * 2 WHERE dept = 5;
SELECT 'inside', count(*), sum(salary) FROM emp;
ROLLBACK;
SELECT 'after rollback', count(*), sum(salary), (SELECT count(*) FROM audit) FROM emp;
BEGIN;
UPDATE emp SET salary = salary + 1000 WHERE id % 100 = 0;
SAVEPOINT sp1;
DELETE FROM dept WHERE id = 39;
SELECT 'cascade', count(*) FROM emp WHERE dept = 39;
SAVEPOINT sp2;
INSERT INTO emp(id, name, dept, salary) VALUES (9001, 'temp', 1, 100000);
ROLLBACK TO sp2;
RELEASE sp2;
ROLLBACK TO sp1;
RELEASE sp1;
COMMIT;
SELECT 'committed', count(*), sum(salary), (SELECT count(*) FROM audit), (SELECT count(*) FROM emp WHERE dept = 39) FROM emp;
INSERT INTO emp(id, name, dept, salary) VALUES (1, 'dup', 1, 1);
INSERT INTO emp(id, name, dept, salary) VALUES (5000, 'negative', 1, -5);
INSERT INTO emp(id, name, dept, salary) VALUES (5001, 'orphan', 999, 5);
SELECT 'constraints held', count(*) FROM emp WHERE id >= 5000;

-- UPSERT, RETURNING, STRICT, blobs
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
INSERT INTO kv SELECT 'key' || (i % 50), i, i FROM n WHERE true
  ON CONFLICT(k) DO UPDATE SET v = v || ',' || excluded.v, n = kv.n + 1000 * excluded.n;
SELECT k, v, n FROM kv ORDER BY k LIMIT 6;
INSERT INTO kv VALUES ('ret', x'00ff10', -1) RETURNING k, hex(v), typeof(v), n;
UPDATE kv SET n = -n WHERE k LIKE 'key1%' RETURNING k, n;
INSERT INTO typed VALUES (1, 2.5, 'x', x'41'), (2, 3, 'y', zeroblob(4));
INSERT INTO typed VALUES ('not an int', 1, 'z', NULL);
SELECT i, r, typeof(r), t, hex(b), length(b) FROM typed;

-- views, INSTEAD OF triggers, misc functions
CREATE VIEW rich AS SELECT id, name, salary FROM emp WHERE salary > 99000;
CREATE TRIGGER rich_upd INSTEAD OF UPDATE ON rich BEGIN UPDATE emp SET salary = new.salary WHERE id = old.id; END;
UPDATE rich SET salary = salary + 0.5;
SELECT count(*), sum(salary) FROM rich;
SELECT printf('%5.2f|%-6s|%x|%e|%q|%w|%,d', 3.14159, 'ab', 255, 12345.678, 'it''s', 'a"b', 1234567),
  abs(-3), round(2.675, 2), 7 / 2, 7 % 3, 7.0 / 2, cast('12abc' AS INTEGER), cast(1e20 AS INTEGER),
  instr('hello', 'l'), replace('aaa', 'a', 'bc'), upper('straße'), length('héllo'), unicode('é'), char(72, 105),
  hex(zeroblob(3)), quote(x'00'), likely(1), iif(1 < 2, 'y', 'n'),
  coalesce(NULL, NULL, 3), nullif(1, 1), typeof(1e400), -9223372036854775808 - 1, 9223372036854775807 + 1;
SELECT strftime('%Y-%m-%d %H:%M:%f %j %w %s', '2024-02-29 13:14:15.678'), julianday('2000-01-01'),
  date('2024-01-31', '+1 month'), datetime(1700000000, 'unixepoch'), time('12:00', '-90 minutes'),
  unixepoch('2038-01-19 03:14:08'), timediff('2024-03-01', '2023-02-28');
SELECT sqrt(2), pow(2, 0.5), ln(10), log(100), log2(1024), exp(1), pi(), ceil(-1.5), floor(-1.5), trunc(2.7),
  mod(10, 3), sin(1), atan2(1, 2), degrees(pi()), sign(-4);
SELECT total_changes() > 0, changes();
SELECT group_concat(name ORDER BY salary DESC, id), string_agg(id, '-' ORDER BY id DESC) FROM emp WHERE dept = 7 AND id < 300;
SELECT id, name FROM emp WHERE name GLOB 'emp00[1-3]?' ORDER BY id DESC;
SELECT dept, count(*) FROM emp GROUP BY dept INTERSECT SELECT dept, count(*) FROM emp WHERE salary > 0 GROUP BY dept ORDER BY 1 LIMIT 3;
SELECT a.id, b.id FROM emp a JOIN emp b ON a.salary = b.salary AND a.id < b.id ORDER BY 1, 2 LIMIT 5;
SELECT id FROM emp WHERE id IN (SELECT emp FROM audit WHERE what = 'raise') ORDER BY id LIMIT 5;
SELECT (SELECT count(*) FROM emp e2 WHERE e2.dept = e.dept AND e2.salary > e.salary) AS above, id FROM emp e WHERE id < 6;

-- FTS5
CREATE VIRTUAL TABLE docs USING fts5(title, body, tokenize = 'porter unicode61');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
INSERT INTO docs(rowid, title, body) SELECT i, 'title ' || i || CASE WHEN i % 7 = 0 THEN ' seventh' ELSE '' END,
  printf('The %s %s jumps over the %s dog number %d; running runners ran %s.',
         CASE i % 3 WHEN 0 THEN 'quick' WHEN 1 THEN 'slow' ELSE 'lazy' END,
         CASE i % 4 WHEN 0 THEN 'brown fox' WHEN 1 THEN 'red fox' WHEN 2 THEN 'grey wolf' ELSE 'white hare' END,
         CASE i % 5 WHEN 0 THEN 'sleepy' ELSE 'happy' END, i, CASE WHEN i % 11 = 0 THEN 'eleven' ELSE '' END)
FROM n;
SELECT count(*) FROM docs WHERE docs MATCH 'fox';
SELECT rowid, title, round(bm25(docs), 4) FROM docs WHERE docs MATCH 'quick AND (red OR brown) NOT sleepy' ORDER BY bm25(docs), rowid LIMIT 5;
SELECT rowid, highlight(docs, 1, '[', ']') FROM docs WHERE docs MATCH 'run*' AND rowid < 4;
SELECT rowid, snippet(docs, 1, '<', '>', '...', 5) FROM docs WHERE docs MATCH 'NEAR(grey dog, 6) AND eleven';
SELECT rowid FROM docs WHERE docs MATCH 'title:seventh' AND rowid % 2 = 0 ORDER BY rowid DESC LIMIT 4;
SELECT count(*) FROM docs WHERE docs MATCH '"jumps over"';
DELETE FROM docs WHERE rowid % 10 = 0;
UPDATE docs SET body = 'replaced body about a fox' WHERE rowid = 3;
INSERT INTO docs(docs) VALUES ('integrity-check');
SELECT count(*) FROM docs WHERE docs MATCH 'fox';
CREATE VIRTUAL TABLE docs_vocab USING fts5vocab(docs, row);
SELECT term, doc, cnt FROM docs_vocab ORDER BY cnt DESC, term LIMIT 8;

-- R*Tree
CREATE VIRTUAL TABLE boxes USING rtree(id, minx, maxx, miny, maxy);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
INSERT INTO boxes SELECT i, (i * 37) % 1000, (i * 37) % 1000 + 1 + i % 13, (i * 91) % 1000, (i * 91) % 1000 + 1 + i % 7 FROM n;
SELECT count(*) FROM boxes WHERE minx >= 100 AND maxx <= 300 AND miny >= 200 AND maxy <= 400;
SELECT id, minx, maxx, miny, maxy FROM boxes WHERE maxx >= 500 AND minx <= 505 AND maxy >= 500 AND miny <= 520 ORDER BY id;
DELETE FROM boxes WHERE id % 3 = 0;
UPDATE boxes SET maxx = maxx + 50 WHERE id % 5 = 1;
SELECT count(*), sum(maxx - minx) FROM boxes WHERE minx < 50;
SELECT rtreecheck('boxes');
CREATE VIRTUAL TABLE shapes USING geopoly(name);
INSERT INTO shapes(_shape, name) VALUES ('[[0,0],[10,0],[10,10],[0,10],[0,0]]', 'square'), ('[[5,5],[20,5],[12,18],[5,5]]', 'triangle');
SELECT name, geopoly_area(_shape), geopoly_json(geopoly_bbox(_shape)) FROM shapes WHERE geopoly_overlap(_shape, '[[8,8],[9,8],[9,9],[8,8]]');

PRAGMA integrity_check;
PRAGMA foreign_key_check;
SELECT name, type FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name;
PRAGMA journal_mode;
