-- The hub's schema (run by node-pg-migrate: `vedette hub migrate`, or at every hub start).
-- Battles mirror the table's SQLite record (src/record/schema.ts) so a battle leaves the hub as
-- the same `.vedette-battle` file; every event keeps the table's own row id as `seq`, and
-- (battle, seq) is its primary key: replicating it twice stores it once.

-- Up Migration

CREATE TABLE hub_tables (
  id text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
  name text NOT NULL,
  -- sha256 of the table's token (the token itself is shown once, when made)
  token_hash bytea NOT NULL UNIQUE,
  players text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE battles (
  id bigserial PRIMARY KEY,
  table_id text NOT NULL REFERENCES hub_tables(id) ON DELETE CASCADE,
  uid text NOT NULL,
  local_id integer NOT NULL,
  name text NOT NULL,
  scenario text NOT NULL,
  ruleset text NOT NULL,
  roster_json text NOT NULL,
  camera_json text,
  started_at bigint NOT NULL,
  ended_at bigint,
  players text[] NOT NULL DEFAULT '{}',
  meta_digest text NOT NULL,
  last_event_at bigint NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (table_id, uid)
);
CREATE INDEX battles_by_start ON battles (started_at DESC);
CREATE INDEX battles_by_table ON battles (table_id, started_at DESC);

CREATE TABLE moves (
  battle_id bigint NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
  seq integer NOT NULL,
  t bigint NOT NULL,
  marker_id integer NOT NULL,
  unit_id text NOT NULL,
  x double precision NOT NULL,
  y double precision NOT NULL,
  heading_deg double precision NOT NULL,
  sigma_mm double precision NOT NULL,
  sigma_heading_deg double precision NOT NULL,
  from_x double precision,
  from_y double precision,
  from_heading_deg double precision,
  moving_since bigint NOT NULL,
  PRIMARY KEY (battle_id, seq)
);

CREATE TABLE keyframes (
  battle_id bigint NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
  seq integer NOT NULL,
  t bigint NOT NULL,
  poses_json text NOT NULL,
  PRIMARY KEY (battle_id, seq)
);

CREATE TABLE marks (
  battle_id bigint NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
  seq integer NOT NULL,
  t bigint NOT NULL,
  kind text NOT NULL CHECK (kind IN ('turn', 'phase')),
  turn integer,
  phase text,
  side text,
  source text NOT NULL CHECK (source IN ('player', 'inferred')),
  label text NOT NULL,
  PRIMARY KEY (battle_id, seq)
);

CREATE TABLE rulings (
  battle_id bigint NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
  seq integer NOT NULL,
  t bigint NOT NULL,
  ruleset text NOT NULL,
  question text NOT NULL,
  asked text NOT NULL,
  answer text NOT NULL,
  inputs_json text NOT NULL,
  verdict_json text NOT NULL,
  PRIMARY KEY (battle_id, seq)
);

CREATE TABLE annotations (
  battle_id bigint NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
  seq integer NOT NULL,
  t bigint NOT NULL,
  text text NOT NULL,
  x double precision,
  y double precision,
  author text,
  PRIMARY KEY (battle_id, seq)
);

CREATE TABLE snapshots (
  battle_id bigint NOT NULL REFERENCES battles(id) ON DELETE CASCADE,
  seq integer NOT NULL,
  t bigint NOT NULL,
  width integer NOT NULL,
  height integer NOT NULL,
  pose_json text,
  jpeg bytea NOT NULL,
  PRIMARY KEY (battle_id, seq)
);
-- JPEG does not compress: store it out of line without trying.
ALTER TABLE snapshots ALTER COLUMN jpeg SET STORAGE EXTERNAL;

-- What each table shows now (one row per table, written by the hub process holding its upload).
CREATE TABLE table_live (
  table_id text PRIMARY KEY REFERENCES hub_tables(id) ON DELETE CASCADE,
  instance text,
  connected boolean NOT NULL DEFAULT false,
  hello_json text,
  thumbnail bytea,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The live stream between hub processes: each message a table uploads, kept for a few seconds so
-- the processes that do not hold the upload can fetch it when NOTIFY says it is there (a
-- notification carries at most 8000 bytes; a picture does not fit). `origin` is the hub process
-- that wrote the row; each process writes one batch at a time, so its rows commit in `seq` order
-- and a reader can go on from the last `seq` it read of that origin. Unlogged: nothing here is
-- worth a crash-safe write.
CREATE UNLOGGED TABLE live_messages (
  seq bigserial PRIMARY KEY,
  origin text NOT NULL,
  table_id text NOT NULL,
  is_binary boolean NOT NULL,
  payload bytea NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX live_messages_by_origin ON live_messages (origin, seq);
ALTER TABLE live_messages ALTER COLUMN payload SET STORAGE EXTERNAL;

-- Down Migration

DROP TABLE live_messages;
DROP TABLE table_live;
DROP TABLE snapshots;
DROP TABLE annotations;
DROP TABLE rulings;
DROP TABLE marks;
DROP TABLE keyframes;
DROP TABLE moves;
DROP TABLE battles;
DROP TABLE hub_tables;
