// Whether the database holds no node yet (a new one): it has nothing to migrate, so each migration is only
// recorded (src/store/migrations.ts, runMigrations). Stops at the first node.
// Params: none. Returns one row: empty (boolean).
RETURN NOT EXISTS { MATCH (n) } AS empty
