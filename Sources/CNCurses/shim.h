// What Swift cannot import from ncurses (attribute macros, globals, varargs), as static inline functions.
// Only inspector-tui/RewindTUI/Terminal and Screen/ScreenPainter use this.
#ifndef REWIND_CNCURSES_SHIM_H
#define REWIND_CNCURSES_SHIM_H

#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <stdio.h>
#include <wchar.h>
#include <ncurses.h>

// wcwidth is hidden from Swift's Glibc module unless _XOPEN_SOURCE is defined there.
extern int wcwidth(wchar_t c);

/// The standard screen of the current terminal (a C global, which Swift 6 refuses to read directly).
static inline WINDOW *rewind_stdscr(void) { return stdscr; }

/// Number of colour pairs the terminal supports (the COLOR_PAIRS global).
static inline int rewind_color_pairs(void) { return COLOR_PAIRS; }

/// Number of colours the terminal supports (the COLORS global).
static inline int rewind_colors(void) { return COLORS; }

/// Attribute bits (A_* macros).
static inline attr_t rewind_attr_normal(void) { return A_NORMAL; }
static inline attr_t rewind_attr_bold(void) { return A_BOLD; }
static inline attr_t rewind_attr_reverse(void) { return A_REVERSE; }
static inline attr_t rewind_attr_dim(void) { return A_DIM; }
static inline attr_t rewind_attr_underline(void) { return A_UNDERLINE; }

/// The system's idea of a character's display width (what ncurses uses to advance the cursor).
static inline int rewind_wcwidth(wchar_t c) { return wcwidth(c); }

/// Builds a complex character from up to CCHARW_MAX wide characters (a spacing one, then non-spacing ones,
/// NUL-terminated) and adds it at row y, column x. Returns OK or ERR (ERR also in the bottom-right corner,
/// where the character is still drawn).
static inline int rewind_put_cell(WINDOW *win, int y, int x, const wchar_t *text, attr_t attrs, short pair) {
    cchar_t cell;
    if (setcchar(&cell, text, attrs, pair, NULL) != OK) return ERR;
    return mvwadd_wch(win, y, x, &cell);
}

#endif
