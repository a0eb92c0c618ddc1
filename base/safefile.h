/* Writing a file whole or not at all: the content goes to a temporary file
 * created exclusively (mkstemp) in the target's directory, and is renamed
 * over the target when complete. A target that exists and is not a regular
 * file (a device, a pipe, /dev/stdout) is written through instead. "-" is
 * standard output. A symbolic link is kept and the file it names is
 * replaced (a dangling one is refused); an existing file that is not
 * writable, or that has other hard links, is refused, not replaced. Emitted .cu files, records and the benchmark's CSV all
 * go through here. */
#ifndef AT_SAFEFILE_H
#define AT_SAFEFILE_H

#include <stdio.h>

#include "error.h"

/* The longest path written, with its terminator: a longer one is an
 * error, never cut. */
enum { AT_PATH_MAX = 1024 };

typedef struct at_safefile {
    FILE *f;
    char path[AT_PATH_MAX]; /* the target */
    char tmp[1100];  /* the temporary file; "" when written through */
} at_safefile;

/* Opens for writing. AUTOTUNE_EIO naming the path on failure. */
int at_safefile_open(at_safefile *s, const char *path, at_err *e);
/* Closes and renames into place; on any write error the temporary file is
 * removed, the target untouched, and AUTOTUNE_EIO returned. */
int at_safefile_commit(at_safefile *s, at_err *e);
/* Closes and keeps the temporary file (what was written so far, for the
 * user to see after a failure); its name is s->tmp. */
void at_safefile_keep(at_safefile *s);
/* Closes and removes the temporary file: the target untouched, nothing
 * left behind (for output that is of no use cut short). */
void at_safefile_discard(at_safefile *s);
/* The folder of path into dir (n bytes): "." for a bare name, "/" for
 * a name at the root. */
void at_path_dir(const char *path, char *dir, size_t n);
/* 1 if a and b name one file: the same inode where both exist, the same
 * resolved path where neither does ("-" and "" name none). */
int at_path_same(const char *a, const char *b);
/* 1 if st (a file's or folder's) is this user's and writable by no one
 * else: what the cache and the host's memo of its GPUs must be, since
 * another's could plant what they answer. */
struct stat;
int at_stat_mine_alone(const struct stat *st);

#endif
