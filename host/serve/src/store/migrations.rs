//! The schema, as versioned migrations applied in order from an empty database: a database at
//! version `n` gets migrations `n+1..`, each in its own transaction with the version it brings,
//! and a database newer than the last one known is refused ([`super::StoreError::NewerSchema`]).
//! Each migration is written once per backend's dialect; where the version is kept is the
//! backend's business (SQLite's `user_version`, PostgreSQL's `schema_version` table).
//! A migration, once released, is never edited: a change is a new one at the end.

/// One migration: the version it brings the database to and its SQL (statements separated by
/// `;`) in each backend's dialect. Both dialects describe the same tables, columns and
/// constraints; they differ only where the databases do (PostgreSQL's `BIGSERIAL` and `BOOLEAN`
/// for SQLite's `INTEGER PRIMARY KEY` and 0/1).
pub struct Migration {
    /// The version after it.
    pub version: i64,
    /// What it changes, for the log.
    pub summary: &'static str,
    /// Its statements for SQLite.
    pub sqlite: &'static str,
    /// Its statements for PostgreSQL.
    pub postgres: &'static str,
}

/// Every migration, oldest first.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        summary: "accounts, sessions, tokens, bots, versions, matches and their seats, the audit log",
        sqlite: "
        CREATE TABLE users (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            password_hash TEXT NOT NULL,
            admin INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE sessions (
            token_sha256 TEXT PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id),
            csrf TEXT NOT NULL,
            expires INTEGER NOT NULL
        );
        CREATE TABLE api_tokens (
            token_sha256 TEXT PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(id),
            label TEXT NOT NULL
        );
        CREATE TABLE bots (
            id INTEGER PRIMARY KEY,
            owner INTEGER NOT NULL REFERENCES users(id),
            game TEXT NOT NULL,
            name TEXT NOT NULL,
            disabled INTEGER NOT NULL DEFAULT 0,
            UNIQUE (game, name)
        );
        CREATE TABLE versions (
            id INTEGER PRIMARY KEY,
            bot_id INTEGER NOT NULL REFERENCES bots(id),
            sha256 TEXT NOT NULL,
            size INTEGER NOT NULL,
            status TEXT NOT NULL,
            reason TEXT,
            steps TEXT NOT NULL DEFAULT '[]',
            UNIQUE (bot_id, sha256)
        );
        CREATE TABLE matches (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            seed INTEGER NOT NULL,
            kind TEXT NOT NULL,
            state TEXT NOT NULL,
            claimed_by TEXT,
            winner INTEGER,
            turns INTEGER,
            replay_sha256 TEXT,
            error TEXT
        );
        CREATE INDEX matches_by_state ON matches (state, kind, id);
        CREATE INDEX matches_by_game ON matches (game, state, id);
        CREATE TABLE match_seats (
            match_id INTEGER NOT NULL REFERENCES matches(id),
            seat INTEGER NOT NULL,
            version_id INTEGER NOT NULL REFERENCES versions(id),
            outcome TEXT,
            PRIMARY KEY (match_id, seat)
        );
        CREATE INDEX seats_by_version ON match_seats (version_id, match_id);
        CREATE TABLE audit (
            id INTEGER PRIMARY KEY,
            actor TEXT NOT NULL,
            action TEXT NOT NULL,
            detail TEXT NOT NULL
        );
    ",
        // Every integer is a BIGINT, read as i64 like SQLite's; seeds are u64 stored bit for bit.
        postgres: "
        CREATE TABLE users (
            id BIGSERIAL PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            password_hash TEXT NOT NULL,
            admin BOOLEAN NOT NULL DEFAULT FALSE
        );
        CREATE TABLE sessions (
            token_sha256 TEXT PRIMARY KEY,
            user_id BIGINT NOT NULL REFERENCES users(id),
            csrf TEXT NOT NULL,
            expires BIGINT NOT NULL
        );
        -- `id` stands in for SQLite's implicit rowid: it orders a user's tokens as they were made.
        CREATE TABLE api_tokens (
            id BIGSERIAL NOT NULL,
            token_sha256 TEXT PRIMARY KEY,
            user_id BIGINT NOT NULL REFERENCES users(id),
            label TEXT NOT NULL
        );
        CREATE TABLE bots (
            id BIGSERIAL PRIMARY KEY,
            owner BIGINT NOT NULL REFERENCES users(id),
            game TEXT NOT NULL,
            name TEXT NOT NULL,
            disabled BOOLEAN NOT NULL DEFAULT FALSE,
            UNIQUE (game, name)
        );
        CREATE TABLE versions (
            id BIGSERIAL PRIMARY KEY,
            bot_id BIGINT NOT NULL REFERENCES bots(id),
            sha256 TEXT NOT NULL,
            size BIGINT NOT NULL,
            status TEXT NOT NULL,
            reason TEXT,
            steps TEXT NOT NULL DEFAULT '[]',
            UNIQUE (bot_id, sha256)
        );
        CREATE TABLE matches (
            id BIGSERIAL PRIMARY KEY,
            game TEXT NOT NULL,
            seed BIGINT NOT NULL,
            kind TEXT NOT NULL,
            state TEXT NOT NULL,
            claimed_by TEXT,
            winner BIGINT,
            turns BIGINT,
            replay_sha256 TEXT,
            error TEXT
        );
        CREATE INDEX matches_by_state ON matches (state, kind, id);
        CREATE INDEX matches_by_game ON matches (game, state, id);
        CREATE TABLE match_seats (
            match_id BIGINT NOT NULL REFERENCES matches(id),
            seat BIGINT NOT NULL,
            version_id BIGINT NOT NULL REFERENCES versions(id),
            outcome TEXT,
            PRIMARY KEY (match_id, seat)
        );
        CREATE INDEX seats_by_version ON match_seats (version_id, match_id);
        CREATE TABLE audit (
            id BIGSERIAL PRIMARY KEY,
            actor TEXT NOT NULL,
            action TEXT NOT NULL,
            detail TEXT NOT NULL
        );
    ",
    },
    Migration {
        version: 2,
        summary: "upload and request times (for the hourly quotas), who asked for a scrimmage, frozen ladders",
        sqlite: "
        ALTER TABLE versions ADD COLUMN uploaded INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE matches ADD COLUMN requested_by INTEGER REFERENCES users(id);
        ALTER TABLE matches ADD COLUMN requested INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX scrimmages_by_requester ON matches (requested_by, requested);
        CREATE TABLE frozen_games (game TEXT PRIMARY KEY);
    ",
        postgres: "
        ALTER TABLE versions ADD COLUMN uploaded BIGINT NOT NULL DEFAULT 0;
        ALTER TABLE matches ADD COLUMN requested_by BIGINT REFERENCES users(id);
        ALTER TABLE matches ADD COLUMN requested BIGINT NOT NULL DEFAULT 0;
        CREATE INDEX scrimmages_by_requester ON matches (requested_by, requested);
        CREATE TABLE frozen_games (game TEXT PRIMARY KEY);
    ",
    },
    Migration {
        version: 3,
        summary: "each played match's record digest (a match played elsewhere has its replay made on demand)",
        sqlite: "
        ALTER TABLE matches ADD COLUMN digest TEXT;
    ",
        postgres: "
        ALTER TABLE matches ADD COLUMN digest TEXT;
    ",
    },
    Migration {
        version: 4,
        summary: "rating snapshots: each version's line of a refitted leaderboard, for its rating's history",
        sqlite: "
        CREATE TABLE rating_snapshots (
            id INTEGER PRIMARY KEY,
            version_id INTEGER NOT NULL REFERENCES versions(id),
            results INTEGER NOT NULL,
            rating REAL NOT NULL,
            low REAL NOT NULL,
            high REAL NOT NULL,
            matches INTEGER NOT NULL
        );
        CREATE INDEX snapshots_by_version ON rating_snapshots (version_id, id);
    ",
        postgres: "
        CREATE TABLE rating_snapshots (
            id BIGSERIAL PRIMARY KEY,
            version_id BIGINT NOT NULL REFERENCES versions(id),
            results BIGINT NOT NULL,
            rating DOUBLE PRECISION NOT NULL,
            low DOUBLE PRECISION NOT NULL,
            high DOUBLE PRECISION NOT NULL,
            matches BIGINT NOT NULL
        );
        CREATE INDEX snapshots_by_version ON rating_snapshots (version_id, id);
    ",
    },
    Migration {
        version: 5,
        summary: "claims with a lease (several nodes), and the spec id of a match sent to NATS workers",
        sqlite: "
        ALTER TABLE matches ADD COLUMN lease_until INTEGER;
        ALTER TABLE matches ADD COLUMN spec_id TEXT;
        CREATE INDEX matches_by_spec ON matches (spec_id);
    ",
        postgres: "
        ALTER TABLE matches ADD COLUMN lease_until BIGINT;
        ALTER TABLE matches ADD COLUMN spec_id TEXT;
        CREATE INDEX matches_by_spec ON matches (spec_id);
    ",
    },
    Migration {
        version: 6,
        summary: "NATS workers with their signing keys, and audits of their results",
        sqlite: "
        CREATE TABLE workers (
            name TEXT PRIMARY KEY,
            key TEXT NOT NULL,
            trusted INTEGER NOT NULL DEFAULT 0,
            suspect INTEGER NOT NULL DEFAULT 0,
            results INTEGER NOT NULL DEFAULT 0,
            audits INTEGER NOT NULL DEFAULT 0,
            mismatches INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE audits (
            id INTEGER PRIMARY KEY,
            match_id INTEGER NOT NULL REFERENCES matches(id),
            spec_id TEXT NOT NULL,
            worker TEXT NOT NULL,
            result TEXT NOT NULL,
            auditor TEXT,
            audit_result TEXT,
            state TEXT NOT NULL
        );
        CREATE INDEX audits_by_spec ON audits (spec_id, state);
    ",
        postgres: "
        CREATE TABLE workers (
            name TEXT PRIMARY KEY,
            key TEXT NOT NULL,
            trusted BOOLEAN NOT NULL DEFAULT FALSE,
            suspect BOOLEAN NOT NULL DEFAULT FALSE,
            results BIGINT NOT NULL DEFAULT 0,
            audits BIGINT NOT NULL DEFAULT 0,
            mismatches BIGINT NOT NULL DEFAULT 0
        );
        CREATE TABLE audits (
            id BIGSERIAL PRIMARY KEY,
            match_id BIGINT NOT NULL REFERENCES matches(id),
            spec_id TEXT NOT NULL,
            worker TEXT NOT NULL,
            result TEXT NOT NULL,
            auditor TEXT,
            audit_result TEXT,
            state TEXT NOT NULL
        );
        CREATE INDEX audits_by_spec ON audits (spec_id, state);
    ",
    },
    Migration {
        version: 7,
        summary: "competitions (seasons), their frozen entrants, and the competition of a match",
        sqlite: "
        CREATE TABLE competitions (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            name TEXT NOT NULL,
            format TEXT NOT NULL,
            deadline INTEGER NOT NULL,
            seeds INTEGER NOT NULL,
            state TEXT NOT NULL,
            release TEXT NOT NULL,
            bracket TEXT,
            created INTEGER NOT NULL
        );
        CREATE TABLE competition_entrants (
            competition_id INTEGER NOT NULL REFERENCES competitions(id),
            version_id INTEGER NOT NULL REFERENCES versions(id),
            seed INTEGER NOT NULL,
            PRIMARY KEY (competition_id, seed)
        );
        ALTER TABLE matches ADD COLUMN competition_id INTEGER REFERENCES competitions(id);
        CREATE INDEX matches_by_competition ON matches (competition_id, id);
    ",
        postgres: "
        CREATE TABLE competitions (
            id BIGSERIAL PRIMARY KEY,
            game TEXT NOT NULL,
            name TEXT NOT NULL,
            format TEXT NOT NULL,
            deadline BIGINT NOT NULL,
            seeds BIGINT NOT NULL,
            state TEXT NOT NULL,
            release TEXT NOT NULL,
            bracket TEXT,
            created BIGINT NOT NULL
        );
        CREATE TABLE competition_entrants (
            competition_id BIGINT NOT NULL REFERENCES competitions(id),
            version_id BIGINT NOT NULL REFERENCES versions(id),
            seed BIGINT NOT NULL,
            PRIMARY KEY (competition_id, seed)
        );
        ALTER TABLE matches ADD COLUMN competition_id BIGINT REFERENCES competitions(id);
        CREATE INDEX matches_by_competition ON matches (competition_id, id);
    ",
    },
    Migration {
        version: 8,
        summary: "private bots (their files served to their owner, the admins and trusted workers only)",
        // The file index finds the bots holding a file when it is asked for by its sha256.
        sqlite: "
        ALTER TABLE bots ADD COLUMN private INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX versions_by_sha256 ON versions (sha256);
    ",
        postgres: "
        ALTER TABLE bots ADD COLUMN private BOOLEAN NOT NULL DEFAULT FALSE;
        CREATE INDEX versions_by_sha256 ON versions (sha256);
    ",
    },
    Migration {
        version: 9,
        summary: "competitions: results released round by round, Swiss rounds, a gauntlet's pool",
        // NULL released_rounds: every round released (as before); NULL rounds: the default.
        sqlite: "
        ALTER TABLE competitions ADD COLUMN released_rounds INTEGER;
        ALTER TABLE competitions ADD COLUMN rounds INTEGER;
        ALTER TABLE competitions ADD COLUMN pool TEXT;
    ",
        postgres: "
        ALTER TABLE competitions ADD COLUMN released_rounds BIGINT;
        ALTER TABLE competitions ADD COLUMN rounds BIGINT;
        ALTER TABLE competitions ADD COLUMN pool TEXT;
    ",
    },
    Migration {
        version: 10,
        summary: "bots' data folders: a version is a file and the data folder it brought (by digest)",
        // '' for a version without data, so the uniqueness of (bot, file, data) holds for it too
        // (NULLs are never equal). SQLite cannot drop a table's UNIQUE constraint: the table is
        // rebuilt (`migrate` runs each migration with foreign keys off and checks them after).
        sqlite: "
        CREATE TABLE versions_new (
            id INTEGER PRIMARY KEY,
            bot_id INTEGER NOT NULL REFERENCES bots(id),
            sha256 TEXT NOT NULL,
            size INTEGER NOT NULL,
            status TEXT NOT NULL,
            reason TEXT,
            steps TEXT NOT NULL DEFAULT '[]',
            uploaded INTEGER NOT NULL DEFAULT 0,
            data_digest TEXT NOT NULL DEFAULT '',
            UNIQUE (bot_id, sha256, data_digest)
        );
        INSERT INTO versions_new (id, bot_id, sha256, size, status, reason, steps, uploaded)
            SELECT id, bot_id, sha256, size, status, reason, steps, uploaded FROM versions;
        DROP TABLE versions;
        ALTER TABLE versions_new RENAME TO versions;
        CREATE INDEX versions_by_sha256 ON versions (sha256);
        CREATE INDEX versions_by_data ON versions (data_digest);
    ",
        postgres: "
        ALTER TABLE versions ADD COLUMN data_digest TEXT NOT NULL DEFAULT '';
        ALTER TABLE versions DROP CONSTRAINT versions_bot_id_sha256_key;
        ALTER TABLE versions ADD CONSTRAINT versions_bot_id_sha256_data_digest_key UNIQUE (bot_id, sha256, data_digest);
        CREATE INDEX versions_by_data ON versions (data_digest);
    ",
    },
];

/// The newest version this program knows.
pub fn latest() -> i64 {
    MIGRATIONS.last().map_or(0, |migration| migration.version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_count_up_from_one_without_gaps() {
        for (i, migration) in MIGRATIONS.iter().enumerate() {
            assert_eq!(migration.version, i as i64 + 1, "{}", migration.summary);
        }
    }
}
