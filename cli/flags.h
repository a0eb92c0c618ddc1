/* The command line's generic flags, one table (flags.c): the parser reads
 * it, the help prints it, and each flag says which commands take it, so
 * that what --help lists is what the command accepts. The problem's flags
 * are the family's fields (gen/family.h), not here. */
#ifndef AT_FLAGS_H
#define AT_FLAGS_H

#include <stddef.h>

/* The commands, as bits: a flag's set of them. */
enum {
    AT_CMD_TUNE = 1,       /* autotune FAMILY, autotune kernel SPEC */
    AT_CMD_SPACE = 2,      /* autotune space */
    AT_CMD_REPLAY = 4,     /* autotune replay */
    AT_CMD_BENCH = 8,      /* autotune bench FAMILY */
    AT_CMD_BENCH_TUNE = 16, /* autotune bench tune */
    AT_CMD_TUNE_LIST = 32   /* autotune tune-list */
};

enum at_flag_kind {
    AT_FLAG_TEXT,   /* a const char * of opts */
    AT_FLAG_NUMBER, /* a long long of opts in [min, max] */
    AT_FLAG_SWITCH, /* an int of opts set to 1 */
    AT_FLAG_SIZE,   /* --size: the family's size fields */
    AT_FLAG_SEED    /* --seed: 1 to 2^63 - 1 */
};

typedef struct at_flag {
    const char *flag; /* "--jobs" */
    const char *arg;  /* "N"; NULL for a switch */
    const char *help; /* lines apart by '\n' */
    int cmds;         /* AT_CMD_* that take it */
    enum at_flag_kind kind;
    size_t off;       /* where in opts (TEXT, NUMBER, SWITCH) */
    long long min, max;
} at_flag;

/* The table, ended by a NULL flag. */
extern const at_flag at_flags[];
/* The bit of a command ("tune", "space", "replay", "bench",
 * "bench-tune", "tune-list"); 0 if none. */
int at_cmd_bit(const char *cmd);
/* "tuning", "space", "replay", "bench", "bench tune": how messages say a
 * command. */
const char *at_cmd_said(int bit);

#endif
