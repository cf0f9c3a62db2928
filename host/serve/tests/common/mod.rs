//! What the integration tests share: a PostgreSQL server of their own ([`postgres`]).

pub mod postgres;
