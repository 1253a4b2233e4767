-- Synthetic version-0 history database: the prototype layout before schema_version existed
-- (runs and requests keyed by run uuid). tst_schema migrates it to the current schema.
CREATE TABLE runs(uuid TEXT PRIMARY KEY, started_utc TEXT, status TEXT, campaign_json TEXT);
CREATE TABLE requests(run_uuid TEXT NOT NULL, seq INTEGER NOT NULL, ttft_us INTEGER, e2e_us INTEGER,
                      n_out INTEGER, error TEXT);
INSERT INTO runs VALUES('0a1b2c3d-0000-4000-8000-000000000001', '2025-01-02T03:04:05.000Z', 'completed',
                        '{"name":"proto","models":["m"]}');
INSERT INTO runs VALUES('0a1b2c3d-0000-4000-8000-000000000002', '2025-01-03T03:04:05.000Z', 'running', NULL);
INSERT INTO requests VALUES('0a1b2c3d-0000-4000-8000-000000000001', 0, 51000, 2600000, 128, NULL);
INSERT INTO requests VALUES('0a1b2c3d-0000-4000-8000-000000000001', 1, 52000, 2610000, 128, '');
INSERT INTO requests VALUES('0a1b2c3d-0000-4000-8000-000000000001', 2, NULL, 100, 0, 'HTTP 503');
INSERT INTO requests VALUES('0a1b2c3d-0000-4000-8000-000000000002', 0, 49000, 2500000, 127, NULL);
