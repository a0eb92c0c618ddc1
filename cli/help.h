/* -h, --help anywhere on the line, and `autotune help [COMMAND
 * [FAMILY|SPEC]]`: a command's help (help.c). */
#ifndef AT_HELP_H
#define AT_HELP_H

/* 1 if the line asks for help. */
int at_help_wanted(int argc, char **argv);
/* Prints the help the line asks for on stdout: 0, or 2 (said) for a
 * command, family or spec that is none. */
int at_help(int argc, char **argv);

#endif
