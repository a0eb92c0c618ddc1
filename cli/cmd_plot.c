/* `autotune plot RECORD.csv -o FILE`: pictures of a tuning run, drawn by
 * the Python package (python/autotune/plot.py, matplotlib). This runs it
 * with the arguments as given: $AUTOTUNE_PYTHON (default python3) with
 * the package installed, or the build's own python/ folder on its path;
 * a replay it asks for runs in this binary (AUTOTUNE_CLI). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "errors.h"

#ifndef AT_PYTHON_DIR
#define AT_PYTHON_DIR ""
#endif

/* PYTHONPATH with the build's python/ first, where it still exists (an
 * installed autotune finds the installed package instead). */
static int python_path(void)
{
    char probe[4096], path[8192];
    struct stat st;
    snprintf(probe, sizeof probe, "%s/autotune/plot.py", AT_PYTHON_DIR);
    if (!AT_PYTHON_DIR[0] || stat(probe, &st) != 0)
        return 0;
    const char *old = getenv("PYTHONPATH");
    snprintf(path, sizeof path, "%s%s%s", AT_PYTHON_DIR, old && *old ? ":" : "",
             old && *old ? old : "");
    return setenv("PYTHONPATH", path, 1);
}

int at_cmd_plot(int argc, char **argv)
{
    const char *py = getenv("AUTOTUNE_PYTHON");
    if (!py || !*py)
        py = "python3";
    /* This binary replays (without it, the package finds its own). */
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    int rc = 0;
    if (n > 0 && !getenv("AUTOTUNE_CLI")) {
        self[n] = '\0';
        rc = setenv("AUTOTUNE_CLI", self, 1);
    }
    if (rc != 0 || python_path() != 0) {
        at_cli_say("plot: setting the Python package's environment: %s\n",
                   strerror(errno));
        return 1;
    }
    /* python3 -m autotune.plot ARGS (argv[0] "autotune", argv[1] "plot"). */
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args) {
        at_cli_say("plot: out of memory\n");
        return 1;
    }
    args[0] = (char *)py;
    args[1] = "-m";
    args[2] = "autotune.plot";
    for (int i = 2; i < argc; ++i)
        args[i + 1] = argv[i];
    fflush(stdout);
    execvp(py, args);
    at_cli_say("plot: cannot run %s: %s (the plots need Python 3 with "
               "matplotlib; AUTOTUNE_PYTHON names the interpreter)\n", py,
               strerror(errno));
    free(args);
    return 1;
}
