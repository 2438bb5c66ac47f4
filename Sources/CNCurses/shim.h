// What Swift cannot import from ncurses (attribute macros, globals, varargs), as static inline functions.
// Only inspector-tui/RewindTUI/Terminal uses this.
#ifndef REWIND_CNCURSES_SHIM_H
#define REWIND_CNCURSES_SHIM_H

#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <wchar.h>
#include <ncurses.h>

static inline WINDOW *rewind_stdscr(void) { return stdscr; }

#endif
