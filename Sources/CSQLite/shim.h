// What Swift cannot import from SQLite (SQLITE_TRANSIENT is a cast macro). Only
// Sources/RewindDaemon/Store/SQLiteDatabase.swift uses this.
#ifndef REWIND_CSQLITE_SHIM_H
#define REWIND_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLite copies the bound bytes before the bind call returns.
static inline sqlite3_destructor_type rewind_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
