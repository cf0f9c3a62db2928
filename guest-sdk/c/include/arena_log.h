// Logging for C bots of any game, over the `arena:common/log` import: lines land in the match
// replay's bot log (bounded per turn and per match by the host). stdout and stderr land there
// too, but through WASI and the C library's buffering; these calls go straight to the host.
//
// Header-only. Needs the game's bindings, `guest-sdk/c/bindings/<game>/bot.h`, on the include
// path (the build adds it). `arena_logf` pulls in the C library's printf machinery (tens of KiB of
// code); `arena_log` does not.
#ifndef ARENA_LOG_H
#define ARENA_LOG_H

#include <stdarg.h>
#include <stdio.h>

#include "bot.h"

#ifdef __cplusplus
extern "C" {
#endif

// Log levels, as the bindings define them.
#define ARENA_LOG_DEBUG ARENA_COMMON_LOG_LEVEL_DEBUG
#define ARENA_LOG_INFO ARENA_COMMON_LOG_LEVEL_INFO
#define ARENA_LOG_WARN ARENA_COMMON_LOG_LEVEL_WARN
#define ARENA_LOG_ERROR ARENA_COMMON_LOG_LEVEL_ERROR

// Longest line `arena_logf` formats (bytes, the terminating NUL included); longer ones are cut.
#ifndef ARENA_LOG_LINE
#define ARENA_LOG_LINE 256
#endif

// Appends the NUL-terminated `message` to the bot's log as one line (no copy is made).
static inline void arena_log(arena_common_log_level_t level, const char *message) {
  bot_string_t text;
  bot_string_set(&text, message);
  arena_common_log_log(level, &text);
}

// Appends one printf-formatted line (at most ARENA_LOG_LINE - 1 bytes) to the bot's log.
__attribute__((format(printf, 2, 3))) static inline void arena_logf(arena_common_log_level_t level,
                                                                   const char *format, ...) {
  char line[ARENA_LOG_LINE];
  va_list args;
  va_start(args, format);
  vsnprintf(line, sizeof line, format, args);
  va_end(args);
  arena_log(level, line);
}

#ifdef __cplusplus
}
#endif
#endif
