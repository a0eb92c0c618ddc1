/* Whole messages over a socket between autotune's processes (the compile
 * workers, the GPU worker): all n bytes or an error, EINTR retried, no
 * SIGPIPE. */
#ifndef AT_SOCKIO_H
#define AT_SOCKIO_H

#include <stddef.h>

/* 0, or -1 on error. */
int at_sock_send(int fd, const void *buf, size_t n);
/* 0; -1 on error or end of file; -2 past deadline (at_now_s() time;
 * <= 0: none). */
int at_sock_recv(int fd, void *buf, size_t n, double deadline);

#endif
