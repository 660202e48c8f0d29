-- Players' accounts, sign-in tokens, ratings and rated games (accounts.py and ratings.py's
-- SQLite layout, in PostgreSQL). `folded` is an account's key, as tokens and ratings name it;
-- passwords and tokens are kept only hashed or sealed, never in plain text.
-- Rated games are `rated_games`: `games` is already the tables' games (001_tables.sql).

CREATE TABLE accounts (
    folded text PRIMARY KEY,
    name text NOT NULL,
    password text NOT NULL,         -- an argon2id hash
    created timestamptz NOT NULL DEFAULT now(),
    skeleton text NOT NULL,         -- the name's look-alike skeletons (issue 59): not unique,
    skeleton_folded text NOT NULL   -- two look-alike accounts from before then both stay
);

CREATE INDEX accounts_skeleton ON accounts (skeleton);
CREATE INDEX accounts_skeleton_folded ON accounts (skeleton_folded);

CREATE TABLE tokens (
    folded text NOT NULL REFERENCES accounts (folded) ON DELETE CASCADE,
    sealed text NOT NULL,
    made timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (folded, sealed)
);

CREATE TABLE ratings (
    folded text PRIMARY KEY REFERENCES accounts (folded) ON DELETE CASCADE,
    rating double precision NOT NULL,
    deviation double precision NOT NULL,
    volatility double precision NOT NULL
);

CREATE TABLE rated_games (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    played timestamptz NOT NULL DEFAULT now(),
    first text NOT NULL REFERENCES accounts (folded),
    second text NOT NULL REFERENCES accounts (folded),
    score double precision NOT NULL CHECK (score BETWEEN 0 AND 1)
);

CREATE INDEX rated_games_first ON rated_games (first);
CREATE INDEX rated_games_second ON rated_games (second);
